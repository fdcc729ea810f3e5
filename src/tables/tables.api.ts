import { Controller, Get, HttpCode, Injectable, Post } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { ApiError } from '../common/api-error';
import { Form } from '../http/form';
import { Auth, BlockchainRoute, CurrentCaller } from '../http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { TableError } from '../table-access/catalog';
import { LIST_LIMITS, TablesService, type ListQuery, type Reader } from './tables.service';
import { parseOrderText, parseWhereText, whereFromJson } from '../table-access/where-text';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { HISTORY, ROW, ROWS_PAGE, SUM, TABLE_COUNTS, TABLE_INFO } from './tables.answers';
import type { ErrorCode } from '../common/error-codes';
import {
  HistoryParams,
  HistoryPath,
  ListForm,
  ListParams,
  ListWhereForm,
  RowByColumnForm,
  RowForm,
  RowParams,
  SumWhereForm,
  TableCountParams,
  TableParams,
  TablePath,
  TablesForm,
} from './tables.dto';

function readerOf(caller: Caller): Reader {
  return {
    ecosystem: caller.ecosystemId,
    keyId: caller.keyId,
    roleId: caller.roleId,
    account: caller.accountId,
  };
}

/** Where and order texts are read before the service runs; their refusals are E_SERVER like the rest. */
function parsed<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof TableError) throw ApiError.server(error.message);
    throw error;
  }
}

/**
 * Reads of a table's rows (list, listWhere, sumWhere, history and their JSON-RPC twins): an unknown or
 * another ecosystem's table (E_TABLENOTFOUND), a prefixed name of an ecosystem that does not exist
 * (E_ECOSYSTEM), a bad value, column, where or order, or a read condition that refuses on a private chain
 * (E_SERVER). REST history answers `[]` for a row without history, never E_NOTFOUND.
 */
const TABLE_READ_ERRORS: ErrorCode[] = ['E_TABLENOTFOUND', 'E_ECOSYSTEM', 'E_SERVER'];
/** The row reads add no such row (E_NOTFOUND) and a database failure (E_QUERY). */
const ROW_ERRORS: ErrorCode[] = [...TABLE_READ_ERRORS, 'E_NOTFOUND', 'E_QUERY'];
/** A page of rows as the service takes it. */
function listQuery({ limit, offset, columns }: ListForm): ListQuery {
  return { limit, offset, columns };
}

/** The page with its condition and order, whose texts are parsed here (their refusals are E_SERVER). */
function listWhereQuery(form: ListWhereForm): ListQuery {
  return {
    ...listQuery(form),
    where: parsed(() => parseWhereText(form.where)),
    order: parsed(() => parseOrderText(form.order)),
  };
}

@Controller('api/v2')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @ApiRoute({
    summary: "The caller's ecosystem's tables with their row counts",
    description:
      "The session's ecosystem's tables registered in `1_tables`, by id, each with its row count as " +
      "decimal text (shared tables count that ecosystem's rows); `count` is how many are registered. " +
      '`limit` is 25 by default and at most 1000, a negative offset counts as 0. A limit or offset that is ' +
      'not an integer is 502 E_SERVER (as the reference), a registered table missing from the database 400 ' +
      'E_SERVER. JSON-RPC: `ibax.getTableCount` (at most 100).',
    answer: TABLE_COUNTS,
    errors: ['E_SERVER'],
  })
  @Get('tables')
  @Auth()
  // The reference answers a form it cannot read here with 502 (rest-api.md §8.8).
  tableList(@Form({ status: 502 }) { offset, limit }: TablesForm, @CurrentCaller() caller: Caller) {
    return this.tables.tables(readerOf(caller), offset, limit, LIST_LIMITS.rest);
  }

  @ApiRoute({
    summary: "A table's permissions and columns",
    description:
      "The table's `1_tables` row in the session's ecosystem (name without prefix, any case): the " +
      '`insert`, `update` and `new_column` conditions (`read` and `filter` only when set), `conditions`, ' +
      '`app_id` as text, and per column its permission and platform type (varchar, number, json, datetime, ' +
      'money, double, …; "" when the table is missing from the database). A name not registered there is ' +
      '404 E_TABLENOTFOUND. JSON-RPC: `ibax.getTable`.',
    answer: TABLE_INFO,
    errors: ['E_TABLENOTFOUND'],
  })
  @Get('table/:name')
  @Auth()
  table(@Form() { name }: TablePath, @CurrentCaller() caller: Caller) {
    return this.tables.table(readerOf(caller), name);
  }

  @ApiRoute({
    summary: 'Rows of a table, a page at a time',
    description:
      'Rows by id, `limit` 25 by default and at most 1000, `list` null for an empty page. The table is the ' +
      "session's ecosystem's (plain name, or prefixed with that ecosystem) or a platform table, shared " +
      "tables such as keys or pages showing that ecosystem's rows; every value is text (bytes hex, NULL " +
      '"NULL", booleans true/false, timestamps RFC 3339). An unknown or another ecosystem\'s table is 404 ' +
      'E_TABLENOTFOUND (400 E_ECOSYSTEM when that ecosystem does not exist), an unknown column or, on a ' +
      'private chain, a read condition that refuses 400 E_SERVER. JSON-RPC: `ibax.getList`.',
    answer: ROWS_PAGE,
    errors: TABLE_READ_ERRORS,
  })
  @Get('list/:name')
  @Auth()
  list(@Form() form: ListForm, @CurrentCaller() caller: Caller) {
    return this.tables.list(readerOf(caller), form.name, listQuery(form), LIST_LIMITS.rest);
  }

  /** The reference routes listWhere and nodelistWhere as POST, the interface document as GET: both. */
  @ApiPostRoute({
    summary: 'Rows of a table matching a condition, a page at a time',
    description:
      'As list/:name, with `where` in the object syntax, not strict JSON (`{"amount": {"$gt": 10}, "$or": ' +
      '[...]}`; $eq $neq $gt $gte $lt $lte $in $nin $like $ilike $begin $ibegin $end $iend $isnull, ' +
      '`col->key` for JSON fields) and `order` (a column, `{"col": -1}` or a list of those as JSON, or ' +
      "text such as `name desc, id`; id ends every order). Shared tables give the session's ecosystem's " +
      "rows only (the reference gave every ecosystem's). A where or order that does not parse or names an " +
      'unknown column is 400 E_SERVER; nodelistWhere is the same route. JSON-RPC: `ibax.getList`.',
    answer: ROWS_PAGE,
    errors: TABLE_READ_ERRORS,
  })
  @Post(['listWhere/:name', 'nodelistWhere/:name'])
  @HttpCode(200)
  @Auth()
  listWhere(@Form() form: ListWhereForm, @CurrentCaller() caller: Caller) {
    return this.tables.list(readerOf(caller), form.name, listWhereQuery(form), LIST_LIMITS.rest);
  }

  @ApiRoute({
    summary: "Rows of a table matching a condition (the interface document's GET form)",
    description:
      'POST listWhere/nodelistWhere read from the query string: the same `where` (object syntax), `order`, ' +
      '`columns`, `limit` and `offset`, the same answer and errors.',
    answer: ROWS_PAGE,
    errors: TABLE_READ_ERRORS,
  })
  @Get(['listWhere/:name', 'nodelistWhere/:name'])
  @Auth()
  listWhereGet(@Form() form: ListWhereForm, @CurrentCaller() caller: Caller) {
    return this.listWhere(form, caller);
  }

  @ApiPostRoute({
    summary: 'Sum of a number column over the rows matching a condition',
    description:
      'Sums the number `column` (integer, numeric or floating point) over the rows matching `where` ' +
      '(object syntax, as listWhere) and answers the sum as decimal text, "" when no row matches; shared ' +
      "tables count the session's ecosystem's rows only. A missing, unknown or non-number column or a bad " +
      'where is 400 E_SERVER; the table is found, or refused, as for list/:name.',
    answer: SUM,
    errors: TABLE_READ_ERRORS,
  })
  @Post('sumWhere/:name')
  @HttpCode(200)
  @Auth()
  async sumWhere(@Form() form: SumWhereForm, @CurrentCaller() caller: Caller) {
    const where = parsed(() => parseWhereText(form.where));
    // No column is the empty one, which the table's column check refuses (as the reference does).
    return { sum: await this.tables.sum(readerOf(caller), form.name, form.column ?? '', where) };
  }

  @ApiRoute({
    summary: 'Sum of a number column over the rows matching a condition (GET form)',
    description:
      'POST sumWhere read from the query string: the same `column` and `where`, answer and errors.',
    answer: SUM,
    errors: TABLE_READ_ERRORS,
  })
  @Get('sumWhere/:name')
  @Auth()
  sumWhereGet(@Form() form: SumWhereForm, @CurrentCaller() caller: Caller) {
    return this.sumWhere(form, caller);
  }

  @ApiRoute({
    summary: 'One row by id',
    description:
      'The row with that id: the `columns` asked for (all the reader may see by default) and id, every ' +
      'value text (bytes hex, NULL "NULL", …); the table is found, or refused, as for list/:name. No such ' +
      'row, or an id that is not an integer, is 404 E_NOTFOUND, an unknown column 400 E_SERVER, a database ' +
      'failure 500 E_QUERY. JSON-RPC: `ibax.getRow`.',
    answer: ROW,
    errors: ROW_ERRORS,
  })
  @Get('row/:name/:id')
  @Auth()
  async row(@Form() { name, id, columns }: RowForm, @CurrentCaller() caller: Caller) {
    return { value: await this.tables.row(readerOf(caller), name, id, { columns }) };
  }

  @ApiRoute({
    summary: 'One row by the value of a column',
    description:
      'A row whose `column` equals `id` (compared as text unless the column is an integer), answered as ' +
      'row/:name/:id answers. No match is 404 E_NOTFOUND, an unknown column 400 E_SERVER, a database ' +
      'failure 500 E_QUERY. JSON-RPC: `ibax.getRow` with `whereColumn`.',
    answer: ROW,
    errors: ROW_ERRORS,
  })
  @Get('row/:name/:column/:id')
  @Auth()
  async rowBy(@Form() { name, column, id, columns }: RowByColumnForm, @CurrentCaller() caller: Caller) {
    return { value: await this.tables.row(readerOf(caller), name, id, { keyColumn: column, columns }) };
  }

  @ApiRoute({
    summary: "What a row's columns held before each change, newest first (at most 100)",
    description:
      'Read from the rollback journal, columns the reader may not see left out; `[]` when the row has no ' +
      "history or is not the session's ecosystem's. The table is found, or refused, as for list/:name. Not " +
      'served on a CLB node (404). JSON-RPC: `ibax.history`, which answers -32012 instead of `[]`.',
    answer: HISTORY,
    errors: TABLE_READ_ERRORS,
  })
  @Get('history/:name/:id')
  @Auth()
  @BlockchainRoute()
  async history(@Form() { name, id }: HistoryPath, @CurrentCaller() caller: Caller) {
    return { list: await this.tables.history(readerOf(caller), name, id) };
  }
}

/** `where` and `order` of getList: text is read as the REST routes read it, anything else as JSON. */
function listParamsQuery({ limit, offset, columns, where, order }: ListParams): ListQuery {
  return {
    limit,
    offset,
    columns,
    where: parsed(() =>
      typeof where === 'string' || where === undefined ? parseWhereText(where) : whereFromJson(where),
    ),
    order: parsed(() =>
      typeof order === 'string' || order === undefined ? parseOrderText(order) : whereFromJson(order),
    ),
  };
}

@Injectable()
export class TablesRpc {
  constructor(private readonly tables: TablesService) {}

  @RpcMethod('getTableCount', {
    auth: true,
    summary: "The caller's ecosystem's tables with their row counts",
    result: TABLE_COUNTS,
    errors: ['E_SERVER'],
  })
  getTableCount({ offset, limit }: TableCountParams, { caller }: RpcCallContext) {
    return this.tables.tables(readerOf(caller), offset, limit, LIST_LIMITS.rpc);
  }

  @RpcMethod('getTable', {
    auth: true,
    summary: "A table's permissions and columns",
    result: TABLE_INFO,
    errors: ['E_TABLENOTFOUND'],
  })
  getTable({ tableName }: TableParams, { caller }: RpcCallContext) {
    return this.tables.table(readerOf(caller), tableName);
  }

  @RpcMethod('getList', {
    auth: true,
    singleObject: true,
    summary: 'Rows of a table, optionally matching a condition, a page at a time',
    description:
      '`where` is a map in the object syntax (`{"amount": {"$gt": 10}}`) or its text; `order` a column, ' +
      '`{"col": -1}`, a list of those, or their JSON text. Every value comes back as text (bytes hex, NULL ' +
      '"NULL"); `limit` is 25 by default and at most 100.',
    result: ROWS_PAGE,
    errors: TABLE_READ_ERRORS,
  })
  getList(params: ListParams, { caller }: RpcCallContext) {
    return this.tables.list(readerOf(caller), params.name, listParamsQuery(params), LIST_LIMITS.rpc);
  }

  @RpcMethod('getRow', {
    auth: true,
    summary: 'One row by id, or by the value of another column',
    description:
      'Matches `id` against `whereColumn` (default id); values come back as text (bytes hex, NULL "NULL"). ' +
      'No matching row answers -32012 "NotFound".',
    result: ROW,
    errors: ROW_ERRORS,
  })
  async getRow({ tableName, id, columns, whereColumn }: RowParams, { caller }: RpcCallContext) {
    const value = await this.tables.row(readerOf(caller), tableName, id.toString(), {
      keyColumn: whereColumn,
      columns,
    });
    return { value };
  }

  @RpcMethod('history', {
    auth: true,
    summary: "What a row's columns held before each change, newest first (at most 100)",
    description: 'A row with no history answers -32012 "NotFound" (REST answers an empty list).',
    result: HISTORY,
    errors: [...TABLE_READ_ERRORS, 'E_NOTFOUND'],
  })
  async history({ name, tableId }: HistoryParams, { caller }: RpcCallContext) {
    const list = await this.tables.history(readerOf(caller), name, tableId);
    if (list.length === 0) throw new ApiError('E_NOTFOUND');
    return { list };
  }
}

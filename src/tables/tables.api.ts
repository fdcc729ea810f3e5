import { Controller, Get, HttpCode, Injectable, Param, Post, Req } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { lenientInt64 } from '../common/http/path-params';
import { Auth, BlockchainRoute } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { decodeInteger, member } from '../rpc/rpc-params';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { TableError } from './catalog';
import { LIST_LIMITS, TablesService, type ListQuery, type Reader } from './tables.service';
import { parseOrderText, parseWhereText, whereFromJson } from './where-text';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import type { ErrorCode } from '../common/error-codes';

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

/** The form of `list` (limit, offset, columns) and, with `where`, of listWhere and nodelistWhere. */
function listQuery(req: ApiRequest, withWhere: boolean): ListQuery {
  const values = FormValues.of(req);
  const form = parseForm(values, { limit: 'int64', offset: 'int64', columns: 'string' });
  const query: ListQuery = { limit: form.limit, offset: form.offset, columns: form.columns };
  if (withWhere) {
    query.where = parsed(() => parseWhereText(values.last('where')));
    query.order = parsed(() => parseOrderText(values.last('order')));
  }
  return query;
}

const PAGE_FORM = {
  offset: { description: 'rows to skip', schema: s.integer() },
  limit: { description: 'page size (25 by default)', schema: s.integer() },
};
const LIST_FORM = { ...PAGE_FORM, columns: 'comma-separated columns (default all the reader may see)' };
const WHERE_FORM = {
  ...LIST_FORM,
  where: 'condition (object syntax, e.g. {"amount": {"$gt": 10}})',
  order: 'order: a column, or a map/list of columns and directions',
};
const SUM_FORM = { column: { description: 'number column to sum', required: true }, where: WHERE_FORM.where };
const LIST_ERRORS: ErrorCode[] = ['E_TABLENOTFOUND', 'E_SERVER', 'E_PERMISSION', 'E_NOTFOUND', 'E_QUERY'];
const TABLE_COUNTS = s.object({
  count: s.integer('tables in the ecosystem'),
  list: s.array(s.object({ name: s.string(), count: s.decimalString() })),
});
const TABLE_INFO = s.object(
  {
    name: s.string(),
    insert: s.string(),
    new_column: s.string(),
    update: s.string(),
    read: s.string(),
    filter: s.string(),
    conditions: s.string(),
    app_id: s.decimalString(),
    columns: s.array(s.object({ name: s.string(), type: s.string(), perm: s.string() })),
  },
  { optional: ['read', 'filter'] },
);
const ROWS_PAGE = s.object({
  count: s.integer('matching rows'),
  list: s.nullable(s.array(s.map(s.any(), 'a row: column → value as text (JSON columns as JSON)'))),
});
const ROW = s.object({ value: s.map(s.any(), 'column → value') });
const SUM = s.object({ sum: s.string('decimal text, "" when no row matches') });
const HISTORY = s.object({ list: s.array(s.map(s.any(), 'column → previous value')) });

@Controller('api/v2')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @ApiRoute({
    summary: "The caller's ecosystem's tables with their row counts",
    form: PAGE_FORM,
    answer: TABLE_COUNTS,
  })
  @Get('tables')
  @Auth()
  async tableList(@Req() req: ApiRequest) {
    let form;
    try {
      form = parseForm(FormValues.of(req), { limit: 'int64', offset: 'int64' });
    } catch (error) {
      // The reference answers a bad form here with 502 (rest-api.md §8.8).
      throw error instanceof ApiError ? error.withStatus(502) : error;
    }
    return this.tables.tables(readerOf(req.caller), form.offset, form.limit, LIST_LIMITS.rest);
  }

  @ApiRoute({
    summary: "A table's permissions and columns",
    path: { name: 'table name (without the ecosystem prefix)' },
    answer: TABLE_INFO,
    errors: ['E_TABLENOTFOUND', 'E_SERVER'],
  })
  @Get('table/:name')
  @Auth()
  table(@Param('name') name: string, @Req() req: ApiRequest) {
    return this.tables.table(readerOf(req.caller), name);
  }

  @ApiRoute({
    summary: 'Rows of a table, a page at a time',
    path: { name: 'table name (without the ecosystem prefix)' },
    form: LIST_FORM,
    answer: ROWS_PAGE,
    errors: LIST_ERRORS,
  })
  @Get('list/:name')
  @Auth()
  list(@Param('name') name: string, @Req() req: ApiRequest) {
    return this.tables.list(readerOf(req.caller), name, listQuery(req, false), LIST_LIMITS.rest);
  }

  /** The reference routes listWhere and nodelistWhere as POST, the interface document as GET: both. */
  @ApiPostRoute({
    summary: 'Rows of a table matching a condition, a page at a time',
    path: { name: 'table name (without the ecosystem prefix)' },
    form: WHERE_FORM,
    answer: ROWS_PAGE,
    errors: LIST_ERRORS,
  })
  @Post(['listWhere/:name', 'nodelistWhere/:name'])
  @HttpCode(200)
  @Auth()
  listWhere(@Param('name') name: string, @Req() req: ApiRequest) {
    return this.tables.list(readerOf(req.caller), name, listQuery(req, true), LIST_LIMITS.rest);
  }

  @ApiRoute({
    summary: "Rows of a table matching a condition (the interface document's GET form)",
    path: { name: 'table name (without the ecosystem prefix)' },
    form: WHERE_FORM,
    answer: ROWS_PAGE,
    errors: LIST_ERRORS,
  })
  @Get(['listWhere/:name', 'nodelistWhere/:name'])
  @Auth()
  listWhereGet(@Param('name') name: string, @Req() req: ApiRequest) {
    return this.listWhere(name, req);
  }

  @ApiPostRoute({
    summary: 'Sum of a number column over the rows matching a condition',
    path: { name: 'table name (without the ecosystem prefix)' },
    form: SUM_FORM,
    answer: SUM,
    errors: LIST_ERRORS,
  })
  @Post('sumWhere/:name')
  @HttpCode(200)
  @Auth()
  async sumWhere(@Param('name') name: string, @Req() req: ApiRequest) {
    const values = FormValues.of(req);
    const where = parsed(() => parseWhereText(values.last('where')));
    return { sum: await this.tables.sum(readerOf(req.caller), name, values.last('column') ?? '', where) };
  }

  @ApiRoute({
    summary: 'Sum of a number column over the rows matching a condition (GET form)',
    path: { name: 'table name (without the ecosystem prefix)' },
    form: SUM_FORM,
    answer: SUM,
    errors: LIST_ERRORS,
  })
  @Get('sumWhere/:name')
  @Auth()
  sumWhereGet(@Param('name') name: string, @Req() req: ApiRequest) {
    return this.sumWhere(name, req);
  }

  @ApiRoute({
    summary: 'One row by id',
    path: { name: 'table name (without the ecosystem prefix)', id: 'row id' },
    form: { columns: 'comma-separated columns (default all)' },
    answer: ROW,
    errors: LIST_ERRORS,
  })
  @Get('row/:name/:id')
  @Auth()
  async row(@Param('name') name: string, @Param('id') id: string, @Req() req: ApiRequest) {
    const { columns } = parseForm(FormValues.of(req), { columns: 'string' });
    return { value: await this.tables.row(readerOf(req.caller), name, id, { columns }) };
  }

  @ApiRoute({
    summary: 'One row by the value of a column',
    path: {
      name: 'table name (without the ecosystem prefix)',
      column: 'the column to match',
      id: 'its value',
    },
    form: { columns: 'comma-separated columns (default all)' },
    answer: ROW,
    errors: LIST_ERRORS,
  })
  @Get('row/:name/:column/:id')
  @Auth()
  async rowBy(
    @Param('name') name: string,
    @Param('column') column: string,
    @Param('id') id: string,
    @Req() req: ApiRequest,
  ) {
    const { columns } = parseForm(FormValues.of(req), { columns: 'string' });
    return { value: await this.tables.row(readerOf(req.caller), name, id, { keyColumn: column, columns }) };
  }

  @ApiRoute({
    summary: "What a row's columns held before each change, newest first (at most 100)",
    path: { name: 'table name (without the ecosystem prefix)', id: 'row id' },
    answer: HISTORY,
    errors: LIST_ERRORS,
  })
  @Get('history/:name/:id')
  @Auth()
  @BlockchainRoute()
  async history(@Param('name') name: string, @Param('id') id: string, @Req() req: ApiRequest) {
    return { list: await this.tables.history(readerOf(req.caller), name, lenientInt64(id)) };
  }
}

interface ListForm {
  name: string;
  limit?: bigint;
  offset?: bigint;
  columns?: string;
  whereJson: unknown;
  orderJson: unknown;
}

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/**
 * The object of getList: {name, limit, offset, columns, order, where}, names matched case-insensitively.
 * `where` is the object syntax as a string (the reference) or the object itself (the interface
 * document); `order` a column name, a map, a list, or any of those as JSON text.
 */
function listForm(raw: unknown): ListForm {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected an object');
  const object = raw as Record<string, unknown>;
  const present = (name: string) => {
    const value = member(object, name);
    return value === undefined || value === null ? undefined : value;
  };
  const integer = (name: string) => {
    const value = present(name);
    if (value === undefined) return undefined;
    try {
      return decodeInteger(value, 'int64', ...INT64);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
  };
  const text = (name: string) => {
    const value = present(name);
    if (value !== undefined && typeof value !== 'string') throw new Error(`${name}: expected a string`);
    return value;
  };
  return {
    name: text('name') ?? '',
    limit: integer('limit'),
    offset: integer('offset'),
    columns: text('columns'),
    whereJson: present('where'),
    orderJson: present('order'),
  };
}

@Injectable()
export class TablesRpc {
  constructor(private readonly tables: TablesService) {}

  @RpcMethod('getTableCount', {
    auth: true,
    summary: "The caller's ecosystem's tables with their row counts",
    params: [
      { name: 'offset', type: 'int64', optional: true, description: 'tables to skip' },
      { name: 'limit', type: 'int64', optional: true, description: 'how many' },
    ],
    result: TABLE_COUNTS,
  })
  getTableCount([offset, limit]: [bigint | undefined, bigint | undefined], { caller }: RpcCallContext) {
    return this.tables.tables(readerOf(caller), offset, limit, LIST_LIMITS.rpc);
  }

  @RpcMethod('getTable', {
    auth: true,
    summary: "A table's permissions and columns",
    params: [{ name: 'tableName', type: 'string', description: 'table name' }],
    result: TABLE_INFO,
  })
  getTable([name]: [string], { caller }: RpcCallContext) {
    if (!name) throw RpcError.invalidParams('params can not be empty');
    return this.tables.table(readerOf(caller), name);
  }

  @RpcMethod('getList', {
    auth: true,
    singleObject: true,
    summary: 'Rows of a table, optionally matching a condition, a page at a time',
    params: [
      {
        name: 'form',
        type: listForm,
        optional: true,
        description: 'the table and the page; where as an object or its JSON text',
        schema: s.object(
          {
            name: s.string(),
            limit: s.integer(),
            offset: s.integer(),
            columns: s.string(),
            where: s.any('condition object, or its JSON text'),
            order: s.any('column name, map, list, or JSON text'),
          },
          { optional: ['limit', 'offset', 'columns', 'where', 'order'] },
        ),
      },
    ],
    result: ROWS_PAGE,
  })
  getList([form]: [ListForm | undefined], { caller }: RpcCallContext) {
    if (!form?.name) throw RpcError.invalidParams('params can not be empty');
    const { whereJson, orderJson } = form;
    const query: ListQuery = {
      ...form,
      where: parsed(() =>
        typeof whereJson === 'string' || whereJson === undefined
          ? parseWhereText(whereJson)
          : whereFromJson(whereJson),
      ),
      order: parsed(() =>
        typeof orderJson === 'string' || orderJson === undefined
          ? parseOrderText(orderJson)
          : whereFromJson(orderJson),
      ),
    };
    return this.tables.list(readerOf(caller), form.name, query, LIST_LIMITS.rpc);
  }

  @RpcMethod('getRow', {
    auth: true,
    summary: 'One row by id, or by the value of another column',
    params: [
      { name: 'tableName', type: 'string', description: 'table name' },
      { name: 'id', type: 'int64', description: 'row id, or the value of whereColumn' },
      { name: 'columns', type: 'string', optional: true, description: 'comma-separated columns' },
      {
        name: 'whereColumn',
        type: 'string',
        optional: true,
        description: 'the column to match instead of id',
      },
    ],
    result: ROW,
  })
  async getRow(
    [name, id, columns, whereColumn]: [string, bigint, string | undefined, string | undefined],
    { caller }: RpcCallContext,
  ) {
    if (!name) throw RpcError.invalidParams('tableName or id invalid');
    const value = await this.tables.row(readerOf(caller), name, id.toString(), {
      keyColumn: whereColumn,
      columns,
    });
    return { value };
  }

  @RpcMethod('history', {
    auth: true,
    summary: "What a row's columns held before each change, newest first (at most 100)",
    params: [
      { name: 'name', type: 'string', description: 'table name' },
      { name: 'tableId', type: 'uint64', description: 'row id' },
    ],
    result: HISTORY,
  })
  async history([name, id]: [string, bigint], { caller }: RpcCallContext) {
    if (!name || id === 0n) throw RpcError.invalidParams('invalid params');
    const list = await this.tables.history(readerOf(caller), name, id);
    if (list.length === 0) throw new ApiError('E_NOTFOUND');
    return { list };
  }
}

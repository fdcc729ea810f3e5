import { Injectable } from '@nestjs/common';
import { ChainEvents } from '../chain/chain-events';
import { ChainMemo, memoKey } from '../chain/chain-memo';
import { ApiError } from '../common/api-error';
import { keepGoJson } from '../common/go-json';
import { jsonObject } from '../common/json-object';
import { rowKeyOf } from '../contract-host/journal';
import { ContractsService } from '../contracts/contracts.service';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { RollbackTxEntity } from '../blocks/entities/rollback-tx.entity';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { TableEntity } from './entities/table.entity';
import { ECOSYSTEM_EXISTS } from '../ecosystem/ecosystem.service';
import type { Cell, FindRowsQuery, FoundRows, HistoryRows } from '../template/types';
import type { Value } from '../vm';
import {
  FIRST_ECOSYSTEM_TABLES,
  resolveTable,
  TableCatalog,
  TableError,
  textColumnExpression,
  type ColumnInfo,
  type ResolvedTable,
} from '../table-access/catalog';
import {
  columnNames,
  columnReference,
  jsonPathExpression,
  outputColumn,
  referenceTextExpression,
} from '../table-access/columns';
import { orderClause } from '../table-access/order';
import {
  columnReadCondition,
  loadTablePermissions,
  type TablePermissions,
} from '../table-access/permissions';
import { WhereCompiler } from '../table-access/where';
import type { ListPage, TableCounts, TableInfo, TextRow } from './tables.answers';

/** Who reads: the session's ecosystem, key, role and account (read conditions see them). */
export interface Reader {
  ecosystem: bigint;
  keyId: bigint;
  roleId: bigint;
  account: string;
}

export interface ListQuery {
  limit?: bigint;
  offset?: bigint;
  /** Comma list of columns, `*`, or `column->key` paths of JSON columns; empty: every column. */
  columns?: string;
  /** A where-map (see WhereCompiler); undefined: every row. */
  where?: Value;
  /** An order (see orderClause); null: by id. */
  order?: Value;
}

/** DBFind's query with its where and order as contract values (maps), as the compilers take them. */
export type FindQuery = Omit<FindRowsQuery, 'ecosystem' | 'where' | 'order'> & {
  where?: Value;
  order?: Value;
};

export const LIST_LIMITS = { default: 25n, rest: 1000n, rpc: 100n } as const;

const INT64_MAX = 2n ** 63n - 1n;
const INTEGER_TYPES = new Set(['bigint', 'integer', 'smallint']);
const NUMERIC_TYPES = new Set([...INTEGER_TYPES, 'numeric', 'double precision', 'real']);
/** Parameters are public to every reader of their ecosystem (rest-api.md §8.1). */
const ALWAYS_READABLE = new Set(['parameters', 'app_params']);
/** A cut-off text cell shows this many characters (DBFind `.Cutoff`). */
const CUTOFF_TITLE = 32;
const TEXT_TYPES = new Set(['text', 'character varying', 'character', 'jsonb', 'json']);
const HISTORY_LIMIT = 100;
/** A name `1_tables` can hold (any case: it is looked up lower-cased). */
const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A table opened for a reader: where it is, its columns, and those the reader may see. */
interface OpenTable {
  table: ResolvedTable;
  columns: Map<string, ColumnInfo>;
  visible: Map<string, ColumnInfo>;
}

/** One selected output member: its key in the answer and its SQL. */
interface Selected {
  key: string;
  sql: string;
}

function pageBounds(query: ListQuery, maxLimit: bigint): { limit: bigint; offset: bigint } {
  let limit = query.limit ?? 0n;
  if (limit <= 0n) limit = LIST_LIMITS.default;
  if (limit > maxLimit) limit = maxLimit;
  const offset = query.offset !== undefined && query.offset > 0n ? query.offset : 0n;
  return { limit, offset };
}

/** The column type names `GET /table/{name}` reports (the platform's names for its column types). */
function platformType(type: string | undefined): string {
  if (type === undefined) return '';
  if (type === 'character varying') return 'varchar';
  if (type === 'bigint') return 'number';
  if (type === 'jsonb') return 'json';
  if (type.startsWith('timestamp')) return 'datetime';
  if (type.startsWith('numeric')) return 'money';
  if (type.startsWith('double')) return 'double';
  return type;
}

function sortedRow(entries: [string, unknown][]): TextRow {
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, value]) => [key, value === null ? 'NULL' : String(value)]));
}

/**
 * Reads of ecosystem tables for the API and the page engine: names resolved and checked against the
 * catalogue, columns, where and order compiled from checked names with bound values, read permissions
 * applied, values rendered as rest-api.md §8.1 says. A reader sees its own ecosystem: its tables, its rows
 * of the shared tables, and the platform's tables; another ecosystem's names are refused.
 */
const TABLES = new EntityTable(TableEntity);
/** The tables of the ecosystem $1. */
const ECOSYSTEM_TABLES = `${TABLES.name} WHERE ${TABLES.column('ecosystem')} = $1`;
const TABLE_INFO = TABLES.select('name', 'permissions', 'columns', 'conditions', 'appId');
const JOURNAL = new EntityTable(RollbackTxEntity);

@Injectable()
export class TablesService {
  private privateChain?: Promise<boolean>;

  /**
   * Columns and permissions of tables, and DBFind answers, kept until the chain changes (ChainMemo): a
   * page of rows otherwise cost two catalogue queries before its own, and a page render several reads.
   */
  private readonly columnsMemo: ChainMemo<Map<string, ColumnInfo> | null>;
  private readonly permissionsMemo: ChainMemo<TablePermissions | undefined>;
  /** Answers of row, list and sum reads, per reader and request (read permissions depend on the reader). */
  private readonly answers: ChainMemo<unknown>;

  constructor(
    private readonly db: DatabaseService,
    private readonly contracts: ContractsService,
    private readonly parameters: PlatformParametersService,
    events: ChainEvents,
  ) {
    this.columnsMemo = new ChainMemo(events);
    this.permissionsMemo = new ChainMemo(events);
    this.answers = new ChainMemo(events, 2_000);
  }

  private answer<T>(key: string, load: () => Promise<T>): Promise<T> {
    // Shared by every request that asks the same until the chain changes: its JSON is written once.
    return this.answers.get(key, async () => keepGoJson(await load())) as Promise<T>;
  }

  private columnsOf(physical: string): Promise<Map<string, ColumnInfo> | null> {
    return this.columnsMemo.get(physical, () => new TableCatalog(this.db).columns(physical));
  }

  private permissionsOf(table: ResolvedTable): Promise<TablePermissions | undefined> {
    return this.permissionsMemo.get(`${table.ecosystem}:${table.physical}`, () =>
      loadTablePermissions(this.db, table),
    );
  }

  /**
   * `private_blockchain` switches read permissions on (rest-api.md §8.1). Its condition is `false`, so no
   * contract changes it: it is read once.
   */
  private isPrivateChain(): Promise<boolean> {
    // A read that failed (the database down a moment) is not kept: the next request asks again.
    this.privateChain ??= this.parameters.isPrivateChain().catch((error: unknown) => {
      this.privateChain = undefined;
      throw error;
    });
    return this.privateChain;
  }

  /** `@N`, `N_` and plain names; a name of another ecosystem is refused (E_ECOSYSTEM when it has none). */
  async resolve(reader: Reader, rawName: string): Promise<ResolvedTable> {
    let table: ResolvedTable;
    try {
      table = resolveTable(rawName, reader.ecosystem);
    } catch {
      throw new ApiError('E_TABLENOTFOUND', rawName);
    }
    if (table.ecosystem === reader.ecosystem || FIRST_ECOSYSTEM_TABLES.has(table.name)) return table;
    const exists =
      table.ecosystem <= INT64_MAX && (await this.db.one(ECOSYSTEM_EXISTS, [table.ecosystem.toString()]));
    if (!exists) throw new ApiError('E_ECOSYSTEM', table.ecosystem);
    throw new ApiError('E_TABLENOTFOUND', rawName);
  }

  private async open(reader: Reader, rawName: string): Promise<OpenTable> {
    const table = await this.resolve(reader, rawName);
    const columns = await this.columnsOf(table.physical);
    if (!columns) throw new ApiError('E_TABLENOTFOUND', table.physical);
    return { table, columns, visible: await this.readableColumns(reader, table, columns) };
  }

  /**
   * The columns a reader may see: all of them, unless the chain is private and the table's `1_tables`
   * row has read conditions (the table's: false → refused; a column's: false → hidden).
   */
  private async readableColumns(
    reader: Reader,
    table: ResolvedTable,
    columns: Map<string, ColumnInfo>,
  ): Promise<Map<string, ColumnInfo>> {
    if (!(await this.isPrivateChain())) return columns;
    if (table.shared && ALWAYS_READABLE.has(table.name)) return columns;
    const permissions = await this.permissionsOf(table);
    if (!permissions) return columns;
    const columnConditions = new Map<string, string>();
    for (const name of columns.keys()) {
      const condition = columnReadCondition(permissions, name);
      if (condition) columnConditions.set(name, condition);
    }
    const conditions = [...new Set([permissions.read ?? '', ...columnConditions.values()])].filter(Boolean);
    const verdicts = new Map<string, boolean>();
    if (conditions.length > 0) {
      const results = await this.contracts.readConditions(
        { ecosystem: reader.ecosystem, keyId: reader.keyId, roleId: reader.roleId, account: reader.account },
        conditions,
      );
      conditions.forEach((condition, i) => verdicts.set(condition, results[i]));
    }
    if (permissions.read && !verdicts.get(permissions.read)) throw ApiError.server('table: access denied');
    const visible = new Map<string, ColumnInfo>();
    for (const [name, column] of columns) {
      const condition = columnConditions.get(name);
      if (!condition || verdicts.get(condition)) visible.set(name, column);
    }
    if (visible.size === 0) throw ApiError.server('access denied');
    return visible;
  }

  /**
   * The `columns` value: checked names and JSON paths (see columnReference), `id` first; a hidden column,
   * and the paths into it, are left out.
   */
  private selection(open: OpenTable, spec: string | undefined, params: unknown[]): Selected[] {
    const names = columnNames(spec ?? '');
    const selected = new Map<string, string>();
    const bind = (param: unknown) => `$${params.push(param)}`;
    const addColumn = (column: ColumnInfo) => selected.set(column.name, textColumnExpression(column));
    const id = open.visible.get('id');
    if (id) addColumn(id);
    if (names.length === 0 || names.includes('*')) {
      for (const column of open.visible.values()) addColumn(column);
    }
    let askedVisible = false;
    for (const name of names) {
      if (name === '*') continue;
      const reference = columnReference(name, open.columns);
      if (!reference) throw new TableError(`column ${name.toLowerCase()} does not exist`);
      if (!open.visible.has(reference.column.name)) continue;
      askedVisible = true;
      // Asked twice: bound once (a parameter the statement does not use has no type PostgreSQL can infer).
      if (selected.has(reference.key)) continue;
      selected.set(reference.key, referenceTextExpression(reference, bind));
    }
    // Columns asked for by name, all of them hidden: refused rather than answered with ids alone.
    if (selected.size === 0 || (names.length > 0 && !names.includes('*') && !askedVisible))
      throw ApiError.server('access denied');
    return [...selected].map(([key, sql]) => ({ key, sql }));
  }

  /** Rows of a shared table are the reader's ecosystem's. */
  private scope(table: ResolvedTable, params: unknown[]): string {
    if (!table.shared) return 'true';
    params.push(table.ecosystem.toString());
    return `"ecosystem" = $${params.length}`;
  }

  /**
   * Runs compilers and statements of a read. Refusals of the compilers and data errors of the database (a
   * where value its column cannot hold: SQLSTATE class 22) are the caller's: 400 E_SERVER with the reason.
   * Any other database failure is the endpoint's documented one, `failed` (E_QUERY for row), else E_SERVER.
   */
  private async reading<T>(work: () => Promise<T>, failed?: () => ApiError): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof TableError) throw ApiError.server(error.message);
      if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
        if (error.code.startsWith('22') || !failed) throw ApiError.server(error.message);
        throw failed();
      }
      throw error;
    }
  }

  private async rows(sql: string, params: unknown[], selected: Selected[]): Promise<TextRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(sql, params);
    return rows.map((row) => sortedRow(selected.map((item, i) => [item.key, row[outputColumn(i)]])));
  }

  /** `list`, `listWhere`, `nodelistWhere`, `getList`: a page of rows and the count of all that match. */
  async list(reader: Reader, name: string, query: ListQuery, maxLimit: bigint): Promise<ListPage> {
    return this.answer(memoKey('list', reader, name, query, maxLimit), () =>
      this.listNow(reader, name, query, maxLimit),
    );
  }

  private async listNow(reader: Reader, name: string, query: ListQuery, maxLimit: bigint): Promise<ListPage> {
    const open = await this.open(reader, name);
    return this.reading(
      async () => {
        // The count binds the where's values alone: they come first, the selection's JSON paths after.
        const params: unknown[] = [];
        const where = new WhereCompiler(open.visible, params).compile(query.where ?? null);
        const condition = `${this.scope(open.table, params)} AND ${where}`;
        const from = `FROM "${open.table.physical}" WHERE ${condition}`;
        const counted = await this.db.one<{ count: string }>(`SELECT count(*) AS "count" ${from}`, [
          ...params,
        ]);
        const selected = this.selection(open, query.columns, params);
        const order = orderClause(query.order ?? null, open.visible);
        const { limit, offset } = pageBounds(query, maxLimit);
        const list = selected.map((item, i) => `${item.sql} AS "${outputColumn(i)}"`).join(', ');
        const page = [...params, offset.toString(), limit.toString()];
        const rows = await this.rows(
          `SELECT ${list} ${from} ORDER BY ${order} OFFSET $${page.length - 1} LIMIT $${page.length}`,
          page,
          selected,
        );
        return { count: BigInt(counted?.count ?? 0), list: rows.length > 0 ? rows : null };
      },
      () => new ApiError('E_TABLENOTFOUND', open.table.physical),
    );
  }

  /** `sumWhere`: the sum of a number column over the matching rows, "" when none match. */
  async sum(reader: Reader, name: string, columnName: string, where: Value | undefined): Promise<string> {
    return this.answer(memoKey('sum', reader, name, columnName, where), () =>
      this.sumNow(reader, name, columnName, where),
    );
  }

  private async sumNow(
    reader: Reader,
    name: string,
    columnName: string,
    where: Value | undefined,
  ): Promise<string> {
    const open = await this.open(reader, name);
    return this.reading(
      async () => {
        const column = open.visible.get(columnName.trim().toLowerCase());
        if (!column) throw new TableError(`column ${columnName} does not exist`);
        if (!NUMERIC_TYPES.has(column.type))
          throw new TableError(`column ${column.name} is not a number column`);
        const params: unknown[] = [];
        const condition = `${this.scope(open.table, params)} AND ${new WhereCompiler(open.visible, params).compile(where ?? null)}`;
        const row = await this.db.one<{ count: string; sum: string | null }>(
          `SELECT count(*) AS "count", sum("${column.name}")::text AS "sum" FROM "${open.table.physical}" WHERE ${condition}`,
          params,
        );
        return row && row.count !== '0' && row.sum !== null ? row.sum : '';
      },
      () => new ApiError('E_TABLENOTFOUND', open.table.physical),
    );
  }

  /**
   * `row`, `getRow`: the row whose `keyColumn` (default id) is `key`, with the chosen columns and id.
   * A key that its column cannot hold matches nothing.
   */
  async row(
    reader: Reader,
    name: string,
    key: string,
    options: { keyColumn?: string; columns?: string } = {},
  ): Promise<TextRow> {
    return this.answer(memoKey('row', reader, name, key, options), () =>
      this.rowNow(reader, name, key, options),
    );
  }

  private async rowNow(
    reader: Reader,
    name: string,
    key: string,
    options: { keyColumn?: string; columns?: string },
  ): Promise<TextRow> {
    const open = await this.open(reader, name);
    return this.reading(
      async () => {
        const keyName = (options.keyColumn ?? '').trim().toLowerCase() || 'id';
        const keyColumn = open.visible.get(keyName);
        if (!keyColumn) throw new TableError(`column ${keyName} does not exist`);
        const params: unknown[] = [];
        const selected = this.selection(open, options.columns, params);
        let match: string;
        if (INTEGER_TYPES.has(keyColumn.type)) {
          if (!/^-?\d{1,19}$/.test(key) || BigInt(key) > INT64_MAX || BigInt(key) < -INT64_MAX - 1n)
            throw new ApiError('E_NOTFOUND');
          params.push(key);
          match = `"${keyColumn.name}" = $${params.length}`;
        } else {
          params.push(key);
          match = `${textColumnExpression(keyColumn)} = $${params.length}`;
        }
        const list = selected.map((item, i) => `${item.sql} AS "${outputColumn(i)}"`).join(', ');
        const [row] = await this.rows(
          `SELECT ${list} FROM "${open.table.physical}" WHERE ${match} AND ${this.scope(open.table, params)} LIMIT 1`,
          params,
          selected,
        );
        if (!row) throw new ApiError('E_NOTFOUND');
        return row;
      },
      () => new ApiError('E_QUERY'),
    );
  }

  /**
   * DBFind of the page engine: the chosen columns (`*`: every one the reader may see), where, order and window,
   * and with `count` the number of matching rows. Byte columns come back as their MD5 and `cutoff` text
   * columns as their first 32 characters and MD5: the page links them to the `/data` endpoint.
   */
  async find(reader: Reader, query: FindQuery): Promise<FoundRows> {
    const open = await this.open(reader, query.table);
    return this.reading(async () => {
      const params: unknown[] = [];
      const where = new WhereCompiler(open.visible, params).compile(query.where ?? null);
      const from = `FROM "${open.table.physical}" WHERE ${this.scope(open.table, params)} AND ${where}`;
      let count: string | undefined;
      if (query.count) {
        const counted = await this.db.one<{ count: string }>(`SELECT count(*) AS "count" ${from}`, [
          ...params,
        ]);
        count = counted?.count ?? '0';
      }
      const cutoff = new Set(query.cutoff.map((name) => name.trim().toLowerCase()));
      const output: { key: string; kind: 'text' | 'blob' | 'long_text'; sql: string }[] = [];
      const add = (column: ColumnInfo) => {
        const quoted = `"${column.name}"`;
        if (column.type === 'bytea') output.push({ key: column.name, kind: 'blob', sql: `md5(${quoted})` });
        else if (cutoff.has(column.name) && TEXT_TYPES.has(column.type))
          output.push({
            key: column.name,
            kind: 'long_text',
            sql: `left(${quoted}::text, ${CUTOFF_TITLE}) || ':' || md5(${quoted}::text)`,
          });
        else output.push({ key: column.name, kind: 'text', sql: textColumnExpression(column) });
      };
      const bind = (param: unknown) => `$${params.push(param)}`;
      for (const name of columnNames(query.columns)) {
        if (name === '*') {
          for (const column of open.visible.values()) add(column);
          continue;
        }
        const reference = columnReference(name, open.columns);
        if (!reference) throw new TableError(`column ${name} does not exist`);
        if (!open.visible.has(reference.column.name)) continue;
        if (reference.path.length === 0) {
          add(reference.column);
          continue;
        }
        output.push({
          key: reference.key,
          kind: 'text',
          sql: jsonPathExpression(reference.column, reference.path, bind),
        });
      }
      if (output.length === 0) throw ApiError.server('access denied');
      const order = orderClause(query.order ?? null, open.visible);
      const page = [...params, String(query.offset), String(query.limit)];
      const list = output.map((item, i) => `${item.sql} AS "${outputColumn(i)}"`).join(', ');
      const rows = await this.db.query<Record<string, string | null>>(
        `SELECT ${list} ${from} ORDER BY ${order} OFFSET $${page.length - 1} LIMIT $${page.length}`,
        page,
      );
      const cells = rows.map((row) =>
        output.map((item, i): Cell => {
          const value = row[outputColumn(i)] ?? null;
          if (value === null || item.kind === 'text') return value;
          if (item.kind === 'blob') return { title: value, hash: value };
          const split = value.lastIndexOf(':');
          return { title: value.slice(0, split), hash: value.slice(split + 1) };
        }),
      );
      return {
        table: open.table.physical,
        columns: output.map((item) => item.key),
        types: output.map((item) => item.kind),
        rows: cells,
        count,
      };
    });
  }

  /** GetColumnType: the platform's name of a column's type (`text`, `number`, `money`, …). */
  async columnType(reader: Reader, table: string, column: string): Promise<string> {
    const open = await this.open(reader, table);
    const info = open.visible.get(column.trim().toLowerCase());
    if (!info) throw new TableError(`column ${column} does not exist`);
    return platformType(info.type);
  }

  /** `tables`, `getTableCount`: the ecosystem's registered tables, each with its row count (as text). */
  async tables(
    reader: Reader,
    offsetArg: bigint | undefined,
    limitArg: bigint | undefined,
    maxLimit: bigint,
  ): Promise<TableCounts> {
    const { limit, offset } = pageBounds({ limit: limitArg, offset: offsetArg }, maxLimit);
    const ecosystem = reader.ecosystem.toString();
    const total = await this.db.one<{ count: string }>(
      `SELECT count(*) AS "count" FROM ${ECOSYSTEM_TABLES}`,
      [ecosystem],
    );
    const names = await this.db.query<Pick<TableEntity, 'name'>>(
      `SELECT ${TABLES.select('name')} FROM ${ECOSYSTEM_TABLES} ORDER BY ${TABLES.column('id')} OFFSET $2 LIMIT $3`,
      [ecosystem, offset.toString(), limit.toString()],
    );
    const list: TableCounts['list'] = [];
    for (const { name } of names) {
      let table: ResolvedTable;
      try {
        table = resolveTable(name, reader.ecosystem);
      } catch {
        throw ApiError.server(`table ${name} has not been found`);
      }
      const params: unknown[] = [];
      const row = await this.reading(() =>
        this.db.one<{ count: string }>(
          `SELECT count(*) AS "count" FROM "${table.physical}" WHERE ${this.scope(table, params)}`,
          params,
        ),
      );
      list.push({ name, count: row?.count ?? '0' });
    }
    return { count: BigInt(total?.count ?? 0), list };
  }

  /** `table/{name}`, `getTable`: the table's `1_tables` row in the reader's ecosystem and its columns' types. */
  async table(reader: Reader, name: string): Promise<TableInfo> {
    if (!TABLE_NAME.test(name)) throw new ApiError('E_TABLENOTFOUND', name);
    const row = await this.db.one<RowOf<typeof TABLE_INFO>>(
      `SELECT ${TABLE_INFO} FROM ${ECOSYSTEM_TABLES} AND ${TABLES.column('name')} = lower($2)`,
      [reader.ecosystem.toString(), name],
    );
    if (!row) throw new ApiError('E_TABLENOTFOUND', name);
    let types: Map<string, ColumnInfo> | null = null;
    try {
      types = await this.columnsOf(resolveTable(row.name, reader.ecosystem).physical);
    } catch (error) {
      if (!(error instanceof TableError)) throw error;
    }
    const permissions = jsonObject(row.permissions);
    const text = (key: string) => (typeof permissions[key] === 'string' ? (permissions[key] as string) : '');
    return {
      name: row.name,
      insert: text('insert'),
      new_column: text('new_column'),
      update: text('update'),
      read: text('read') || undefined,
      filter: text('filter') || undefined,
      conditions: row.conditions,
      app_id: row.appId,
      columns: Object.entries(jsonObject(row.columns)).map(([column, perm]) => ({
        name: column,
        type: platformType(types?.get(column)?.type),
        perm: typeof perm === 'string' ? perm : JSON.stringify(perm),
      })),
    };
  }

  /**
   * `history/{name}/{id}`, `history`: what the row's columns held before each change, newest first (at
   * most 100), as the rollback journal keeps it; columns the reader may not see are left out.
   */
  async history(reader: Reader, name: string, id: bigint): Promise<Record<string, unknown>[]> {
    return (await this.journal(reader, name, id)).list;
  }

  /**
   * GetHistory of the page engine: the table's visible columns in order and the row's former versions (one
   * journal record when `rollbackId` names it), each value as text.
   */
  async historyRows(reader: Reader, name: string, id: bigint, rollbackId = 0n): Promise<HistoryRows> {
    const { columns, list } = await this.journal(reader, name, id, rollbackId);
    return {
      columns,
      rows: list.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [
            key,
            value === null || typeof value === 'string' ? value : JSON.stringify(value),
          ]),
        ),
      ),
    };
  }

  private async journal(
    reader: Reader,
    name: string,
    id: bigint,
    rollbackId = 0n,
  ): Promise<{ columns: string[]; list: Record<string, unknown>[] }> {
    const table = await this.resolve(reader, name);
    const none = { columns: [], list: [] };
    if (id > INT64_MAX || rollbackId > INT64_MAX) return none;
    const columns = await this.columnsOf(table.physical);
    if (!columns) return none;
    const visible = await this.readableColumns(reader, table, columns);
    if (table.shared && table.physical !== '1_keys') {
      // Ids of shared tables are unique across ecosystems: the journal names the row by id alone.
      const own = await this.db.one(
        `SELECT 1 FROM "${table.physical}" WHERE "id" = $1 AND "ecosystem" = $2`,
        [id.toString(), table.ecosystem.toString()],
      );
      if (!own) return { columns: [...visible.keys()], list: [] };
    }
    const params = [table.physical, rowKeyOf(table.physical, id, table.ecosystem)];
    if (rollbackId > 0n) params.push(rollbackId.toString());
    const rows = await this.db.query<Pick<RollbackTxEntity, 'data'>>(
      `SELECT ${JOURNAL.select('data')} FROM ${JOURNAL.name}
        WHERE ${JOURNAL.column('tableName')} = $1 AND ${JOURNAL.column('tableId')} = $2 AND ${JOURNAL.column('data')} <> ''
        ${rollbackId > 0n ? `AND ${JOURNAL.column('id')} = $3` : ''} ORDER BY ${JOURNAL.column('id')} DESC LIMIT ${HISTORY_LIMIT}`,
      params,
    );
    return {
      columns: [...visible.keys()],
      list: rows.map(({ data }) =>
        Object.fromEntries(Object.entries(jsonObject(data)).filter(([column]) => visible.has(column))),
      ),
    };
  }
}

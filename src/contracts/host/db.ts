import { INT64_MAX, panic, type BuiltinContext, type BuiltinDef, type Value } from '../../vm';
import { allocateRowId, intArg, mapArg, textArg } from './args';
import { previousValueExpression, rowKeyOf } from './journal';
import {
  columnReadCondition,
  columnUpdateCondition,
  requireAllowed,
  allowed,
  tablePermissions,
  type TablePermissions,
} from './permissions';
import { fromSqlText, toSqlParam } from '../../tables/sql-values';
import { ecosystemOf, hostOf } from './state';
import {
  resolveTable,
  TableError,
  textColumnExpression,
  type ColumnInfo,
  type ResolvedTable,
} from '../../tables/catalog';
import { orderClause } from '../../tables/order';
import { WhereCompiler } from '../../tables/where';
import { CheckViolation } from './row-store';
import type { InsertCell, WriteBehind } from './write-behind';

const DEFAULT_LIMIT = 25n;
const MAX_LIMIT = 10_000n;

async function openTable(ctx: BuiltinContext, name: Value) {
  const host = hostOf(ctx);
  let table: ResolvedTable;
  try {
    table = resolveTable(textArg(name, 'table name'), ecosystemOf(ctx));
  } catch (error) {
    throw panic(error instanceof TableError ? error.message : String(error));
  }
  const columns = await host.catalog.columns(table.physical);
  if (!columns) throw panic(`table ${table.name} has not been found`);
  return { host, table, columns };
}

/** The shared where and order compilers refuse with TableErrors; a contract sees them as panics. */
function compiled(build: () => string): string {
  try {
    return build();
  } catch (error) {
    throw error instanceof TableError ? panic(error.message) : error;
  }
}

function whereSql(where: Value, columns: ReadonlyMap<string, ColumnInfo>, params: unknown[]): string {
  return compiled(() => new WhereCompiler(columns, params).compile(where));
}

/** Rows of a shared table are those of the resolved ecosystem. */
function scope(table: ResolvedTable, params: unknown[]): string {
  if (!table.shared) return 'true';
  params.push(table.ecosystem.toString());
  return `"ecosystem" = $${params.length}`;
}

/** Checks the table's read permission and drops columns the caller may not read. */
async function readableColumns(
  ctx: BuiltinContext,
  table: ResolvedTable,
  requested: ColumnInfo[],
): Promise<ColumnInfo[]> {
  const permissions = await tablePermissions(hostOf(ctx), table);
  if (!permissions) return requested;
  if (permissions.read) await requireAllowed(ctx, permissions.read, `reading ${table.name}`);
  const visible: ColumnInfo[] = [];
  for (const column of requested) {
    const condition = columnReadCondition(permissions, column.name);
    if (!condition || (await allowed(ctx, condition))) visible.push(column);
  }
  if (visible.length === 0) throw panic('Access denied');
  return visible;
}

function requestedColumns(columnsArg: Value, columns: ReadonlyMap<string, ColumnInfo>): ColumnInfo[] {
  const names =
    columnsArg === null || columnsArg === ''
      ? []
      : Array.isArray(columnsArg)
        ? columnsArg.map((item) => String(item))
        : textArg(columnsArg, 'columns').split(',');
  const cleaned = names.map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (cleaned.length === 0 || cleaned.includes('*')) {
    return [...columns.values()].filter(
      (column) => column.name !== 'ecosystem' || cleaned.includes('ecosystem'),
    );
  }
  const picked = cleaned.map((name) => {
    const column = columns.get(name);
    if (!column) throw panic(`unknown column ${name}`);
    return column;
  });
  if (!picked.some((column) => column.name === 'id') && columns.has('id')) picked.unshift(columns.get('id')!);
  return picked;
}

function isEmptyWhere(where: Value): boolean {
  return where === null || (where instanceof Map && where.size === 0);
}

/** DBSelect(table, columns, id, order, offset, limit, where): what DBFind and DBRow run. */
async function dbSelect(ctx: BuiltinContext, ...args: Value[]): Promise<Value> {
  const [name, columnsArg = null, idArg = 0n, order = null, offsetArg = 0n, limitArg = 0n, where = null] =
    args;
  const { host, table, columns } = await openTable(ctx, name);
  const selected = await readableColumns(ctx, table, requestedColumns(columnsArg, columns));
  const params: unknown[] = [];
  const conditions = [scope(table, params), whereSql(where, columns, params)];
  const id = intArg(idArg, 'id');
  if (id !== 0n) {
    params.push(id.toString());
    conditions.push(`"id" = $${params.length}`);
  }
  let limit = intArg(limitArg, 'limit');
  if (limit <= 0n) limit = DEFAULT_LIMIT;
  if (limit > MAX_LIMIT) limit = MAX_LIMIT;
  const offset = intArg(offsetArg, 'offset');
  if (offset < 0n || offset > INT64_MAX) throw panic('offset must not be negative');
  const ordering = compiled(() => orderClause(order, columns));
  if (host.writeBehind && id !== 0n && offset === 0n && isEmptyWhere(where)) {
    const row = await host.writeBehind.readRow(table.physical, id, table.ecosystem);
    if (row !== null) {
      if (!row || (table.shared && row.get('ecosystem') !== table.ecosystem.toString())) return [];
      return [
        new Map<string, Value>(selected.map((column) => [column.name, fromSqlText(row.get(column.name))])),
      ];
    }
  }
  const list = selected.map((column) => `${textColumnExpression(column)} AS "${column.name}"`).join(', ');
  const rows = await host.sql.query<Record<string, unknown>>(
    `SELECT ${list} FROM "${table.physical}" WHERE ${conditions.join(' AND ')}
      ORDER BY ${ordering} LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return rows.map(
    (row) => new Map<string, Value>(selected.map((column) => [column.name, fromSqlText(row[column.name])])),
  );
}

async function dbCount(ctx: BuiltinContext, name: Value, where: Value = null): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  await readableColumns(ctx, table, [...columns.values()]);
  const params: unknown[] = [];
  const condition = `${scope(table, params)} AND ${whereSql(where, columns, params)}`;
  const row = await host.sql.one<{ count: string }>(
    `SELECT count(*) AS "count" FROM "${table.physical}" WHERE ${condition}`,
    params,
  );
  return BigInt(row?.count ?? 0);
}

interface Assignment {
  column: ColumnInfo;
  /** `+col` / `-col`: add to or subtract from the current value. */
  delta?: '+' | '-';
  /** `timestamp col`: the value is Unix seconds for a timestamp column. */
  timestamp?: boolean;
  value: Value;
}

function assignments(values: Map<string, Value>, columns: ReadonlyMap<string, ColumnInfo>): Assignment[] {
  return [...values].map(([rawKey, value]) => {
    let key = rawKey.trim();
    let delta: Assignment['delta'];
    let timestamp = false;
    if (key.startsWith('+') || key.startsWith('-')) {
      delta = key[0] as '+' | '-';
      key = key.slice(1);
    } else if (/^timestamp\s+/i.test(key)) {
      timestamp = true;
      key = key.replace(/^timestamp\s+/i, '');
    }
    const column = columns.get(key.toLowerCase());
    if (!column || column.name === 'ecosystem') throw panic(`unknown column ${key}`);
    return { column, delta, timestamp, value };
  });
}

/**
 * The SQL value of a Unix time for a `timestamp col` key. A `timestamp` column holds UTC wall time (reads
 * format it with a `Z`), so the instant is converted at UTC, not in the session's TimeZone setting.
 */
function unixTimeSql(column: ColumnInfo, placeholder: string): string {
  const instant = `to_timestamp(${placeholder}::bigint)`;
  return column.type === 'timestamp without time zone' ? `(${instant} AT TIME ZONE 'UTC')` : instant;
}

function assignmentSql(assignment: Assignment, params: unknown[]): string {
  const quoted = `"${assignment.column.name}"`;
  params.push(toSqlParam(assignment.value, assignment.column));
  const placeholder = `$${params.length}`;
  if (assignment.delta) return `${quoted} = ${quoted} ${assignment.delta} ${placeholder}`;
  if (assignment.timestamp) return `${quoted} = ${unixTimeSql(assignment.column, placeholder)}`;
  return `${quoted} = ${placeholder}`;
}

async function checkUpdate(
  ctx: BuiltinContext,
  table: ResolvedTable,
  changes: Assignment[],
): Promise<TablePermissions> {
  const permissions = await tablePermissions(hostOf(ctx), table);
  if (!permissions) throw panic(`table ${table.name} cannot be changed by contracts`);
  await requireAllowed(ctx, permissions.update, `updating ${table.name}`);
  for (const change of changes) {
    const condition = columnUpdateCondition(permissions, change.column.name);
    if (condition) await requireAllowed(ctx, condition, `updating ${table.name}.${change.column.name}`);
  }
  return permissions;
}

/** DBInsert(table, values) → the new row's id. */
async function dbInsert(ctx: BuiltinContext, name: Value, valuesArg: Value): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  const values = new Map(mapArg(valuesArg, 'values'));
  const permissions = await tablePermissions(host, table);
  if (!permissions) throw panic(`table ${table.name} cannot be changed by contracts`);
  await requireAllowed(ctx, permissions.insert, `inserting into ${table.name}`);
  let id: bigint;
  const given = values.get('id');
  if (given !== undefined && given !== null) {
    // Only the keys table is keyed by a given id (the account's key id).
    if (table.physical !== '1_keys') throw panic(`id of ${table.name} is assigned by the node`);
    id = intArg(given, 'id');
    values.delete('id');
  } else {
    id = await allocateRowId(host, table.physical);
  }
  const cells: InsertCell[] = [{ name: 'id', param: id.toString() }];
  if (table.shared) cells.push({ name: 'ecosystem', param: table.ecosystem.toString() });
  for (const change of assignments(values, columns)) {
    cells.push({
      name: change.column.name,
      param: toSqlParam(change.value, change.column),
      expression: change.timestamp ? (placeholder) => unixTimeSql(change.column, placeholder) : undefined,
    });
  }
  if (host.writeBehind) {
    host.writeBehind.queueInsert(table.physical, cells);
  } else {
    const params: unknown[] = [];
    const placeholders = cells.map((cell) => {
      const placeholder = `$${params.push(cell.param)}`;
      return cell.expression ? cell.expression(placeholder) : placeholder;
    });
    try {
      await host.sql.query(
        `INSERT INTO "${table.physical}" (${cells.map((cell) => `"${cell.name}"`).join(', ')}) VALUES (${placeholders.join(', ')})`,
        params,
      );
    } catch (error) {
      throw panic(`inserting into ${table.name}: ${(error as Error).message}`);
    }
  }
  await host.journal.inserted(table.physical, rowKeyOf(table.physical, id, table.ecosystem));
  return id;
}

/**
 * Updates one row and journals the previous text of the changed columns, in one statement: the row is
 * read (and locked) in a subquery and the UPDATE returns what it held before.
 */
async function updateRow(
  ctx: BuiltinContext,
  table: ResolvedTable,
  id: bigint,
  changes: Assignment[],
): Promise<void> {
  const host = hostOf(ctx);
  const journalKey = rowKeyOf(table.physical, id, table.ecosystem);
  if (host.writeBehind && !changes.some((change) => change.timestamp)) {
    let previous: Awaited<ReturnType<WriteBehind['updateRow']>>;
    try {
      previous = await host.writeBehind.updateRow(
        table.physical,
        id,
        table.ecosystem,
        table.shared ? table.ecosystem : undefined,
        changes.map((change) => ({
          column: change.column.name,
          param: toSqlParam(change.value, change.column),
          delta: change.delta,
        })),
      );
    } catch (error) {
      if (error instanceof CheckViolation) throw panic(`updating ${table.name}: ${error.message}`);
      throw error;
    }
    if (previous === 'missing') throw panic(`record ${id} has not been found in ${table.name}`);
    if (previous) {
      await host.journal.updated(table.physical, journalKey, previous, { inMemory: true });
      return;
    }
  }
  const params: unknown[] = [id.toString()];
  let keyCondition = `"id" = $1`;
  let join = `"t"."id" = "p"."id"`;
  if (table.shared) {
    params.push(table.ecosystem.toString());
    keyCondition += ` AND "ecosystem" = $2`;
    join += ` AND "t"."ecosystem" = "p"."ecosystem"`;
  }
  const columns = [...new Map(changes.map((change) => [change.column.name, change.column])).values()];
  const previous = columns.map((column, i) => `${previousValueExpression(column)} AS "previous_${i}"`);
  const sets = changes.map((change) => assignmentSql(change, params));
  let rows: Record<string, string | null>[];
  try {
    rows = await host.sql.query<Record<string, string | null>>(
      `UPDATE "${table.physical}" AS "t" SET ${sets.join(', ')}
         FROM (SELECT "id"${table.shared ? ', "ecosystem"' : ''}, ${previous.join(', ')}
                 FROM "${table.physical}" WHERE ${keyCondition} FOR UPDATE) AS "p"
        WHERE ${join}
        RETURNING ${columns.map((_column, i) => `"p"."previous_${i}"`).join(', ')}`,
      params,
    );
  } catch (error) {
    throw panic(`updating ${table.name}: ${(error as Error).message}`);
  }
  if (rows.length === 0) throw panic(`record ${id} has not been found in ${table.name}`);
  const before = Object.fromEntries(columns.map((column, i) => [column.name, rows[0][`previous_${i}`]]));
  await host.journal.updated(table.physical, journalKey, before);
}

/** DBUpdate(table, id, values). */
async function dbUpdate(ctx: BuiltinContext, name: Value, idArg: Value, valuesArg: Value): Promise<Value> {
  const { table, columns } = await openTable(ctx, name);
  const changes = assignments(mapArg(valuesArg, 'values'), columns);
  if (changes.length === 0) return null;
  await checkUpdate(ctx, table, changes);
  await updateRow(ctx, table, intArg(idArg, 'id'), changes);
  return null;
}

/** DBUpdateExt(table, where, values): every matching row. */
async function dbUpdateExt(ctx: BuiltinContext, name: Value, where: Value, valuesArg: Value): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  const changes = assignments(mapArg(valuesArg, 'values'), columns);
  if (changes.length === 0) return null;
  await checkUpdate(ctx, table, changes);
  const params: unknown[] = [];
  const condition = `${scope(table, params)} AND ${whereSql(where, columns, params)}`;
  const rows = await host.sql.query<{ id: string }>(
    `SELECT "id" FROM "${table.physical}" WHERE ${condition} ORDER BY "id"`,
    params,
  );
  for (const row of rows) await updateRow(ctx, table, BigInt(row.id), changes);
  return null;
}

export const DB_BUILTINS: BuiltinDef[] = [
  { name: 'DBSelect', fn: dbSelect, params: [1, 7] },
  { name: 'DBCount', fn: dbCount, params: [1, 2] },
  { name: 'DBInsert', fn: dbInsert, params: 2, writesDb: true },
  { name: 'DBUpdate', fn: dbUpdate, params: 3, writesDb: true },
  { name: 'DBUpdateExt', fn: dbUpdateExt, params: 3, writesDb: true },
];

import {
  arrayCost,
  INT64_MAX,
  mapCost,
  MEMORY_LIMIT_EXCEEDED,
  panic,
  sizeJson,
  stringCostOf,
  WORK_UNITS_PER_FUEL,
  type BuiltinContext,
  type BuiltinDef,
  type Value,
  valueCost,
} from '../vm';
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
import { fromSqlText, toSqlParam } from '../table-access/sql-values';
import { ecosystemOf, hostOf } from './state';
import { resolveTable, TableError, type ColumnInfo, type ResolvedTable } from '../table-access/catalog';
import {
  columnNames,
  columnReference,
  outputColumn,
  referenceTextExpression,
  type ColumnReference,
} from '../table-access/columns';
import { orderClause } from '../table-access/order';
import { WhereCompiler } from '../table-access/where';
import { CheckViolation } from './row-store';
import type { InsertCell, WriteBehind } from './write-behind';

const DEFAULT_LIMIT = 25n;
const MAX_LIMIT = 10_000n;

/** The table a contract names, in its ecosystem unless the name says another; a panic for a bad name. */
export function namedTable(ctx: BuiltinContext, name: Value): ResolvedTable {
  try {
    return resolveTable(textArg(name, 'table name'), ecosystemOf(ctx));
  } catch (error) {
    throw panic(error instanceof TableError ? error.message : String(error));
  }
}

/** {@link namedTable} and its columns; a panic if the table does not exist. */
export async function openTable(ctx: BuiltinContext, name: Value) {
  const host = hostOf(ctx);
  const table = namedTable(ctx, name);
  const columns = await host.catalog.columns(table.physical);
  if (!columns) throw panic(`table ${table.name} has not been found`);
  return { host, table, columns };
}

/** The shared where and order compilers refuse with TableErrors; a contract sees them as panics. */
function compiled<T>(build: () => T): T {
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

/**
 * Checks the table's read permission and drops what the caller may not read: a column whose read
 * condition fails, and the JSON paths into it.
 */
async function readableColumns(
  ctx: BuiltinContext,
  table: ResolvedTable,
  requested: ColumnReference[],
): Promise<ColumnReference[]> {
  const permissions = await tablePermissions(hostOf(ctx), table);
  if (!permissions) return requested;
  if (permissions.read) await requireAllowed(ctx, permissions.read, 'table');
  const verdicts = new Map<string, boolean>();
  const visible: ColumnReference[] = [];
  for (const reference of requested) {
    const name = reference.column.name;
    let verdict = verdicts.get(name);
    if (verdict === undefined) {
      const condition = columnReadCondition(permissions, name);
      verdict = !condition || (await allowed(ctx, condition));
      verdicts.set(name, verdict);
    }
    if (verdict) visible.push(reference);
  }
  if (visible.length === 0) throw panic('access denied');
  return visible;
}

/**
 * What Columns names (a comma list or an array of names; nothing or `*`: every column but `ecosystem`),
 * each a column or a JSON path, without repeats; `id` is added first when columns are named without it.
 */
function requestedColumns(
  columnsArg: Value,
  columns: ReadonlyMap<string, ColumnInfo>,
): { requested: ColumnReference[]; idAdded: boolean } {
  const names = compiled(() => columnNames(columnsArg === '' ? null : columnsArg));
  const picked = new Map<string, ColumnReference>();
  const all = names.length === 0 || names.includes('*');
  if (all) {
    for (const column of columns.values()) {
      if (column.name !== 'ecosystem') picked.set(column.name, { column, path: [], key: column.name });
    }
  }
  for (const name of names) {
    if (name === '*') continue;
    const reference = compiled(() => columnReference(name, columns));
    if (!reference) throw panic(`unknown column ${name.toLowerCase()}`);
    if (!picked.has(reference.key)) picked.set(reference.key, reference);
  }
  const id = columns.get('id');
  if (!all && id && !picked.has('id')) {
    return { requested: [{ column: id, path: [], key: 'id' }, ...picked.values()], idAdded: true };
  }
  return { requested: [...picked.values()], idAdded: false };
}

function isEmptyWhere(where: Value): boolean {
  return where === null || (where instanceof Map && where.size === 0);
}

/** The rows of a result as contracts see them: each selected key with its text ("" for NULL). */
function resultRows(rows: Record<string, unknown>[], selected: readonly ColumnReference[]): Value[] {
  return rows.map(
    (row) => new Map<string, Value>(selected.map((item, i) => [item.key, fromSqlText(row[outputColumn(i)])])),
  );
}

/** DBSelect(table, columns, id, order, offset, limit, where): what DBFind and DBRow run. */
async function dbSelect(ctx: BuiltinContext, ...args: Value[]): Promise<Value> {
  const [name, columnsArg = null, idArg = 0n, order = null, offsetArg = 0n, limitArg = 0n, where = null] =
    args;
  const { host, table, columns } = await openTable(ctx, name);
  const { requested, idAdded } = requestedColumns(columnsArg, columns);
  const selected = await readableColumns(ctx, table, requested);
  // Columns named, none of them readable: refused (as the reference, which adds no id), not ids alone.
  if (idAdded && selected.every((item) => item === requested[0])) throw panic('access denied');
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
  const plainColumns = selected.every((item) => item.path.length === 0);
  if (host.writeBehind && plainColumns && id !== 0n && offset === 0n && isEmptyWhere(where)) {
    const row = await host.writeBehind.readRow(table.physical, id, table.ecosystem);
    if (row !== null) {
      if (!row || (table.shared && row.get('ecosystem') !== table.ecosystem.toString())) return [];
      const rows = [
        new Map<string, Value>(selected.map((item) => [item.key, fromSqlText(row.get(item.column.name))])),
      ];
      ctx.reserveMemory(valueCost(rows));
      return rows;
    }
  }
  const bind = (param: unknown) => `$${params.push(param)}`;
  const list = selected
    .map((item, i) => `${referenceTextExpression(item, bind)} AS "${outputColumn(i)}"`)
    .join(', ');
  const query = `SELECT ${list} FROM "${table.physical}" WHERE ${conditions.join(' AND ')}
      ORDER BY ${ordering} LIMIT ${limit} OFFSET ${offset}`;
  const budget = Math.min(ctx.memoryAvailable(), MAX_RESULT_SIZE);
  const rows = await host.sql.query<Record<string, unknown>>(
    sizedQuery(query, selected, params, budget),
    params,
  );
  const total = rows.length > 0 ? Number(rows[0][RESULT_SIZE]) : 0;
  if (total > budget) throw panic(MEMORY_LIMIT_EXCEEDED);
  ctx.reserveMemory(total);
  ctx.chargeWork(total);
  return resultRows(rows, selected);
}

/**
 * The most one query may return, in the VM's bytes: the embedded database reads and decodes a result in
 * one piece on the node's thread (some 20 ms a megabyte with the decoding), so a larger one would keep the
 * node from answering others. 10,000 rows of 800 bytes fit.
 */
const MAX_RESULT_SIZE = 8 * 1024 * 1024;

/** The column that carries a result's size: no table column can be named so. */
const RESULT_SIZE = '@size';

/**
 * A query's rows with their total size (as the VM counts them: a map per row, a string per cell), the rows
 * only when the total fits the memory the execution has left: a result that does not is one row of nulls
 * and its size, so it never reaches JavaScript strings. The size is summed over the rows the query
 * returns (after its ORDER BY, LIMIT and OFFSET), in PostgreSQL.
 */
function sizedQuery(
  query: string,
  selected: readonly ColumnReference[],
  params: unknown[],
  budget: number,
): string {
  const perRow =
    arrayCost(1) - arrayCost(0) + mapCost(selected.length) + selected.length * stringCostOf(0, false);
  const cells = selected.map((_item, i) => `coalesce(octet_length("r"."${outputColumn(i)}"), 0)`).join(' + ');
  params.push(perRow, Math.floor(budget));
  const perRowParam = `$${params.length - 1}::bigint`;
  const budgetParam = `$${params.length}::bigint`;
  const kept = selected
    .map(
      (_item, i) =>
        `CASE WHEN "${RESULT_SIZE}" <= ${budgetParam} THEN "${outputColumn(i)}" END AS "${outputColumn(i)}"`,
    )
    .join(', ');
  return `SELECT ${kept}, "${RESULT_SIZE}" FROM (
      SELECT "r".*, sum(${cells || '0'} + ${perRowParam}) OVER () AS "${RESULT_SIZE}", row_number() OVER () AS "@row"
        FROM (${query}) AS "r"
    ) AS "sized" WHERE "${RESULT_SIZE}" <= ${budgetParam} OR "@row" = 1`;
}

async function dbCount(ctx: BuiltinContext, name: Value, where: Value = null): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  await readableColumns(
    ctx,
    table,
    [...columns.values()].map((column) => ({ column, path: [], key: column.name })),
  );
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
  /** The characters or bytes it writes. */
  size: number;
}

/**
 * The changes a map of values makes. An array or a map is written as JSON: its text is sized (and its
 * memory reserved) before it is built, as built-ins do.
 */
function assignments(
  ctx: BuiltinContext,
  values: Map<string, Value>,
  columns: ReadonlyMap<string, ColumnInfo>,
): Assignment[] {
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
    const size =
      typeof value === 'string' || value instanceof Uint8Array
        ? value.length
        : Array.isArray(value) || value instanceof Map
          ? sizeJson(ctx, value)
          : 0;
    return { column, delta, timestamp, value, size };
  });
}

/**
 * Writing costs fuel by the byte, more than reading: written rows are kept until the block is written,
 * and written again by the database. One unit of fuel per byte lets a transaction with the default
 * `max_fuel_tx` write 20 MB.
 */
function chargeWrite(ctx: BuiltinContext, changes: readonly Assignment[]): void {
  let bytes = 0;
  for (const change of changes) bytes += change.size;
  ctx.chargeWork(bytes * WORK_UNITS_PER_FUEL);
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
  await requireAllowed(ctx, permissions.update, 'table');
  for (const change of changes) {
    const condition = columnUpdateCondition(permissions, change.column.name);
    if (condition) await requireAllowed(ctx, condition, 'column');
  }
  return permissions;
}

/** DBInsert(table, values) → the new row's id. */
async function dbInsert(ctx: BuiltinContext, name: Value, valuesArg: Value): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  const values = new Map(mapArg(valuesArg, 'values'));
  const permissions = await tablePermissions(host, table);
  if (!permissions) throw panic(`table ${table.name} cannot be changed by contracts`);
  await requireAllowed(ctx, permissions.insert, 'table');
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
  const changes = assignments(ctx, values, columns);
  chargeWrite(ctx, changes);
  for (const change of changes) {
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
  chargeWrite(ctx, changes);
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
  const changes = assignments(ctx, mapArg(valuesArg, 'values'), columns);
  if (changes.length === 0) return null;
  await checkUpdate(ctx, table, changes);
  await updateRow(ctx, table, intArg(idArg, 'id'), changes);
  return null;
}

/** DBUpdateExt(table, where, values): every matching row. */
async function dbUpdateExt(ctx: BuiltinContext, name: Value, where: Value, valuesArg: Value): Promise<Value> {
  const { host, table, columns } = await openTable(ctx, name);
  const changes = assignments(ctx, mapArg(valuesArg, 'values'), columns);
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
  { name: 'DBSelect', fn: dbSelect, params: [1, 7], reserves: true },
  { name: 'DBCount', fn: dbCount, params: [1, 2] },
  { name: 'DBInsert', fn: dbInsert, params: 2, writesDb: true },
  { name: 'DBUpdate', fn: dbUpdate, params: 3, writesDb: true },
  { name: 'DBUpdateExt', fn: dbUpdateExt, params: 3, writesDb: true },
];

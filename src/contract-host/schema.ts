import { goJsonSyntaxError, panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { nextRowId, textArg } from './args';
import { validateConditionText } from './access';
import { rowKeyOf } from './journal';
import { requireExecAccess } from './privileged';
import { ecosystemOf, hostOf } from './state';
import { goJsonStringify } from '../common/go-json';
import { platformParameter } from '../chain/platform-parameters.service';
import { FIRST_ECOSYSTEM_TABLES, SHARED_TABLES } from '../table-access/catalog';

/** Column types a table may have, and the PostgreSQL column each becomes. */
export const COLUMN_TYPES: Record<string, string> = {
  varchar: `varchar(102400) NOT NULL DEFAULT ''`,
  character: `char(1) NOT NULL DEFAULT ''`,
  text: `text NOT NULL DEFAULT ''`,
  number: 'bigint NOT NULL DEFAULT 0',
  money: 'numeric(30) NOT NULL DEFAULT 0',
  double: 'double precision NOT NULL DEFAULT 0',
  datetime: 'timestamp',
  json: `jsonb NOT NULL DEFAULT '{}'`,
  bytea: `bytea NOT NULL DEFAULT '\\x'`,
};

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const PERMISSION_KEYS = ['insert', 'update', 'new_column', 'read', 'filter'];

const LATIN = /^[A-Za-z0-9_-]+$/;
const latinOnly = (name: string) => `Name ${name} must only contain latin, digit and '_', '-' characters`;

/** The reference's texts for the column names it refuses (its checkColumnName). */
export function checkColumnName(name: string): void {
  if (name.length === 0) throw panic('column name is empty');
  if (/^[0-9]/.test(name)) throw panic('column name cannot begin with digit');
  if (!LATIN.test(name)) throw panic(latinOnly(name));
}

/** The reference's texts for the table names it refuses (its checkTableNameRule). */
function checkTableName(name: string): void {
  if (name.length === 0) throw panic('the table name cannot be empty');
  if (/^[0-9@]/.test(name)) throw panic('the name of the table cannot begin with @');
  if (!LATIN.test(name)) throw panic(latinOnly(name));
}

function tableNameOf(value: Value): string {
  const name = textArg(value, 'table name').trim().toLowerCase();
  checkTableName(name);
  // What the reference lets through and PostgreSQL or this node cannot take (a '-', a long name) keeps our words.
  if (!NAME.test(name))
    throw panic(`table name ${JSON.stringify(value)} is not valid: use letters, digits and _`);
  if (SHARED_TABLES.has(name) || FIRST_ECOSYSTEM_TABLES.has(name))
    throw panic(`table ${name} is a platform table`);
  return name;
}

function columnNameOf(value: Value): string {
  const name = textArg(value, 'column name').trim().toLowerCase();
  checkColumnName(name);
  if (!NAME.test(name) || name === 'id' || name === 'ecosystem') {
    throw panic(`column name ${JSON.stringify(value)} is not valid`);
  }
  return name;
}

/** JSON of a built-in's argument; text that is not JSON fails in Go's words, as in the reference. */
function parseJson(textValue: string, what: string): unknown {
  const syntaxError = goJsonSyntaxError(textValue);
  if (syntaxError !== undefined) throw panic(syntaxError);
  try {
    return JSON.parse(textValue);
  } catch {
    throw panic(`${what} is not valid JSON`);
  }
}

/** The reference's names of the required permissions, in its order of checking. */
const REQUIRED_PERMISSIONS: Record<string, string> = {
  insert: 'Insert',
  update: 'Update',
  new_column: 'NewColumn',
};

/**
 * A table's permissions, `{"insert", "update", "new_column"[, "read", "filter"]}`, each checked; what
 * `1_tables` keeps, as the reference keeps it: an empty read or filter is left out.
 */
function permissionsOf(value: Value): Record<string, string> {
  const parsed = parseJson(textArg(value, 'permissions'), 'permissions');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw panic('permissions must be a JSON object');
  const given = parsed as Record<string, unknown>;
  for (const [key, condition] of Object.entries(given)) {
    if (!PERMISSION_KEYS.includes(key)) throw panic(`unknown permission ${key}`);
    if (typeof condition !== 'string') throw panic(`permission ${key} must be a string`);
  }
  // In the reference's order: insert, update, new_column (each required), read, filter.
  for (const key of PERMISSION_KEYS) {
    const condition = (given[key] as string | undefined) ?? '';
    if (condition === '' && REQUIRED_PERMISSIONS[key])
      throw panic(`${REQUIRED_PERMISSIONS[key]} condition is empty`);
    if (REQUIRED_PERMISSIONS[key] || condition.trim()) validateConditionText(condition);
  }
  const permissions: Record<string, string> = {};
  for (const [key, condition] of Object.entries(given as Record<string, string>)) {
    if (REQUIRED_PERMISSIONS[key] || condition.trim()) permissions[key] = condition;
  }
  return permissions;
}

/** Go's JSON of a decoded JSON object (json.Marshal of a map: keys in byte order, HTML characters escaped). */
function goObjectJson(object: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return new Map(keys.map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
  };
  return goJsonStringify(sorted(object));
}

/** Checks `{"update": …, "read": …}`: both strings, update a condition, read one when it is not empty. */
function checkColumnPermissionObject(permission: Record<string, unknown>): void {
  for (const [key, condition] of Object.entries(permission)) {
    if (key !== 'update' && key !== 'read') throw panic(`unknown column permission ${key}`);
    if (typeof condition !== 'string') throw panic(`column permission ${key} must be a string`);
  }
  if (!('update' in permission)) throw panic('column permission update is missing');
  validateConditionText(permission.update as string);
  const read = permission.read as string | undefined;
  if (read?.trim()) validateConditionText(read);
}

/**
 * A column's permission, as the `1_tables` columns keep it (the reference's forms): an update condition,
 * or `{"update": …, "read": …}` as JSON text (NewColumn, EditColumn, a NewTable column), kept as given, or
 * as an object (a NewTable column's `conditions`), kept as Go's JSON of it. Anything else is an empty
 * condition, refused.
 */
function columnPermissionText(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    checkColumnPermissionObject(value as Record<string, unknown>);
    return goObjectJson(value as Record<string, unknown>);
  }
  const text = typeof value === 'string' ? value : '';
  if (!text.trim().startsWith('{')) {
    validateConditionText(text);
    return text;
  }
  const parsed = parseJson(text, 'column permissions');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw panic('column permissions must be a JSON object');
  checkColumnPermissionObject(parsed as Record<string, unknown>);
  return text;
}

interface ColumnSpec {
  name: string;
  type: string;
  /** The permission as `1_tables` keeps it (see columnPermissionText). */
  conditions: string;
}

async function maxColumns(ctx: BuiltinContext): Promise<number> {
  const value = (await platformParameter(hostOf(ctx).sql, 'max_columns')) ?? '';
  return /^\d+$/.test(value) ? Number(value) : 50;
}

/**
 * `[{"name":…,"type":…,"conditions":…}]` (or `perm` for conditions), each checked. A column may also be
 * given as the JSON text of its object (NewTableJoint's form); members other than these are ignored.
 */
async function columnsOf(ctx: BuiltinContext, value: Value, creating: boolean): Promise<ColumnSpec[]> {
  const parsed = parseJson(textArg(value, 'columns'), 'columns');
  if (parsed === null || (Array.isArray(parsed) && parsed.length === 0)) throw panic('columns are undefined');
  if (!Array.isArray(parsed)) {
    const kind = typeof parsed === 'object' ? 'object' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
    throw panic(`json: cannot unmarshal ${kind} into Go value of type []interface {}`);
  }
  const max = await maxColumns(ctx);
  if (parsed.length > max) throw panic(`Too many columns. Limit is ${max}`);
  const seen = new Set<string>();
  return parsed.map((given: unknown) => {
    const item = (typeof given === 'string' ? parseJson(given, 'column') : given) as Record<string, unknown>;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw panic('every column must be an object');
    const name = columnNameOf(String(item.name ?? ''));
    if (seen.has(name)) throw panic('there are the same columns');
    seen.add(name);
    const type = String(item.type ?? '').toLowerCase();
    // The reference's TableConditions and CreateTable word it differently.
    if (!(type in COLUMN_TYPES))
      throw panic(creating ? `Type '${type}' of columns is not supported` : 'incorrect type');
    return { name, type, conditions: columnPermissionText(item.conditions ?? item.perm) };
  });
}

async function tableRow(ctx: BuiltinContext, name: string) {
  return hostOf(ctx).sql.one<{ id: string; permissions: unknown; columns: unknown }>(
    'SELECT "id", "permissions", "columns" FROM "1_tables" WHERE "ecosystem" = $1 AND "name" = $2',
    [ecosystemOf(ctx).toString(), name],
  );
}

async function tableConditions(
  ctx: BuiltinContext,
  name: Value,
  columns: Value,
  permissions: Value,
): Promise<Value> {
  const table = tableNameOf(name);
  if (await tableRow(ctx, table)) throw panic(`table ${table} exists`);
  // The permissions first, as the reference checks them.
  permissionsOf(permissions);
  await columnsOf(ctx, columns, false);
  return null;
}

async function createTable(
  ctx: BuiltinContext,
  name: Value,
  columnsArg: Value,
  permissionsArg: Value,
  appId: Value = 1n,
): Promise<Value> {
  await requireExecAccess(ctx, 'CreateTable');
  const host = hostOf(ctx);
  const table = tableNameOf(name);
  if (await tableRow(ctx, table)) throw panic(`table ${table} exists`);
  const columns = await columnsOf(ctx, columnsArg, true);
  const permissions = permissionsOf(permissionsArg);
  const ecosystem = ecosystemOf(ctx);
  const physical = `${ecosystem}_${table}`;
  const definitions = columns.map((column) => `"${column.name}" ${COLUMN_TYPES[column.type]}`);
  await host.sql.query(`CREATE TABLE "${physical}" ("id" bigint PRIMARY KEY, ${definitions.join(', ')})`);
  await host.journal.system({ type: 'NewTable', table: physical });
  host.catalog.invalidate(physical);
  const id = await nextRowId(hostOf(ctx).sql, '1_tables');
  await host.sql.query(
    `INSERT INTO "1_tables" ("id", "ecosystem", "name", "permissions", "columns", "conditions", "app_id")
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id.toString(),
      ecosystem.toString(),
      table,
      JSON.stringify(permissions),
      JSON.stringify(Object.fromEntries(columns.map((column) => [column.name, column.conditions]))),
      permissions.new_column,
      typeof appId === 'bigint' ? appId.toString() : '1',
    ],
  );
  await host.journal.inserted('1_tables', rowKeyOf('1_tables', id, ecosystem));
  return null;
}

async function updateTableRow(
  ctx: BuiltinContext,
  id: string,
  column: 'permissions' | 'columns',
  value: string,
) {
  const host = hostOf(ctx);
  const previous = await host.sql.one<Record<string, string>>(
    `SELECT "${column}"::text AS "${column}" FROM "1_tables" WHERE "id" = $1`,
    [id],
  );
  await host.sql.query(`UPDATE "1_tables" SET "${column}" = $1 WHERE "id" = $2`, [value, id]);
  await host.journal.updated('1_tables', id, { [column]: previous?.[column] ?? null });
}

async function permTable(ctx: BuiltinContext, name: Value, permissionsArg: Value): Promise<Value> {
  await requireExecAccess(ctx, 'PermTable');
  const row = await tableRow(ctx, textArg(name, 'table name').trim().toLowerCase());
  if (!row) throw panic(`table ${String(name)} has not been found`);
  await updateTableRow(ctx, row.id, 'permissions', JSON.stringify(permissionsOf(permissionsArg)));
  return null;
}

function columnMap(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? parseJson(value, 'columns') : value;
  return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}

/** ColumnCondition(table, column, permissions) or, as the reference calls it, (table, column, type, permissions). */
async function columnCondition(
  ctx: BuiltinContext,
  tableArg: Value,
  columnArg: Value,
  third: Value,
  fourth?: Value,
): Promise<Value> {
  const row = await tableRow(ctx, textArg(tableArg, 'table name').trim().toLowerCase());
  if (!row) throw panic(`table ${String(tableArg)} has not been found`);
  columnNameOf(columnArg);
  if (fourth !== undefined) {
    const type = textArg(third, 'column type').toLowerCase();
    if (!(type in COLUMN_TYPES)) throw panic('incorrect type');
  }
  columnPermissionText(textArg(fourth ?? third, 'permissions'));
  return null;
}

async function createColumn(
  ctx: BuiltinContext,
  tableArg: Value,
  columnArg: Value,
  typeArg: Value,
  permissions: Value,
): Promise<Value> {
  await requireExecAccess(ctx, 'CreateColumn');
  const host = hostOf(ctx);
  const table = textArg(tableArg, 'table name').trim().toLowerCase();
  const row = await tableRow(ctx, table);
  if (!row) throw panic(`table ${table} has not been found`);
  const column = columnNameOf(columnArg);
  const type = textArg(typeArg, 'column type').toLowerCase();
  if (!(type in COLUMN_TYPES)) throw panic(`Type '${type}' of columns is not supported`);
  const permission = columnPermissionText(textArg(permissions, 'permissions'));
  const columns = columnMap(row.columns);
  if (column in columns) throw panic(`column ${column} exists`);
  const max = await maxColumns(ctx);
  if (Object.keys(columns).length + 1 > max) throw panic(`Too many columns. Limit is ${max}`);
  const physical = `${ecosystemOf(ctx)}_${table}`;
  await host.sql.query(`ALTER TABLE "${physical}" ADD COLUMN "${column}" ${COLUMN_TYPES[type]}`);
  await host.journal.system({ type: 'NewColumn', table: physical, column });
  host.catalog.invalidate(physical);
  await updateTableRow(ctx, row.id, 'columns', JSON.stringify({ ...columns, [column]: permission }));
  return null;
}

async function permColumn(
  ctx: BuiltinContext,
  tableArg: Value,
  columnArg: Value,
  permissions: Value,
): Promise<Value> {
  await requireExecAccess(ctx, 'PermColumn');
  const table = textArg(tableArg, 'table name').trim().toLowerCase();
  const row = await tableRow(ctx, table);
  if (!row) throw panic(`table ${table} has not been found`);
  const column = textArg(columnArg, 'column name').trim().toLowerCase();
  const columns = columnMap(row.columns);
  if (!(column in columns)) throw panic(`column ${column} has not been found`);
  const permission = columnPermissionText(textArg(permissions, 'permissions'));
  await updateTableRow(ctx, row.id, 'columns', JSON.stringify({ ...columns, [column]: permission }));
  return null;
}

export const SCHEMA_BUILTINS: BuiltinDef[] = [
  { name: 'TableConditions', fn: tableConditions, params: 3 },
  { name: 'CreateTable', fn: createTable, params: [3, 4], writesDb: true, price: 100 },
  { name: 'PermTable', fn: permTable, params: 2, writesDb: true },
  { name: 'ColumnCondition', fn: columnCondition, params: [3, 4] },
  { name: 'CreateColumn', fn: createColumn, params: 4, writesDb: true },
  { name: 'PermColumn', fn: permColumn, params: 3, writesDb: true },
];

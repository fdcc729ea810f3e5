import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../../vm';
import { nextRowId, textArg } from './args';
import { validateConditionText } from './access';
import { rowKeyOf } from './journal';
import { requireExecAccess } from './privileged';
import { ecosystemOf, hostOf } from './state';
import { FIRST_ECOSYSTEM_TABLES, SHARED_TABLES } from '../../tables/catalog';

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

function tableNameOf(value: Value): string {
  const name = textArg(value, 'table name').trim().toLowerCase();
  if (!NAME.test(name))
    throw panic(`table name ${JSON.stringify(value)} is not valid: use letters, digits and _`);
  if (SHARED_TABLES.has(name) || FIRST_ECOSYSTEM_TABLES.has(name))
    throw panic(`table ${name} is a platform table`);
  return name;
}

function columnNameOf(value: Value): string {
  const name = textArg(value, 'column name').trim().toLowerCase();
  if (!NAME.test(name) || name === 'id' || name === 'ecosystem') {
    throw panic(`column name ${JSON.stringify(value)} is not valid`);
  }
  return name;
}

function parseJson(textValue: string, what: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch {
    throw panic(`${what} is not valid JSON`);
  }
}

function permissionsOf(value: Value): Record<string, string> {
  const parsed = parseJson(textArg(value, 'permissions'), 'permissions');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw panic('permissions must be a JSON object');
  const permissions: Record<string, string> = {};
  for (const [key, condition] of Object.entries(parsed as Record<string, unknown>)) {
    if (!PERMISSION_KEYS.includes(key)) throw panic(`unknown permission ${key}`);
    if (typeof condition !== 'string') throw panic(`permission ${key} must be a string`);
    if (key === 'read' || key === 'filter') {
      if (condition.trim()) validateConditionText(condition);
    } else {
      validateConditionText(condition);
    }
    permissions[key] = condition;
  }
  for (const key of ['insert', 'update', 'new_column'])
    if (!(key in permissions)) throw panic(`permission ${key} is missing`);
  return permissions;
}

/**
 * A column's permission as NewColumn/EditColumn take it: an update condition, or a JSON object
 * `{"update": …, "read": …}`; stored in the `1_tables` columns as the condition text or as that object.
 */
type ColumnPermission = string | { update?: string; read?: string };

function columnPermissionOf(value: Value): ColumnPermission {
  const textValue = textArg(value, 'permissions');
  if (!textValue.trim().startsWith('{')) {
    validateConditionText(textValue);
    return textValue;
  }
  const parsed = parseJson(textValue, 'column permissions');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw panic('column permissions must be a JSON object');
  const permission: { update?: string; read?: string } = {};
  for (const [key, condition] of Object.entries(parsed as Record<string, unknown>)) {
    if (key !== 'update' && key !== 'read') throw panic(`unknown column permission ${key}`);
    if (typeof condition !== 'string') throw panic(`column permission ${key} must be a string`);
    if (key === 'update' || condition.trim()) validateConditionText(condition);
    permission[key] = condition;
  }
  return permission;
}

interface ColumnSpec {
  name: string;
  type: string;
  conditions: string;
}

async function maxColumns(ctx: BuiltinContext): Promise<number> {
  const row = await hostOf(ctx).sql.one<{ value: string }>(
    `SELECT "value" FROM "1_platform_parameters" WHERE "name" = 'max_columns'`,
  );
  return /^\d+$/.test(row?.value ?? '') ? Number(row!.value) : 50;
}

/** `[{"name":…,"type":…,"conditions":…}]` (or `perm` for conditions), each checked. */
async function columnsOf(ctx: BuiltinContext, value: Value): Promise<ColumnSpec[]> {
  const parsed = parseJson(textArg(value, 'columns'), 'columns');
  if (!Array.isArray(parsed) || parsed.length === 0) throw panic('columns must be a non-empty JSON array');
  if (parsed.length > (await maxColumns(ctx))) throw panic(`too many columns (max_columns)`);
  const seen = new Set<string>();
  return parsed.map((item: Record<string, unknown>) => {
    if (item === null || typeof item !== 'object') throw panic('every column must be an object');
    const name = columnNameOf(String(item.name ?? ''));
    if (seen.has(name)) throw panic(`column ${name} is repeated`);
    seen.add(name);
    const type = String(item.type ?? '').toLowerCase();
    if (!(type in COLUMN_TYPES))
      throw panic(`type ${type} of column ${name} is not one of ${Object.keys(COLUMN_TYPES).join(', ')}`);
    const conditions = String(item.conditions ?? item.perm ?? '');
    validateConditionText(conditions);
    return { name, type, conditions };
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
  await columnsOf(ctx, columns);
  permissionsOf(permissions);
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
  const columns = await columnsOf(ctx, columnsArg);
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
    if (!(type in COLUMN_TYPES))
      throw panic(`type ${type} is not one of ${Object.keys(COLUMN_TYPES).join(', ')}`);
  }
  columnPermissionOf(fourth ?? third);
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
  if (!(type in COLUMN_TYPES))
    throw panic(`type ${type} is not one of ${Object.keys(COLUMN_TYPES).join(', ')}`);
  const permission = columnPermissionOf(permissions);
  const columns = columnMap(row.columns);
  if (column in columns) throw panic(`column ${column} exists`);
  if (Object.keys(columns).length + 1 > (await maxColumns(ctx)))
    throw panic('too many columns (max_columns)');
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
  const permission = columnPermissionOf(permissions);
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

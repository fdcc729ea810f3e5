import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { allocateRowId, intArg, textArg } from './args';
import { previousValueExpression, rowKeyOf, type ColumnDefinition } from './journal';
import { allowed, columnReadCondition, tablePermissions } from './permissions';
import { requireExecAccess } from './privileged';
import { checkColumnName } from './schema';
import { ecosystemOf, hostOf, type HostState } from './state';
import {
  FIRST_ECOSYSTEM_TABLES,
  resolveTable,
  SHARED_TABLES,
  TableError,
  type ColumnInfo,
  type ResolvedTable,
} from '../table-access/catalog';

/**
 * Schema built-ins beyond creating tables and columns: CreateView, DelColumn, DelTable and GetColumnType.
 * Every change is journalled so that a transaction (or a block) can be taken back exactly: a view is
 * dropped, a dropped column or table is added back from the definition PostgreSQL gave for it, the
 * deleted `1_tables` row is inserted again.
 */

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

function resolved(name: string, ecosystem: bigint): ResolvedTable | undefined {
  try {
    return resolveTable(name, ecosystem);
  } catch (error) {
    if (error instanceof TableError) return undefined;
    throw error;
  }
}

/** Whether a physical table or view of that name exists. */
async function relationExists(host: HostState, physical: string): Promise<boolean> {
  const row = await host.sql.one(
    `SELECT 1 FROM information_schema.tables
      WHERE "table_schema" = current_schema() AND "table_type" IN ('BASE TABLE', 'VIEW') AND "table_name" = $1`,
    [physical],
  );
  return row !== undefined;
}

/** Views that read a table: dropping it, or making it again, would break them. */
async function dependentViews(host: HostState, physical: string): Promise<string[]> {
  const rows = await host.sql.query<{ view: string }>(
    `SELECT DISTINCT "view_name" AS "view" FROM information_schema.view_table_usage
      WHERE "table_schema" = current_schema() AND "table_name" = $1 ORDER BY 1`,
    [physical],
  );
  return rows.map((row) => row.view);
}

/** The `1_tables` row of a table of the transaction's ecosystem. */
async function registeredTable(host: HostState, ecosystem: bigint, name: string) {
  return host.sql.one<{ id: string; columns: string }>(
    `SELECT "id", "columns"::text AS "columns" FROM "1_tables" WHERE "ecosystem" = $1 AND "name" = $2`,
    [ecosystem.toString(), name],
  );
}

/**
 * What DelColumn and DelTable may remove, checked in the reference's order: a table an ecosystem made
 * (not a platform table: "… is not a custom table"), whose `update` permission the caller passes, of the
 * transaction's ecosystem, and empty.
 */
async function removableTable(ctx: BuiltinContext, nameArg: Value) {
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const raw = textArg(nameArg, 'table name').trim().toLowerCase();
  const table = resolved(raw, ecosystem);
  if (!table || table.shared || FIRST_ECOSYSTEM_TABLES.has(table.name)) {
    throw panic(`${table?.physical ?? raw} is not a custom table`);
  }
  const permissions = await tablePermissions(host, table);
  if (!permissions) throw panic(`${table.physical} is not a custom table`);
  if (!(await allowed(ctx, permissions.update))) throw panic('table: access denied');
  const row = table.ecosystem === ecosystem ? await registeredTable(host, ecosystem, table.name) : undefined;
  if (!row) throw panic(`table ${table.physical} has not been found`);
  if (await host.sql.one(`SELECT 1 FROM "${table.physical}" LIMIT 1`)) {
    throw panic(`Table ${table.physical} is not empty`);
  }
  return { host, table, row };
}

/** Columns of a physical table as PostgreSQL's catalogue defines them, in their order. */
async function columnDefinitions(host: HostState, physical: string): Promise<ColumnDefinition[]> {
  const rows = await host.sql.query<{
    name: string;
    type: string;
    not_null: boolean;
    default: string | null;
  }>(
    `SELECT a."attname" AS "name", format_type(a."atttypid", a."atttypmod") AS "type",
            a."attnotnull" AS "not_null", pg_get_expr(d."adbin", d."adrelid") AS "default"
       FROM pg_attribute a
       LEFT JOIN pg_attrdef d ON d."adrelid" = a."attrelid" AND d."adnum" = a."attnum"
      WHERE a."attrelid" = to_regclass(quote_ident($1)) AND a."attnum" > 0 AND NOT a."attisdropped"
      ORDER BY a."attnum"`,
    [physical],
  );
  return rows.map((row) => ({
    name: row.name,
    type: row.type,
    notNull: row.not_null === true || String(row.not_null) === 'true',
    default: row.default,
  }));
}

async function tablePrimaryKey(host: HostState, physical: string): Promise<string[]> {
  const rows = await host.sql.query<{ name: string }>(
    `SELECT a."attname" AS "name"
       FROM pg_index i JOIN pg_attribute a ON a."attrelid" = i."indrelid" AND a."attnum" = ANY(i."indkey")
      WHERE i."indrelid" = to_regclass(quote_ident($1)) AND i."indisprimary"
      ORDER BY array_position(i."indkey"::int2[], a."attnum")`,
    [physical],
  );
  return rows.map((row) => row.name);
}

function parsedColumns(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** DelColumn(table, column): drops a column of an empty table the caller may update. */
async function delColumn(ctx: BuiltinContext, tableArg: Value, columnArg: Value): Promise<Value> {
  const { host, table, row } = await removableTable(ctx, tableArg);
  const name = textArg(columnArg, 'column name').trim().toLowerCase();
  const columns = await columnDefinitions(host, table.physical);
  if (!columns.some((item) => item.name === name)) throw panic(`column ${name} doesn't exist`);
  if (!(name in parsedColumns(row.columns))) throw panic(`Column ${name} cannot be deleted`);
  // Taking the change back makes the table again (to put the column back in its place): no view may
  // read it, not only the column.
  const views = await dependentViews(host, table.physical);
  if (views.length > 0) throw panic(`table ${table.physical} is read by the view ${views.join(', ')}`);
  const primaryKey = await tablePrimaryKey(host, table.physical);
  await host.sql.query(`ALTER TABLE "${table.physical}" DROP COLUMN "${name}"`);
  await host.journal.system({ type: 'DropColumn', table: table.physical, column: name, columns, primaryKey });
  host.catalog.invalidate(table.physical);
  await host.sql.query(`UPDATE "1_tables" SET "columns" = "columns" - $1 WHERE "id" = $2`, [name, row.id]);
  await host.journal.updated('1_tables', row.id, { columns: row.columns });
  return null;
}

/** DelTable(table): drops an empty table the caller may update, and its `1_tables` row. */
async function delTable(ctx: BuiltinContext, tableArg: Value): Promise<Value> {
  const { host, table, row } = await removableTable(ctx, tableArg);
  const views = await dependentViews(host, table.physical);
  if (views.length > 0) throw panic(`table ${table.physical} is read by the view ${views.join(', ')}`);
  const registry = (await host.catalog.columns('1_tables'))!;
  const previous = await host.sql.one<Record<string, string | null>>(
    `SELECT ${[...registry.values()].map((column) => `${previousValueExpression(column)} AS "${column.name}"`).join(', ')}
       FROM "1_tables" WHERE "id" = $1`,
    [row.id],
  );
  const columns = await columnDefinitions(host, table.physical);
  const key = await tablePrimaryKey(host, table.physical);
  await host.sql.query(`DELETE FROM "1_tables" WHERE "id" = $1`, [row.id]);
  await host.journal.system({ type: 'DeletedRow', table: '1_tables', row: previous! });
  await host.sql.query(`DROP TABLE "${table.physical}"`);
  await host.journal.system({ type: 'DropTable', table: table.physical, columns, primaryKey: key });
  host.catalog.invalidate(table.physical);
  return null;
}

/** The reference's names of column types (its DataTypeToColumnType), from PostgreSQL's `data_type`. */
function columnTypeName(dataType: string): string {
  if (dataType === 'character varying') return 'varchar';
  if (dataType === 'bigint') return 'number';
  if (dataType === 'jsonb') return 'json';
  if (dataType.startsWith('timestamp')) return 'datetime';
  if (dataType.startsWith('numeric')) return 'money';
  if (dataType.startsWith('double')) return 'double';
  if (dataType.startsWith('bytea')) return 'bytea';
  return dataType;
}

/** GetColumnType(table, column): the column's type name, "" when there is no such table or column. */
async function getColumnType(ctx: BuiltinContext, tableArg: Value, columnArg: Value): Promise<Value> {
  const host = hostOf(ctx);
  const table = resolved(textArg(tableArg, 'table name'), ecosystemOf(ctx));
  if (!table) return '';
  const columns = await host.catalog.columns(table.physical);
  const column = columns?.get(textArg(columnArg, 'column name').trim().toLowerCase());
  return column ? columnTypeName(column.type) : '';
}

/** A view's column: `{"table": …, "col": …, "alias": …}` (alias optional). */
interface ViewColumn {
  table: ResolvedTable;
  column: string;
  alias: string;
}

/** A join condition: `{"table1", "col1", "compare", "table2", "col2"}`. */
interface ViewCondition {
  left: ResolvedTable;
  leftColumn: string;
  compare: string;
  right: ResolvedTable;
  rightColumn: string;
}

/** The comparisons a view's join may use; the reference pasted any text there into its SQL. */
const COMPARISONS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=']);

/** Entries a view may have, as columns or as join conditions. */
const MAX_VIEW_ENTRIES = 100;

function jsonList(text: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw panic(`columns from json: ${(error as Error).message}`);
  }
  if (parsed === null) return [];
  if (
    !Array.isArray(parsed) ||
    parsed.some((item) => !item || typeof item !== 'object' || Array.isArray(item))
  ) {
    throw panic('columns from json: an array of objects is expected');
  }
  if (parsed.length > MAX_VIEW_ENTRIES) throw panic(`a view may have at most ${MAX_VIEW_ENTRIES} entries`);
  return parsed as Record<string, unknown>[];
}

function member(item: Record<string, unknown>, key: string): string {
  const value = item[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw panic(`columns from json: ${key} must be a string`);
  return value.trim().toLowerCase();
}

/**
 * What a view may read: tables and views of the transaction's ecosystem (a shared or platform table
 * holds every ecosystem's rows, which a view could not keep apart), and of a table only what every
 * reader may read (a view has no read permission of its own, so it must not show what one would hide).
 */
class ViewSources {
  private readonly columns = new Map<string, Map<string, ColumnInfo>>();

  constructor(
    private readonly host: HostState,
    private readonly ecosystem: bigint,
  ) {}

  async table(name: string): Promise<ResolvedTable> {
    const table = resolved(name, this.ecosystem);
    const physical = table?.physical ?? name;
    if (
      !table ||
      table.shared ||
      FIRST_ECOSYSTEM_TABLES.has(table.name) ||
      table.ecosystem !== this.ecosystem
    ) {
      throw panic(`table ${physical} has not been found`);
    }
    if (!this.columns.has(table.physical)) {
      const columns = await this.host.catalog.columns(table.physical);
      if (!columns) throw panic(`table ${table.physical} has not been found`);
      const permissions = await tablePermissions(this.host, table);
      if (permissions?.read || permissions?.filter) {
        throw panic(`table ${table.physical} has a read condition: a view would show what it hides`);
      }
      this.columns.set(table.physical, columns);
    }
    return table;
  }

  async column(table: ResolvedTable, name: string): Promise<string> {
    checkColumnName(name);
    if (!this.columns.get(table.physical)!.has(name)) throw panic(`column ${name} doesn't exist`);
    const permissions = await tablePermissions(this.host, table);
    if (permissions && columnReadCondition(permissions, name)) {
      throw panic(`column ${table.physical}.${name} has a read condition: a view would show what it hides`);
    }
    return name;
  }
}

/**
 * CreateView(name, columns, where, appId): a view `<ecosystem>_<name>` joining tables of the ecosystem,
 * registered in `1_views`. Only contracts that `access_exec_create_view` allows may call it.
 */
async function createView(
  ctx: BuiltinContext,
  nameArg: Value,
  columnsArg: Value,
  whereArg: Value,
  appIdArg: Value,
): Promise<Value> {
  await requireExecAccess(ctx, 'CreateView');
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const given = textArg(nameArg, 'view name');
  const name = given.trim().toLowerCase();
  if (!NAME.test(name))
    throw panic(`view name ${JSON.stringify(given)} is not valid: use letters, digits and _`);
  const physical = `${ecosystem}_${name}`;
  const taken =
    SHARED_TABLES.has(name) ||
    FIRST_ECOSYSTEM_TABLES.has(name) ||
    (await relationExists(host, physical)) ||
    (await host.sql.one(`SELECT 1 FROM "1_views" WHERE "ecosystem" = $1 AND "name" = $2`, [
      ecosystem.toString(),
      name,
    ])) !== undefined;
  if (taken) throw panic(`table ${given} exists`);
  const appId = intArg(appIdArg, 'application id');
  const sources = new ViewSources(host, ecosystem);

  const columnItems = jsonList(textArg(columnsArg, 'columns'));
  if (columnItems.length === 0) throw panic('columns is empty');
  const columns: ViewColumn[] = [];
  const outputNames = new Set<string>();
  for (const item of columnItems) {
    const table = await sources.table(member(item, 'table'));
    const column = await sources.column(table, member(item, 'col'));
    const alias = member(item, 'alias');
    if (alias) checkColumnName(alias);
    const output = alias || column;
    if (outputNames.has(output)) throw panic(`column ${output} specified more than once`);
    outputNames.add(output);
    columns.push({ table, column, alias });
  }

  const whereItems = jsonList(textArg(whereArg, 'where'));
  if (whereItems.length === 0) throw panic('columns is empty');
  const conditions: ViewCondition[] = [];
  for (const item of whereItems) {
    const left = await sources.table(member(item, 'table1'));
    const right = await sources.table(member(item, 'table2'));
    const leftColumn = await sources.column(left, member(item, 'col1'));
    const rightColumn = await sources.column(right, member(item, 'col2'));
    const compare = member(item, 'compare');
    if (!compare) throw panic('compare operator size is empty');
    if (!COMPARISONS.has(compare)) throw panic(`compare operator ${compare} is not supported`);
    conditions.push({ left, leftColumn, compare, right, rightColumn });
  }
  // The tables are those the join names, as in the reference; a column of any other table would make a
  // cross join of everything with everything.
  const joined = new Set(conditions.flatMap((item) => [item.left.physical, item.right.physical]));
  for (const item of columns) {
    if (!joined.has(item.table.physical)) throw panic(`table ${item.table.physical} is not joined in where`);
  }

  const select = columns
    .map((item) => `"${item.table.physical}"."${item.column}"${item.alias ? ` AS "${item.alias}"` : ''}`)
    .join(', ');
  const from = [...joined]
    .sort()
    .map((table) => `"${table}"`)
    .join(', ');
  const where = conditions
    .map(
      (item) =>
        `"${item.left.physical}"."${item.leftColumn}" ${item.compare} "${item.right.physical}"."${item.rightColumn}"`,
    )
    .join(' AND ');
  try {
    await host.sql.query(`CREATE VIEW "${physical}" AS SELECT ${select} FROM ${from} WHERE ${where}`);
  } catch (error) {
    throw panic(`creating view table: ${(error as Error).message}`);
  }
  await host.journal.system({ type: 'NewView', table: physical });
  host.catalog.invalidate(physical);

  const id = await allocateRowId(host, '1_views');
  const columnsJson = JSON.stringify(
    columns.map((item) => ({
      table: item.table.physical,
      col: item.column,
      ...(item.alias ? { alias: item.alias } : {}),
    })),
  );
  const wheresJson = JSON.stringify(
    conditions.map((item) => ({
      table1: item.left.physical,
      table2: item.right.physical,
      col1: item.leftColumn,
      col2: item.rightColumn,
      compare: item.compare,
    })),
  );
  await host.sql.query(
    `INSERT INTO "1_views" ("id", "ecosystem", "name", "columns", "wheres", "app_id") VALUES ($1, $2, $3, $4, $5, $6)`,
    [id.toString(), ecosystem.toString(), name, columnsJson, wheresJson, appId.toString()],
  );
  await host.journal.inserted('1_views', rowKeyOf('1_views', id, ecosystem));
  return null;
}

export const SCHEMA_CHANGE_BUILTINS: BuiltinDef[] = [
  { name: 'CreateView', fn: createView, params: 4, writesDb: true, price: 100 },
  { name: 'DelColumn', fn: delColumn, params: 2, writesDb: true },
  { name: 'DelTable', fn: delTable, params: 1, writesDb: true },
  { name: 'GetColumnType', fn: getColumnType, params: 2 },
];

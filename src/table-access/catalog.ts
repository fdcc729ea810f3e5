import type { Sql } from '../database/database.service';

/** Tables every ecosystem shares (rows carry an `ecosystem` column): `keys` of ecosystem 5 is `1_keys` rows with ecosystem 5. */
export const SHARED_TABLES: ReadonlySet<string> = new Set([
  'keys',
  'menu',
  'pages',
  'snippets',
  'languages',
  'contracts',
  'tables',
  'parameters',
  'history',
  'sections',
  'members',
  'roles',
  'roles_participants',
  'notifications',
  'applications',
  'binaries',
  'buffer_data',
  'app_params',
  'views',
]);

/** Tables of the first ecosystem alone (no `ecosystem` column). */
export const FIRST_ECOSYSTEM_TABLES: ReadonlySet<string> = new Set([
  'ecosystems',
  'platform_parameters',
  'delayed_contracts',
  'bad_blocks',
  'node_ban_logs',
  'time_zones',
]);

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export class TableError extends Error {}

/** A table as contracts and the API address it, resolved to its physical table and ecosystem scope. */
export interface ResolvedTable {
  /** The name without ecosystem prefix, lower case (`pages`, `mytable`). */
  name: string;
  /** Physical table, e.g. `1_pages` or `3_mytable`. */
  physical: string;
  /** The ecosystem whose rows are meant. */
  ecosystem: bigint;
  /** Rows of a shared table are filtered by (and written with) this ecosystem. */
  shared: boolean;
}

/**
 * `@3name` → ecosystem 3; a plain name → the caller's ecosystem. Shared names map to `1_<name>` filtered
 * by ecosystem, first-ecosystem tables to `1_<name>`, any other name to `<ecosystem>_<name>`. Names are
 * checked, never cleaned: a name with anything but letters, digits and `_` is refused.
 */
export function resolveTable(rawName: string, callerEcosystem: bigint): ResolvedTable {
  let name = rawName.trim();
  let ecosystem = callerEcosystem;
  const prefixed = /^@(\d+)(.+)$/.exec(name);
  if (prefixed) {
    ecosystem = BigInt(prefixed[1]);
    name = prefixed[2];
  } else if (/^\d+_/.test(name)) {
    // A physical name ("1_pages", "2_things") is accepted for the ecosystem it names.
    const dash = name.indexOf('_');
    ecosystem = BigInt(name.slice(0, dash));
    name = name.slice(dash + 1);
  }
  name = name.toLowerCase();
  if (!NAME.test(name)) throw new TableError(`table name ${JSON.stringify(rawName)} is not valid`);
  if (SHARED_TABLES.has(name)) return { name, physical: `1_${name}`, ecosystem, shared: true };
  if (FIRST_ECOSYSTEM_TABLES.has(name)) return { name, physical: `1_${name}`, ecosystem: 1n, shared: false };
  return { name, physical: `${ecosystem}_${name}`, ecosystem, shared: false };
}

export interface ColumnInfo {
  name: string;
  /** PostgreSQL data_type (`bigint`, `text`, `jsonb`, `numeric`, `bytea`, …). */
  type: string;
}

/**
 * The reference's column order of platform tables whose columns this node's migrations create in another
 * order. Reads that list every column in the table's order (DBFind's `*` in pages, GetHistory) show the
 * order, so the catalogue answers the reference's without rebuilding the table; a column missing from the
 * list keeps its place after those listed.
 */
const REFERENCE_COLUMN_ORDER: ReadonlyMap<string, readonly string[]> = new Map([
  ['1_binaries', ['id', 'app_id', 'name', 'data', 'hash', 'mime_type', 'ecosystem', 'account']],
]);

function inReferenceOrder<T extends { column_name: string }>(physical: string, rows: T[]): T[] {
  const order = REFERENCE_COLUMN_ORDER.get(physical);
  if (!order) return rows;
  const rank = (row: T) => {
    const position = order.indexOf(row.column_name);
    return position < 0 ? order.length : position;
  };
  // Array.prototype.sort is stable: unlisted columns keep their ordinal order.
  return [...rows].sort((a, b) => rank(a) - rank(b));
}

/**
 * Columns of physical tables, read from the database catalogue. Every table and column name that reaches
 * SQL is checked against it; values are always bound parameters.
 */
export class TableCatalog {
  private readonly cache = new Map<string, Map<string, ColumnInfo> | null>();

  constructor(private readonly sql: Sql) {}

  async columns(physical: string): Promise<Map<string, ColumnInfo> | null> {
    if (this.cache.has(physical)) return this.cache.get(physical)!;
    const rows = await this.sql.query<{ column_name: string; data_type: string }>(
      `SELECT "column_name", "data_type" FROM information_schema.columns
        WHERE "table_schema" = current_schema() AND "table_name" = $1 ORDER BY "ordinal_position"`,
      [physical],
    );
    const columns = rows.length
      ? new Map(
          inReferenceOrder(physical, rows).map((row) => [
            row.column_name,
            { name: row.column_name, type: row.data_type },
          ]),
        )
      : null;
    this.cache.set(physical, columns);
    return columns;
  }

  async require(table: ResolvedTable): Promise<Map<string, ColumnInfo>> {
    const columns = await this.columns(table.physical);
    if (!columns) throw new TableError(`table ${table.name} has not been found`);
    return columns;
  }

  /** Forget what is known about a table (after CREATE TABLE / ALTER TABLE in the same transaction). */
  invalidate(physical: string): void {
    this.cache.delete(physical);
  }
}

/** RFC 3339 of a UTC wall time, fractional seconds only when there are any (Go's RFC3339Nano). */
function rfc3339(expression: string): string {
  return `to_char(${expression}, 'YYYY-MM-DD"T"HH24:MI:SS') || rtrim(rtrim(to_char(${expression}, '.US'), '0'), '.') || 'Z'`;
}

/**
 * A column's value as text, the form contracts and list endpoints see: PostgreSQL's own text for numbers
 * and JSON, `true`/`false` for booleans, hex for bytes, RFC 3339 for timestamps and dates; NULL stays NULL
 * (each side renders it its way).
 */
export function textColumnExpression(column: ColumnInfo): string {
  const quoted = `"${column.name}"`;
  switch (column.type) {
    case 'bytea':
      return `encode(${quoted}, 'hex')`;
    case 'boolean':
      return `CASE WHEN ${quoted} IS NULL THEN NULL WHEN ${quoted} THEN 'true' ELSE 'false' END`;
    case 'timestamp without time zone':
      return rfc3339(quoted);
    case 'timestamp with time zone':
      return rfc3339(`(${quoted} AT TIME ZONE 'UTC')`);
    case 'date':
      return `to_char(${quoted}, 'YYYY-MM-DD"T00:00:00Z"')`;
    default:
      return `${quoted}::text`;
  }
}

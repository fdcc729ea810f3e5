import { jsonObject } from '../common/json-object';
import type { Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { TableEntity } from '../tables/entities/table.entity';
import type { ResolvedTable } from './catalog';

export interface TablePermissions {
  insert: string;
  update: string;
  new_column: string;
  read?: string;
  filter?: string;
  /** Column → its update condition, or {update, read}. */
  columns: Record<string, string | { update?: string; read?: string }>;
}

const TABLES = new EntityTable(TableEntity);
const PERMISSIONS = TABLES.select('permissions', 'columns');
const PERMISSIONS_OF = `SELECT ${PERMISSIONS} FROM ${TABLES.name}
  WHERE ${TABLES.column('ecosystem')} = $1 AND ${TABLES.column('name')} = $2`;

/** Whose `1_tables` row governs a table: shared and platform tables follow ecosystem 1's, others their own. */
export function permissionsEcosystem(table: ResolvedTable): bigint {
  return table.shared || table.physical.startsWith('1_') ? 1n : table.ecosystem;
}

/** The permissions of a table from `1_tables`; `undefined` when the table is not registered there. */
export async function loadTablePermissions(
  sql: Sql,
  table: ResolvedTable,
): Promise<TablePermissions | undefined> {
  const row = await sql.one<RowOf<typeof PERMISSIONS>>(PERMISSIONS_OF, [
    permissionsEcosystem(table).toString(),
    table.name,
  ]);
  if (!row) return undefined;
  const permissions = jsonObject(row.permissions);
  const text = (name: string) => (typeof permissions[name] === 'string' ? (permissions[name] as string) : '');
  return {
    insert: text('insert'),
    update: text('update'),
    new_column: text('new_column'),
    read: text('read') || undefined,
    filter: text('filter') || undefined,
    columns: jsonObject(row.columns) as TablePermissions['columns'],
  };
}

/**
 * A column's permission as the `1_tables` columns hold it: its update condition, the JSON text of
 * `{"update": …, "read": …}` (what the reference stores for an object), or that object itself. Text that
 * starts with `{` but is not a JSON object stays an update condition (which then does not compile).
 */
export function columnPermission(
  permissions: TablePermissions,
  column: string,
): { update?: string; read?: string } {
  const entry: unknown = permissions.columns[column];
  let object: unknown = entry;
  if (typeof entry === 'string') {
    if (!entry.trim().startsWith('{')) return { update: entry };
    try {
      object = JSON.parse(entry);
    } catch {
      return { update: entry };
    }
  }
  if (!object || typeof object !== 'object' || Array.isArray(object)) {
    return typeof entry === 'string' ? { update: entry } : {};
  }
  const { update, read } = object as { update?: unknown; read?: unknown };
  return {
    update: typeof update === 'string' ? update : undefined,
    read: typeof read === 'string' ? read : undefined,
  };
}

/** A column's read condition: the `read` member of an object permission (stored as an object or its JSON text). */
export function columnReadCondition(permissions: TablePermissions, column: string): string | undefined {
  return columnPermission(permissions, column).read || undefined;
}

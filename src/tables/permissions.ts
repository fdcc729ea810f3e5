import { jsonObject } from '../common/json-object';
import type { Sql } from '../database/database.service';
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

/** Whose `1_tables` row governs a table: shared and platform tables follow ecosystem 1's, others their own. */
export function permissionsEcosystem(table: ResolvedTable): bigint {
  return table.shared || table.physical.startsWith('1_') ? 1n : table.ecosystem;
}

/** The permissions of a table from `1_tables`; `undefined` when the table is not registered there. */
export async function loadTablePermissions(
  sql: Sql,
  table: ResolvedTable,
): Promise<TablePermissions | undefined> {
  const row = await sql.one<{ permissions: unknown; columns: unknown }>(
    'SELECT "permissions", "columns" FROM "1_tables" WHERE "ecosystem" = $1 AND "name" = $2',
    [permissionsEcosystem(table).toString(), table.name],
  );
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
 * A column's read condition: the `read` member of an object permission, also when the object is stored as
 * JSON text (the reference's form).
 */
export function columnReadCondition(permissions: TablePermissions, column: string): string | undefined {
  let entry: unknown = permissions.columns[column];
  if (typeof entry === 'string' && entry.trim().startsWith('{')) {
    try {
      entry = JSON.parse(entry);
    } catch {
      return undefined;
    }
  }
  if (!entry || typeof entry !== 'object') return undefined;
  const read = (entry as { read?: unknown }).read;
  return typeof read === 'string' && read ? read : undefined;
}

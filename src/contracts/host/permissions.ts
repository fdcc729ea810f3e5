import { jsonObject } from '../../common/json-object';
import { panic, type BuiltinContext } from '../../vm';
import { ecosystemOf, hostOf, type HostState } from './state';
import type { ResolvedTable } from './tables';

export interface TablePermissions {
  insert: string;
  update: string;
  new_column: string;
  read?: string;
  filter?: string;
  /** Column → its update condition, or {update, read}. */
  columns: Record<string, string | { update?: string; read?: string }>;
}

/**
 * The permissions of a table from `1_tables`: shared tables follow the platform's row (ecosystem 1), a
 * table an ecosystem made follows its own row. `undefined` when the table is not registered.
 */
export async function tablePermissions(
  host: HostState,
  table: ResolvedTable,
): Promise<TablePermissions | undefined> {
  const ecosystem = table.shared || table.physical.startsWith('1_') ? 1n : table.ecosystem;
  if (host.cache) {
    return host.cache.tablePermissions(`${ecosystem}:${table.name}`, () =>
      loadPermissions(host, ecosystem, table),
    );
  }
  return loadPermissions(host, ecosystem, table);
}

async function loadPermissions(
  host: HostState,
  ecosystem: bigint,
  table: ResolvedTable,
): Promise<TablePermissions | undefined> {
  const row = await host.sql.one<{ permissions: unknown; columns: unknown }>(
    'SELECT "permissions", "columns" FROM "1_tables" WHERE "ecosystem" = $1 AND "name" = $2',
    [ecosystem.toString(), table.name],
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
 * Evaluates a permission condition for the execution `ctx` is part of. Inside the condition,
 * ContractAccess looks at the stack of the contract doing the write, not at the condition's own.
 */
export async function allowed(ctx: BuiltinContext, condition: string): Promise<boolean> {
  const host = hostOf(ctx);
  const stack = ctx.contractStack.length > 0 ? ctx.contractStack : (host.permissionStack ?? []);
  return ctx.vm.evalCondition(condition, {
    tx: { ...ctx.tx, host: { ...host, permissionStack: stack } },
    ecosystem: Number(ecosystemOf(ctx)),
  });
}

export async function requireAllowed(ctx: BuiltinContext, condition: string, what: string): Promise<void> {
  if (!(await allowed(ctx, condition))) throw panic(`Access denied: ${what}`);
}

export function columnUpdateCondition(permissions: TablePermissions, column: string): string | undefined {
  const entry = permissions.columns[column];
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry.update === 'string') return entry.update;
  return undefined;
}

export function columnReadCondition(permissions: TablePermissions, column: string): string | undefined {
  const entry = permissions.columns[column];
  return entry && typeof entry === 'object' && typeof entry.read === 'string' && entry.read
    ? entry.read
    : undefined;
}

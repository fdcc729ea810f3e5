import { panic, type BuiltinContext } from '../../vm';
import { ecosystemOf, hostOf, type HostState } from './state';
import type { ResolvedTable } from '../../tables/catalog';
import { loadTablePermissions, permissionsEcosystem, type TablePermissions } from '../../tables/permissions';

export { columnReadCondition, type TablePermissions } from '../../tables/permissions';

/**
 * The permissions of a table from `1_tables`: shared tables follow the platform's row (ecosystem 1), a
 * table an ecosystem made follows its own row. `undefined` when the table is not registered.
 */
export async function tablePermissions(
  host: HostState,
  table: ResolvedTable,
): Promise<TablePermissions | undefined> {
  if (host.cache) {
    return host.cache.tablePermissions(`${permissionsEcosystem(table)}:${table.name}`, () =>
      loadTablePermissions(host.writeBehind?.sqlSeeing('1_tables') ?? host.sql, table),
    );
  }
  return loadTablePermissions(host.sql, table);
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

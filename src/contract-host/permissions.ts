import { panic, type BuiltinContext } from '../vm';
import { ecosystemOf, hostOf, type HostState } from './state';
import type { ResolvedTable } from '../table-access/catalog';
import {
  columnPermission,
  loadTablePermissions,
  permissionsEcosystem,
  type TablePermissions,
} from '../table-access/permissions';

export { columnReadCondition, type TablePermissions } from '../table-access/permissions';

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

/** What a refused permission guards: the reference's texts say only that (`table: access denied`). */
export type Guarded = 'table' | 'column';

export async function requireAllowed(
  ctx: BuiltinContext,
  condition: string,
  guarded: Guarded,
): Promise<void> {
  if (!(await allowed(ctx, condition))) throw panic(`${guarded}: access denied`);
}

/** A column's update condition: the condition itself, or the `update` member of an object permission. */
export function columnUpdateCondition(permissions: TablePermissions, column: string): string | undefined {
  return columnPermission(permissions, column).update;
}

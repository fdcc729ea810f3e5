import { panic, snakeCase, type BuiltinContext } from '../vm';
import { allowed } from './permissions';
import { platformParameter } from '../chain/platform-parameters.service';
import { hostOf } from './state';

/**
 * Privileged built-ins run only where the platform parameter `access_exec_<snake_case name>` allows
 * (e.g. CreateTable only from @1NewTable). A missing parameter allows nothing.
 */
export async function requireExecAccess(ctx: BuiltinContext, builtin: string): Promise<void> {
  const name = `access_exec_${snakeCase(builtin)}`;
  // The reference's text, with an empty condition when the parameter is missing.
  const condition = (await platformParameter(hostOf(ctx).sql, name))?.trim() ?? '';
  if (!condition || !(await allowed(ctx, condition))) {
    throw panic(`${builtin} can only be called with condition: ${condition}`);
  }
}

/** The access_exec_* platform parameters the node seeds at genesis: built-in → contracts allowed to call it. */
export const EXEC_ACCESS: Record<string, string[]> = {
  CreateTable: ['NewTable'],
  PermTable: ['EditTable'],
  CreateColumn: ['NewColumn'],
  PermColumn: ['EditColumn'],
  CreateContract: ['NewContract'],
  UpdateContract: ['EditContract'],
  BndWallet: ['BindWallet'],
  UnbndWallet: ['UnbindWallet'],
  CreateLanguage: ['NewLang'],
  EditLanguage: ['EditLang'],
  CreateEcosystem: ['NewEcosystem'],
  EditEcosysName: ['EditEcosystemName'],
  // As in the reference; its NewView contract is not shipped yet.
  CreateView: ['NewView'],
  // The platform's own: UpdatePlatformParam changes parameters, CheckNodesBan (a delayed contract) bans nodes.
  DBUpdatePlatformParam: ['UpdatePlatformParam'],
  UpdateNodesBan: ['CheckNodesBan'],
};

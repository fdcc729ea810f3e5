import type { BuiltinDef } from '../../vm';
import { ACCESS_BUILTINS } from './access';
import { ACCOUNT_BUILTINS } from './accounts';
import { DB_BUILTINS } from './db';
import { OBJECT_BUILTINS } from './objects';
import { PARAM_BUILTINS } from './params';
import { PLATFORM_BUILTINS } from './platform';
import { SCHEMA_BUILTINS } from './schema';

export { PRELUDE } from './prelude';
export { EXEC_ACCESS } from './privileged';
export type { ContractRow } from './objects';
export * from './journal';
export * from './block-cache';
export * from './state';
export * from './row-store';
export * from './write-behind';
export * from '../../tables/catalog';

/** Every built-in the node adds to the contract language. */
export const HOST_BUILTINS: readonly BuiltinDef[] = [
  ...DB_BUILTINS,
  ...PARAM_BUILTINS,
  ...ACCESS_BUILTINS,
  ...ACCOUNT_BUILTINS,
  ...SCHEMA_BUILTINS,
  ...OBJECT_BUILTINS,
  ...PLATFORM_BUILTINS,
];

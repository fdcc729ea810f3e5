import type { BuiltinDef } from '../vm';
import { ACCESS_BUILTINS } from './access';
import { ACCOUNT_BUILTINS } from './accounts';
import { CONDITION_BUILTINS } from './conditions';
import { DB_BUILTINS } from './db';
import { HISTORY_BUILTINS } from './history';
import { NOTIFICATION_BUILTINS } from './notifications';
import { OBJECT_BUILTINS } from './objects';
import { PARAM_BUILTINS } from './params';
import { PLATFORM_BUILTINS } from './platform';
import { SCHEMA_BUILTINS } from './schema';
import { SCHEMA_CHANGE_BUILTINS } from './schema-changes';
import { SPREADSHEET_BUILTINS } from './spreadsheets';

export { PRELUDE } from './prelude';
export { EXEC_ACCESS } from './privileged';
export { pendingNotifications, type PendingNotifications } from './notifications';
export type { ContractRow } from './objects';
export * from './journal';
export * from './block-cache';
export * from './state';
export * from './row-store';
export * from './write-behind';
export * from '../table-access/catalog';

/** Every built-in the node adds to the contract language. */
export const HOST_BUILTINS: readonly BuiltinDef[] = [
  ...DB_BUILTINS,
  ...PARAM_BUILTINS,
  ...ACCESS_BUILTINS,
  ...ACCOUNT_BUILTINS,
  ...SCHEMA_BUILTINS,
  ...OBJECT_BUILTINS,
  ...PLATFORM_BUILTINS,
  ...SCHEMA_CHANGE_BUILTINS,
  ...HISTORY_BUILTINS,
  ...SPREADSHEET_BUILTINS,
  ...NOTIFICATION_BUILTINS,
  ...CONDITION_BUILTINS,
];

import { keyIdToAddress } from '../crypto';
import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { intArg } from './args';
import { hostOf, type HostState } from './state';

/**
 * UpdateNotifications and UpdateRolesNotifications ask for the notification counts of some accounts, or of
 * every member of some roles, to be sent to the notification service once the transaction is in a block.
 * They write nothing: the requests are kept with the transaction (`pendingNotifications`), so a failed
 * transaction asks for nothing, and the sending (Centrifugo) takes them after the block is committed.
 */

export interface PendingNotifications {
  /** Ecosystem → accounts whose counts are to be sent. */
  accounts: Map<bigint, Set<string>>;
  /** Ecosystem → roles whose members' counts are to be sent. */
  roles: Map<bigint, Set<bigint>>;
}

const pending = new WeakMap<HostState, PendingNotifications>();

/** What a transaction asked to send, to be taken once its block is committed. */
export function pendingNotifications(host: HostState): PendingNotifications {
  let requests = pending.get(host);
  if (!requests) {
    requests = { accounts: new Map(), roles: new Map() };
    pending.set(host, requests);
  }
  return requests;
}

/**
 * The listed values, as the reference takes them: one by one, or, when the first is an array, that
 * array's elements (and nothing after it).
 */
function listed(values: readonly Value[]): readonly Value[] {
  return Array.isArray(values[0]) ? values[0] : values;
}

function addAll<T>(map: Map<bigint, Set<T>>, ecosystem: bigint, items: readonly T[]): void {
  let set = map.get(ecosystem);
  if (!set) map.set(ecosystem, (set = new Set()));
  for (const item of items) set.add(item);
}

/** UpdateNotifications(ecosystem, accounts…): accounts as their address text, or key ids. */
function updateNotifications(ctx: BuiltinContext, ecosystemArg: Value, ...accounts: Value[]): Value {
  const ecosystem = intArg(ecosystemArg, 'ecosystem');
  const addresses = listed(accounts).map((account) => {
    if (typeof account === 'string') return account.trim();
    if (typeof account === 'bigint') return keyIdToAddress(account);
    throw panic('UpdateNotifications takes accounts as address text or key ids');
  });
  addAll(pendingNotifications(hostOf(ctx)).accounts, ecosystem, addresses);
  return null;
}

/** UpdateRolesNotifications(ecosystem, roles…): role ids, as ints or their text. */
function updateRolesNotifications(ctx: BuiltinContext, ecosystemArg: Value, ...roles: Value[]): Value {
  const ecosystem = intArg(ecosystemArg, 'ecosystem');
  const ids = listed(roles).map((role) => intArg(role, 'role id'));
  addAll(pendingNotifications(hostOf(ctx)).roles, ecosystem, ids);
  return null;
}

export const NOTIFICATION_BUILTINS: BuiltinDef[] = [
  { name: 'UpdateNotifications', fn: updateNotifications, params: [1, Infinity], async: false },
  { name: 'UpdateRolesNotifications', fn: updateRolesNotifications, params: [1, Infinity], async: false },
];

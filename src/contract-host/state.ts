import type { NodeCrypto } from '../chain/node-crypto.service';
import type { Sql } from '../database/database.service';
import { panic, type BuiltinContext, type Vm } from '../vm';
import type { BlockCache } from './block-cache';
import type { Journal } from './journal';
import type { TableCatalog } from '../table-access/catalog';
import type { WriteBehind } from './write-behind';

export interface CallerIdentity {
  keyId: bigint;
  ecosystem: bigint;
  roleId: bigint;
  account: string;
}

/**
 * What host built-ins need, carried in the VM's TxContext.host for one transaction: its database
 * transaction, journal and catalogue, who calls, and the block it belongs to.
 */
export interface HostState {
  sql: Sql;
  catalog: TableCatalog;
  journal: Journal;
  /** The block's shared cache, when the transaction runs in a block the producer makes. */
  cache?: BlockCache;
  /** The block's write-behind layer: rows by id from memory, writes queued (see write-behind.ts). */
  writeBehind?: WriteBehind;
  crypto: NodeCrypto;
  vm: Vm;
  caller: CallerIdentity;
  block: { id: bigint; time: bigint; keyId: bigint };
  txHash: Buffer;
  /** Two-letter language of the transaction, for LangRes. */
  lang: string;
  /** The contract stack of the execution whose permission a condition is checking (see ContractAccess). */
  permissionStack?: readonly string[];
  /** Compiles and registers contracts created by the transaction (CreateContract, CreateEcosystem). */
  registerContract(source: string, ecosystem: bigint, meta: ContractRowMeta): void;
  /** The contracts every new ecosystem starts with (MainCondition, DeveloperCondition). */
  ecosystemContracts(): readonly SeedContract[];
}

export interface ContractRowMeta {
  tableId: number;
  walletId: bigint;
  tokenId: bigint;
  conditions: string;
  appId: bigint;
}

export interface SeedContract {
  name: string;
  source: string;
  conditions: string;
  appId: bigint;
}

export function hostOf(ctx: BuiltinContext): HostState {
  const host = ctx.tx.host as HostState | undefined;
  if (!host || typeof host !== 'object' || !('sql' in host)) throw panic('this function needs the database');
  return host;
}

/**
 * The ecosystem built-ins act in: the transaction's (`$ecosystem_id`), as in the reference, whatever
 * ecosystem the running contract belongs to — the system contracts are `@1…` but serve every ecosystem.
 */
export function ecosystemOf(ctx: BuiltinContext): bigint {
  const host = ctx.tx.host as HostState | undefined;
  if (host?.caller) return host.caller.ecosystem;
  return BigInt(ctx.ecosystem > 0 ? ctx.ecosystem : 1);
}

/**
 * The contract stack a permission check must look at: the execution's own, or, inside a condition
 * evaluated for a DB write, the stack of the execution doing that write.
 */
export function effectiveStack(ctx: BuiltinContext): readonly string[] {
  const own = ctx.contractStack;
  if (own.length > 0) return own;
  return (ctx.tx.host as HostState | undefined)?.permissionStack ?? [];
}

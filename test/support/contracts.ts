import { randomBytes } from 'node:crypto';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { ContractsService } from '../../src/contracts/contracts.service';
import { undoTransaction } from '../../src/contract-host';
import { DatabaseService, type Sql } from '../../src/database/database.service';
import { MoneyDecimal, VmError, type Value } from '../../src/vm';
import type { TestNode } from './node';

export interface Actor {
  keyId: bigint;
  account: string;
  ecosystem: bigint;
  roleId?: bigint;
}

export interface Outcome {
  ok: boolean;
  result: string;
  error?: VmError;
  txHash: Buffer;
}

/** Converts plain test values to contract values: numbers → int, `{money: "…"}` → money, objects → maps. */
export function contractValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return BigInt(value);
  if (typeof value === 'bigint' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(contractValue);
  if (typeof value === 'object' && 'money' in (value as object))
    return new MoneyDecimal(String((value as { money: string }).money));
  return new Map(Object.entries(value as object).map(([key, item]) => [key, contractValue(item)]));
}

/** Runs system contracts against the node's real database, each in the way a block will: one DB transaction. */
export class ContractBench {
  readonly contracts: ContractsService;
  readonly db: DatabaseService;
  readonly crypto: NodeCrypto;
  readonly founder: Actor;
  private blockId = 1_000n;

  constructor(readonly node: TestNode) {
    this.contracts = node.app.get(ContractsService);
    this.db = node.app.get(DatabaseService);
    this.crypto = node.app.get(NodeCrypto);
    const founder = node.app.get(NodeIdentity).founder;
    this.founder = {
      keyId: founder.keyId,
      account: this.crypto.address(founder.keyId),
      ecosystem: 1n,
    };
  }

  actor(keyId: bigint, ecosystem = 1n): Actor {
    return { keyId, account: this.crypto.address(keyId), ecosystem };
  }

  /** Runs a contract and commits its changes when it succeeds (a failed one leaves nothing behind). */
  async run(actor: Actor, contract: string, params: Record<string, unknown> = {}): Promise<Outcome> {
    const txHash = randomBytes(32);
    try {
      return await this.contracts.transaction(async (sql) => {
        const outcome = await this.runIn(sql, actor, contract, params, txHash);
        if (!outcome.ok) throw outcome;
        return outcome;
      });
    } catch (thrown) {
      if ((thrown as Outcome).txHash === txHash) return thrown as Outcome;
      throw thrown;
    }
  }

  async runIn(
    sql: Sql,
    actor: Actor,
    contract: string,
    params: Record<string, unknown>,
    txHash = randomBytes(32),
  ) {
    this.blockId += 1n;
    const time = BigInt(Math.floor(Date.now() / 1000));
    try {
      const result = await this.contracts.execute({
        sql,
        contract,
        params: contractValue(params) as Map<string, Value>,
        caller: {
          keyId: actor.keyId,
          account: actor.account,
          ecosystem: actor.ecosystem,
          roleId: actor.roleId ?? 0n,
        },
        block: { id: this.blockId, time, keyId: this.founder.keyId },
        txHash,
        time,
      });
      return { ok: true, result: result.result, txHash } satisfies Outcome;
    } catch (error) {
      if (error instanceof VmError) return { ok: false, result: '', error, txHash } satisfies Outcome;
      throw error;
    }
  }

  async mustRun(actor: Actor, contract: string, params: Record<string, unknown> = {}): Promise<Outcome> {
    const outcome = await this.run(actor, contract, params);
    if (!outcome.ok) throw new Error(`${contract} failed: ${outcome.error?.type}: ${outcome.error?.message}`);
    return outcome;
  }

  /** Takes back a committed transaction through its journal, in its own DB transaction. */
  undo(txHash: Buffer): Promise<number> {
    return this.db.transaction((sql) => undoTransaction(sql, txHash));
  }

  /** Every row of the tables, as text, for before/after comparisons. */
  async snapshot(tables: string[]): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      out[table] = await this.db.query(`SELECT t::text AS row FROM "${table}" t ORDER BY 1`);
    }
    return out;
  }
}

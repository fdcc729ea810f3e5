import { Injectable } from '@nestjs/common';
import { ContractsService } from '../../contracts/contracts.service';
import { BlockCache, type JournalRecord } from '../../contracts/host';
import { asBuffer, bindList, type Sql } from '../../database/database.service';
import { contractArguments } from '../../tx/contract-params';
import { KeyBans } from '../../tx/key-bans';
import { STATUS_ERROR_LENGTH, TX_EXPIRY_MS } from '../../tx/tx-limits';
import { toVmError, VmError } from '../../vm';
import { decodeSmartContractEnvelope, decodeSmartTransactionPayload, type SmartTransaction } from '../codec';
import { NodeCrypto } from '../node-crypto.service';
import { NativeTransfers } from './native-transfers';

export interface BlockLimits {
  txPerBlock: number;
  txPerUser: number;
  blockSize: number;
  fuelPerTx: number;
  fuelPerBlock: number;
  generationMs: number;
}

export interface BlockContext {
  blockId: bigint;
  /** Block time, Unix seconds. */
  time: bigint;
  /** The block's key (the node owner's account). */
  keyId: bigint;
  nodePosition: bigint;
  limits: BlockLimits;
}

export interface IncludedTx {
  hash: Buffer;
  stored: Buffer;
  /** `$result` as text: what the status shows. */
  result: string;
  contractName: string;
  keyId: bigint;
  ecosystemId: bigint;
  timestampMs: bigint;
}

export interface FailedTx {
  hash: Buffer;
  keyId: bigint;
  /** The status error: the VM's `{"type","error"}` JSON, or a plain refusal text. */
  error: string;
}

export interface ExecutedBlock {
  included: IncludedTx[];
  failed: FailedTx[];
  /** Already mined (sent again while its block was being written): dropped without touching its status. */
  duplicates: Buffer[];
  /** The journal of the included transactions, in order: written with the block. */
  journal: JournalRecord[];
}

interface PendingRow {
  hash: unknown;
  data: unknown;
}

/**
 * Runs a block's transactions, each in isolation: a savepoint before it, released when it succeeds and
 * rolled back when it fails (private chain, no fees: a failing transaction is dropped with its error in
 * its status). Transactions run in the queue's order; the block ends at its limits and the rest wait.
 */
@Injectable()
export class BlockExecutor {
  constructor(
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
    private readonly bans: KeyBans,
    private readonly transfers: NativeTransfers,
  ) {}

  async run(sql: Sql, context: BlockContext): Promise<ExecutedBlock> {
    const { limits } = context;
    const pending = await sql.query<PendingRow>(
      `SELECT "hash", "data" FROM "transactions" WHERE "used" = 0 AND "verified" = 1
        ORDER BY "high_rate", "expedite" DESC, "time", "hash" LIMIT $1`,
      [limits.txPerBlock],
    );
    const executed: ExecutedBlock = { included: [], failed: [], duplicates: [], journal: [] };
    const cache = new BlockCache(sql);
    if (pending.length === 0) return executed;
    const mined = await this.alreadyMined(
      sql,
      pending.map((row) => asBuffer(row.hash)),
    );
    const started = Date.now();
    const perUser = new Map<bigint, number>();
    let size = 0;
    let fuel = 0;
    for (const row of pending) {
      const hash = asBuffer(row.hash);
      if (mined.has(hash.toString('hex'))) {
        executed.duplicates.push(hash);
        continue;
      }
      if (Date.now() - started > limits.generationMs || fuel >= limits.fuelPerBlock) break;
      const stored = asBuffer(row.data);
      if (size + stored.length > limits.blockSize) break;
      let tx: SmartTransaction;
      let timestampMs: bigint;
      try {
        const envelope = decodeSmartContractEnvelope(stored);
        tx = decodeSmartTransactionPayload(envelope.payload);
        timestampMs = envelope.timestamp;
      } catch (error) {
        executed.failed.push({ hash, keyId: 0n, error: (error as Error).message });
        continue;
      }
      const count = perUser.get(tx.keyId) ?? 0;
      if (count >= limits.txPerUser) continue;
      if (timestampMs < context.time * 1000n - BigInt(TX_EXPIRY_MS)) {
        executed.failed.push({ hash, keyId: tx.keyId, error: 'Transaction processing time is expired' });
        continue;
      }
      const journal: JournalRecord[] = [];
      const outcome = await this.runOne(sql, context, tx, hash, cache, journal);
      if (outcome.error !== undefined) {
        // Its savepoint is rolled back: what the cache learnt during it may be gone from the database.
        cache.reset();
        executed.failed.push({ hash, keyId: tx.keyId, error: outcome.error });
        this.bans.strike(tx.keyId);
        continue;
      }
      executed.journal.push(...journal);
      perUser.set(tx.keyId, count + 1);
      size += stored.length;
      fuel += outcome.fuel;
      executed.included.push({
        hash,
        stored,
        result: outcome.result,
        contractName: outcome.contractName,
        keyId: tx.keyId,
        ecosystemId: tx.ecosystemId,
        timestampMs,
      });
    }
    return executed;
  }

  private async runOne(
    sql: Sql,
    context: BlockContext,
    tx: SmartTransaction,
    hash: Buffer,
    cache: BlockCache,
    journal: JournalRecord[],
  ): Promise<{ result: string; contractName: string; fuel: number; error?: string }> {
    await sql.query('SAVEPOINT "tx"');
    try {
      let outcome: { result: string; contractName: string; fuel: number };
      if (tx.transferSelf || tx.utxo) {
        outcome = { ...(await this.transfers.run(sql, tx, hash, context, journal, cache)), fuel: 0 };
      } else {
        const contract = this.contracts.vm.registry.getById(tx.id);
        if (!contract) throw new VmError('panic', `unknown contract ${tx.id}`);
        const run = await this.contracts.execute({
          sql,
          contract: contract.key,
          params: contractArguments(contract, tx.params),
          caller: {
            keyId: tx.keyId,
            ecosystem: tx.ecosystemId,
            roleId: 0n,
            account: this.crypto.address(tx.keyId),
          },
          block: {
            id: context.blockId,
            time: context.time,
            keyId: context.keyId,
            nodePosition: context.nodePosition,
          },
          txHash: hash,
          time: tx.time,
          lang: tx.lang || undefined,
          fuelLimit: context.limits.fuelPerTx,
          deadline: Date.now() + context.limits.generationMs,
          cache,
          journal,
        });
        outcome = { result: run.result, contractName: contract.key, fuel: run.fuelUsed };
      }
      await sql.query('RELEASE SAVEPOINT "tx"');
      return outcome;
    } catch (error) {
      await sql.query('ROLLBACK TO SAVEPOINT "tx"');
      return { result: '', contractName: '', fuel: 0, error: toVmError(error).toJSONString() };
    }
  }

  private async alreadyMined(sql: Sql, hashes: Buffer[]): Promise<Set<string>> {
    const params: unknown[] = [];
    const rows = await sql.query<{ hash: unknown }>(
      `SELECT "hash" FROM "log_transactions" WHERE "hash" IN (${bindList(hashes, params)})`,
      params,
    );
    return new Set(rows.map((row) => asBuffer(row.hash).toString('hex')));
  }

  /** The block's transactions leave the queue, enter the log, and their statuses name the block. */
  async settle(sql: Sql, blockId: bigint, executed: ExecutedBlock): Promise<void> {
    if (executed.included.length > 0) {
      const logParams: unknown[] = [blockId.toString()];
      const logRows = executed.included.map(
        (tx) =>
          `(${bindList(
            [
              tx.hash,
              tx.timestampMs.toString(),
              tx.contractName,
              tx.keyId.toString(),
              tx.ecosystemId.toString(),
            ],
            logParams,
          )}, $1, 0)`,
      );
      await sql.query(
        `INSERT INTO "log_transactions" ("hash", "timestamp", "contract_name", "address", "ecosystem_id", "block", "status")
         VALUES ${logRows.join(', ')}`,
        logParams,
      );
      const statusParams: unknown[] = [blockId.toString()];
      const statusRows = executed.included.map(
        (tx) =>
          `($${statusParams.push(tx.hash)}::bytea, $${statusParams.push(tx.result.slice(0, STATUS_ERROR_LENGTH))}::text)`,
      );
      await sql.query(
        `UPDATE "transactions_status" AS "s" SET "block_id" = $1, "error" = "v"."result", "penalty" = 0
           FROM (VALUES ${statusRows.join(', ')}) AS "v"("hash", "result")
          WHERE "s"."hash" = "v"."hash"`,
        statusParams,
      );
    }
    await this.settleFailures(sql, executed);
  }

  /** Failed transactions report their error and leave the queue; duplicates just leave it. */
  async settleFailures(sql: Sql, executed: ExecutedBlock): Promise<void> {
    if (executed.failed.length > 0) {
      const params: unknown[] = [];
      const rows = executed.failed.map(
        (tx) =>
          `($${params.push(tx.hash)}::bytea, $${params.push(tx.error.slice(0, STATUS_ERROR_LENGTH))}::text)`,
      );
      await sql.query(
        `UPDATE "transactions_status" AS "s" SET "error" = "v"."error"
           FROM (VALUES ${rows.join(', ')}) AS "v"("hash", "error")
          WHERE "s"."hash" = "v"."hash" AND "s"."block_id" = 0`,
        params,
      );
    }
    const done = [
      ...executed.included.map((tx) => tx.hash),
      ...executed.failed.map((tx) => tx.hash),
      ...executed.duplicates,
    ];
    if (done.length === 0) return;
    const params: unknown[] = [];
    await sql.query(`DELETE FROM "transactions" WHERE "hash" IN (${bindList(done, params)})`, params);
  }
}

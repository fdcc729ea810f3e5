import { Inject, Injectable, Logger } from '@nestjs/common';
import { ContractsService } from '../contracts/contracts.service';
import {
  BlockCache,
  RowStore,
  SavepointIsolation,
  WriteBehind,
  WriteBehindFailure,
  type JournalRecord,
  type TxIsolation,
} from '../contract-host';
import { APP_CONFIG, type AppConfig } from '../config';
import { asBuffer, bindList, type Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { TransactionEntity } from '../tx/entities/transaction.entity';
import { LogTransactionEntity } from '../tx/entities/log-transaction.entity';
import { TransactionStatusEntity } from '../tx/entities/transaction-status.entity';
import { contractArguments } from '../chain/rules/contract-params';
import { KeyBans } from '../chain/rules/key-bans';
import { STATUS_ERROR_LENGTH, TX_EXPIRY_MS } from '../chain/rules/tx-limits';
import { toVmError, VmError } from '../vm';
import {
  decodeSmartContractEnvelope,
  decodeSmartTransactionPayload,
  type SmartTransaction,
} from '../chain/codec';
import { AdmittedTxs } from '../chain/admitted-txs';
import { NodeCrypto } from '../chain/node-crypto.service';
import type { BlockNotices } from '../chain/chain-events';
import { NativeTransfers } from './native-transfers';

export interface BlockLimits {
  txPerBlock: number;
  txPerUser: number;
  blockSize: number;
  fuelPerTx: number;
  fuelPerBlock: number;
  /** How long a block may take to make: once it ran this long, the waiting transactions wait for the next. */
  generationMs: number;
  /**
   * How long writing a block is expected to take for each ms spent running it: the running stops at
   * `generationMs / (1 + writeShare)`, so that running and writing together fit `generationMs`. 0: not counted.
   */
  writeShare?: number;
  /** A transaction's own time limit: `max_block_generation_time`, as in the reference. */
  txTimeMs: number;
}

export interface BlockContext {
  blockId: bigint;
  /** Block time, Unix seconds. */
  time: bigint;
  /** The block's key (the node owner's account). */
  keyId: bigint;
  nodePosition: bigint;
  limits: BlockLimits;
  /** Told of each transaction the block takes, as it takes it (the producer starts its compression then). */
  onIncluded?(tx: IncludedTx): void;
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
  /** What the included transactions asked to have published once the block is committed. */
  notices?: BlockNotices;
}

/** A transaction to run: a row of the queue, or one the producer made (the block's delayed contract calls). */
/** The queue's `high_rate` of a client's transaction: lower goes first (a key's registration, at 1). */
export const ORDINARY_RATE = 2;

/** A transaction to run, from the queue, a received block or the node's own calls: its hash and bytes. */
export interface PendingRow {
  hash: Uint8Array;
  data: Uint8Array;
}

const QUEUE = new EntityTable(TransactionEntity);
const QUEUED = QUEUE.select('hash', 'data', 'highRate', 'time');
/** The queued transactions a block may take (checked, not taken yet), as a FROM clause. */
export const RUNNABLE_TXS = `${QUEUE.name} WHERE ${QUEUE.column('used')} = 0 AND ${QUEUE.column('verified')} = 1`;
/** The queue's order: key registrations first, then by expedite and age. */
const NEXT_QUEUED = `SELECT ${QUEUED} FROM ${RUNNABLE_TXS}
  ORDER BY ${QUEUE.column('highRate')}, ${QUEUE.column('expedite')} DESC, ${QUEUE.column('time')}, ${QUEUE.column('hash')}
  LIMIT $1`;
const LOG = new EntityTable(LogTransactionEntity);
const LOGGED_HASH = LOG.select('hash');
/** The hashes already in the log, of those listed after it. */
const LOGGED = `SELECT ${LOGGED_HASH} FROM ${LOG.name} WHERE ${LOG.column('hash')} IN`;
const STATUSES = new EntityTable(TransactionStatusEntity);
const STATUS_HASH = STATUSES.column('hash', 's');
/** A block's transactions into the log: block $1, then one array per column (hashes as hex). */
const LOG_INCLUDED = `INSERT INTO ${LOG.name} (${LOG.columnList('hash', 'timestamp', 'contractName', 'address', 'ecosystemId', 'block', 'status')})
  SELECT decode("v"."hash", 'hex'), "v"."timestamp", "v"."contract", "v"."address", "v"."ecosystem", $1, 0
    FROM unnest($2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[])
      AS "v"("hash", "timestamp", "contract", "address", "ecosystem")`;
/** Their statuses name block $1, with each one's result ($2 hashes as hex, $3 results). */
const STATUS_INCLUDED = `UPDATE ${STATUSES.name} AS "s" SET ${STATUSES.assignments({ blockId: '$1', error: '"v"."result"', penalty: '0' })}
  FROM unnest($2::text[], $3::text[]) AS "v"("hash", "result")
  WHERE ${STATUS_HASH} = decode("v"."hash", 'hex')`;
/** Failed transactions' errors, unless a block took them meanwhile ($1 hashes as hex, $2 errors). */
const STATUS_FAILED = `UPDATE ${STATUSES.name} AS "s" SET ${STATUSES.assignments({ error: '"v"."error"' })}
  FROM unnest($1::text[], $2::text[]) AS "v"("hash", "error")
  WHERE ${STATUS_HASH} = decode("v"."hash", 'hex') AND ${STATUSES.column('blockId', 's')} = 0`;
/** Transactions $1 (hashes as hex) leave the queue. */
const DEQUEUE = `DELETE FROM ${QUEUE.name}
  WHERE ${QUEUE.column('hash')} IN (SELECT decode("h", 'hex') FROM unnest($1::text[]) AS "h")`;

/**
 * Runs a block's transactions, each in isolation: a savepoint before it, released when it succeeds and
 * rolled back when it fails (private chain, no fees: a failing transaction is dropped with its error in
 * its status). Transactions run in the queue's order; the block ends at its limits and the rest wait.
 */
@Injectable()
export class BlockExecutor {
  private readonly logger = new Logger('BlockExecutor');

  constructor(
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
    private readonly bans: KeyBans,
    private readonly transfers: NativeTransfers,
    private readonly rows: RowStore,
    private readonly admitted: AdmittedTxs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Runs `leading` (the producer's own calls) and the waiting transactions that fit the block. With the
   * write-behind layer on, the block is first made in memory (rows kept between blocks, writes queued and
   * written in bulk); when a queued write fails, that attempt is taken back whole and the block is made
   * again with a savepoint per transaction, so the outcome never depends on the way it was made.
   */
  async run(sql: Sql, context: BlockContext, leading: readonly PendingRow[] = []): Promise<ExecutedBlock> {
    const room = Math.max(0, context.limits.txPerBlock - leading.length);
    const queued = await sql.query<RowOf<typeof QUEUED>>(NEXT_QUEUED, [room]);
    const waiting = this.withWaitingOutside(queued, room);
    const executed = await this.runAll(sql, context, [...leading, ...waiting]);
    // The node's own calls (delayed contracts) never count against its key.
    const own = new Set(leading.map((row) => asBuffer(row.hash).toString('hex')));
    for (const failed of executed.failed) {
      if (failed.keyId !== 0n && !own.has(failed.hash.toString('hex'))) this.bans.strike(failed.keyId);
    }
    return executed;
  }

  /**
   * The queue's rows with the peers' transactions this node checked but could not queue (`AdmittedTxs`)
   * merged in by age, at most `room`: the block takes the oldest waiting wherever they wait. The queue's own
   * order (key registrations first, then by expedite and age) stands among its rows; one waiting outside
   * goes before the rows of the ordinary rate it is older than.
   */
  private withWaitingOutside(queued: readonly RowOf<typeof QUEUED>[], room: number): PendingRow[] {
    const outside = this.admitted.oldestOutside(room);
    if (outside.length === 0) return [...queued];
    const queuedHashes = new Set(queued.map((row) => asBuffer(row.hash).toString('hex')));
    const merged: PendingRow[] = [];
    let next = 0;
    for (const row of queued) {
      while (
        next < outside.length &&
        Number(row.highRate) >= ORDINARY_RATE &&
        outside[next].timestampMs < BigInt(row.time)
      ) {
        const tx = outside[next++];
        if (!queuedHashes.has(tx.hash.toString('hex'))) merged.push(tx);
      }
      merged.push(row);
    }
    for (; next < outside.length; next++) {
      if (!queuedHashes.has(outside[next].hash.toString('hex'))) merged.push(outside[next]);
    }
    return merged.slice(0, room);
  }

  /**
   * Runs a received block's transactions, in its order, as its producer did: the caller compares what
   * comes out (every transaction included, the same journal digest) with what the block says. Nobody's
   * key is struck here: a bad block is its producer's fault, not its senders'.
   */
  replay(sql: Sql, context: BlockContext, txs: readonly PendingRow[]): Promise<ExecutedBlock> {
    return this.runAll(sql, context, txs);
  }

  private async runAll(
    sql: Sql,
    context: BlockContext,
    pending: readonly PendingRow[],
  ): Promise<ExecutedBlock> {
    if (pending.length === 0) return { included: [], failed: [], duplicates: [], journal: [] };
    const mined = await this.alreadyMined(
      sql,
      pending.map((row) => asBuffer(row.hash)),
    );
    let executed: ExecutedBlock | undefined;
    if (this.config.blockWriteBehind) executed = await this.runInMemory(sql, context, pending, mined);
    if (!executed) {
      const cache = new BlockCache(sql);
      executed = await this.execute(context, pending, mined, cache, () => new SavepointIsolation(sql));
    }
    return executed;
  }

  /** Drops the rows kept between blocks: a block that ran was then refused, and the database kept none of it. */
  forgetRows(): void {
    this.rows.clear();
  }

  /** The block made through the write-behind layer, or undefined when it had to be taken back. */
  private async runInMemory(
    sql: Sql,
    context: BlockContext,
    pending: readonly PendingRow[],
    mined: Set<string>,
  ): Promise<ExecutedBlock | undefined> {
    await this.rows.validate(sql);
    await sql.query('SAVEPOINT "block"');
    const registry = this.contracts.vm.registry.begin();
    const cache = new BlockCache(sql);
    const writeBehind = new WriteBehind(sql, this.rows, cache);
    try {
      const executed = await this.execute(context, pending, mined, cache, () => writeBehind);
      await writeBehind.flush();
      await sql.query('RELEASE SAVEPOINT "block"');
      this.contracts.vm.registry.commit(registry);
      return executed;
    } catch (error) {
      if (!(error instanceof WriteBehindFailure)) {
        this.rows.clear();
        throw error;
      }
      this.logger.warn(`block ${context.blockId} made again statement by statement: ${error.message}`);
      await sql.query('ROLLBACK TO SAVEPOINT "block"');
      this.contracts.vm.registry.rollback(registry);
      this.rows.clear();
      return undefined;
    }
  }

  private async execute(
    context: BlockContext,
    pending: readonly PendingRow[],
    mined: Set<string>,
    cache: BlockCache,
    isolation: () => TxIsolation,
  ): Promise<ExecutedBlock> {
    const { limits } = context;
    const executed: ExecutedBlock = { included: [], failed: [], duplicates: [], journal: [] };
    const started = Date.now();
    const perUser = new Map<bigint, number>();
    let size = 0;
    let fuel = 0;
    for (const row of pending) {
      const hash = asBuffer(row.hash);
      const hashHex = hash.toString('hex');
      if (mined.has(hashHex)) {
        executed.duplicates.push(hash);
        continue;
      }
      const running = (Date.now() - started) * (1 + (limits.writeShare ?? 0));
      if (running > limits.generationMs || fuel >= limits.fuelPerBlock) break;
      const stored = asBuffer(row.data);
      if (size + stored.length > limits.blockSize) break;
      let decoded = this.admitted.take(hashHex, stored);
      if (!decoded) {
        try {
          const envelope = decodeSmartContractEnvelope(stored);
          decoded = { tx: decodeSmartTransactionPayload(envelope.payload), timestampMs: envelope.timestamp };
        } catch (error) {
          executed.failed.push({ hash, keyId: 0n, error: (error as Error).message });
          continue;
        }
      }
      const { tx, timestampMs } = decoded;
      const count = perUser.get(tx.keyId) ?? 0;
      if (count >= limits.txPerUser) continue;
      if (timestampMs < context.time * 1000n - BigInt(TX_EXPIRY_MS)) {
        executed.failed.push({ hash, keyId: tx.keyId, error: 'Transaction processing time is expired' });
        continue;
      }
      const journal: JournalRecord[] = [];
      const outcome = await this.runOne(isolation(), context, tx, hash, cache, journal);
      if (outcome.error !== undefined) {
        executed.failed.push({ hash, keyId: tx.keyId, error: outcome.error });
        continue;
      }
      executed.journal.push(...journal);
      if (outcome.notices) executed.notices = mergeNotices(executed.notices, outcome.notices);
      perUser.set(tx.keyId, count + 1);
      size += stored.length;
      fuel += outcome.fuel;
      const included: IncludedTx = {
        hash,
        stored,
        result: outcome.result,
        contractName: outcome.contractName,
        keyId: tx.keyId,
        ecosystemId: tx.ecosystemId,
        timestampMs,
      };
      executed.included.push(included);
      context.onIncluded?.(included);
    }
    return executed;
  }

  private async runOne(
    isolation: TxIsolation,
    context: BlockContext,
    tx: SmartTransaction,
    hash: Buffer,
    cache: BlockCache,
    journal: JournalRecord[],
  ): Promise<{ result: string; contractName: string; fuel: number; error?: string; notices?: BlockNotices }> {
    const { sql } = isolation;
    const writeBehind = isolation instanceof WriteBehind ? isolation : undefined;
    await isolation.begin();
    try {
      let outcome: { result: string; contractName: string; fuel: number; notices?: BlockNotices };
      if (tx.transferSelf || tx.utxo) {
        outcome = { ...(await this.transfers.run(sql, tx, hash, context.blockId, journal, cache)), fuel: 0 };
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
          deadline: Date.now() + context.limits.txTimeMs,
          cache,
          writeBehind,
          journal,
        });
        outcome = {
          result: run.result,
          contractName: contract.key,
          fuel: run.fuelUsed,
          notices: run.notices,
        };
      }
      if (writeBehind?.failure) throw writeBehind.failure;
      await isolation.commit();
      return outcome;
    } catch (error) {
      // A queued write of an earlier transaction failed: the whole block is made again.
      if (writeBehind?.failure) throw writeBehind.failure;
      await isolation.rollback();
      // Its savepoint is rolled back: what the cache learnt during it may be gone from the database.
      if (!writeBehind) cache.reset();
      return { result: '', contractName: '', fuel: 0, error: toVmError(error).toJSONString() };
    }
  }

  private async alreadyMined(sql: Sql, hashes: Buffer[]): Promise<Set<string>> {
    const params: unknown[] = [];
    const rows = await sql.query<RowOf<typeof LOGGED_HASH>>(
      `${LOGGED} (${bindList(hashes, params)})`,
      params,
    );
    return new Set(rows.map((row) => asBuffer(row.hash).toString('hex')));
  }

  /** The block's transactions leave the queue, enter the log, and their statuses name the block. */
  async settle(sql: Sql, blockId: bigint, executed: ExecutedBlock): Promise<void> {
    // One array parameter per column (unnest), not one parameter per value: a block of thousands of
    // transactions would otherwise send statements of tens of thousands of parameters to be parsed.
    if (executed.included.length > 0) {
      const { included } = executed;
      await sql.query(LOG_INCLUDED, [
        blockId.toString(),
        included.map((tx) => tx.hash.toString('hex')),
        included.map((tx) => tx.timestampMs.toString()),
        included.map((tx) => tx.contractName),
        included.map((tx) => tx.keyId.toString()),
        included.map((tx) => tx.ecosystemId.toString()),
      ]);
      await sql.query(STATUS_INCLUDED, [
        blockId.toString(),
        included.map((tx) => tx.hash.toString('hex')),
        included.map((tx) => tx.result.slice(0, STATUS_ERROR_LENGTH)),
      ]);
    }
    await this.settleFailures(sql, executed);
  }

  /** Failed transactions report their error and leave the queue; duplicates just leave it. */
  async settleFailures(sql: Sql, executed: ExecutedBlock): Promise<void> {
    if (executed.failed.length > 0) {
      await sql.query(STATUS_FAILED, [
        executed.failed.map((tx) => tx.hash.toString('hex')),
        executed.failed.map((tx) => tx.error.slice(0, STATUS_ERROR_LENGTH)),
      ]);
    }
    const done = [
      ...executed.included.map((tx) => tx.hash),
      ...executed.failed.map((tx) => tx.hash),
      ...executed.duplicates,
    ];
    if (done.length === 0) return;
    await sql.query(DEQUEUE, [done.map((hash) => hash.toString('hex'))]);
  }
}

/** Two sets of requests as one. */
function mergeNotices(into: BlockNotices | undefined, more: BlockNotices): BlockNotices {
  const merged: BlockNotices = into ?? { accounts: new Map(), roles: new Map() };
  for (const [ecosystem, accounts] of more.accounts) {
    const known = merged.accounts.get(ecosystem) ?? new Set<string>();
    for (const account of accounts) known.add(account);
    merged.accounts.set(ecosystem, known);
  }
  for (const [ecosystem, roles] of more.roles) {
    const known = merged.roles.get(ecosystem) ?? new Set<bigint>();
    for (const role of roles) known.add(role);
    merged.roles.set(ecosystem, known);
  }
  return merged;
}

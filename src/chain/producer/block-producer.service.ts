import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { NodeStateService } from '../../common/node-state.service';
import { APP_CONFIG, type AppConfig } from '../../config';
import { ContractsService } from '../../contracts/contracts.service';
import { asBuffer, DatabaseService, type Sql } from '../../database/database.service';
import { publicKeyHex04 } from '../../crypto';
import { buildBlock, compressTxs } from '../codec';
import { BLOCK_VERSION } from '../genesis/genesis.service';
import { NodeCrypto } from '../node-crypto.service';
import { NodeIdentity } from '../node-identity.service';
import { parseHonorNodes, PlatformParametersService } from '../platform-parameters.service';
import { ChainEvents, type BlockNotices } from '../chain-events';
import { BlockExecutor, type BlockLimits, type ExecutedBlock } from './block-executor';
import { DelayedContracts } from './delayed-contracts';
import { nextSlotStart, slotAt, type SlotClock } from './slot-clock';
import { rollbacksHash, type JournalRecord } from './rollbacks-hash';
import { PrometheusMetrics } from '../../prometheus/prometheus-metrics';

/** The advisory-lock key that makes one process per database the producer ("IBAXPROD" in ASCII). */
export const PRODUCER_LOCK_KEY = 0x4942_4158_5052_4f44n;
/** How often a process without the producer lock tries to take it. */
const LOCK_RETRY_MS = 2_000;

export interface ProducedBlock {
  id: bigint;
  hash: Buffer;
  txCount: number;
  failed: number;
}

interface Tip {
  id: bigint;
  hash: Buffer;
  rollbacksHash: Buffer;
  time: bigint;
}

/**
 * Makes blocks: in each of this node's slots, when transactions wait, one database transaction takes a
 * batch, runs each transaction in isolation (BlockExecutor), and writes the block, its journal digest,
 * hash and signature, the transactions' log and statuses, and the new tip. A crash at any moment leaves
 * the whole block or none of it. Only the process holding the chain's producer lock makes blocks.
 */
@Injectable()
export class BlockProducer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Producer');
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private lockHolder?: QueryRunner;
  private holdsLock = false;
  private producing?: Promise<ProducedBlock | undefined>;
  private clock?: SlotClock;
  private position = 0;
  private wakeRequested = false;
  private ticking = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
    private readonly parameters: PlatformParametersService,
    private readonly executor: BlockExecutor,
    private readonly delayed: DelayedContracts,
    private readonly events: ChainEvents,
    private readonly nodeState: NodeStateService,
    private readonly metrics: PrometheusMetrics,
  ) {}

  get isProducer(): boolean {
    return this.holdsLock;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.blockProducer || this.config.nodeMode === 'clb') return;
    await this.tryTakeLock();
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /**
   * Makes no further block and waits for the one being made, at most `timeoutMs` (a block that takes
   * longer is cut off when the database closes; its transaction then writes nothing). Returns whether
   * the producer stopped between blocks.
   */
  async stop(timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const current = this.producing?.catch(() => undefined);
    if (current) {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        current.then(() => true),
        new Promise<boolean>((resolve) => {
          if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) {
        this.logger.warn(`the block under way did not finish within ${timeoutMs} ms`);
        return false;
      }
    }
    if (this.lockHolder) {
      await this.lockHolder.release().catch(() => undefined);
      this.lockHolder = undefined;
    }
    return true;
  }

  /**
   * Asks for a block as soon as this node's slot allows: newly queued transactions (and a login waiting
   * for its registration) need not wait for the next look at the queue.
   */
  requestBlock(): void {
    this.wakeRequested = true;
    // A tick under way looks at the flag when it ends; starting another now would run two at once.
    if (this.holdsLock && !this.ticking) this.schedule(0);
  }

  /**
   * On PostgreSQL a session-level advisory lock held on a connection of its own: it goes with the
   * process, so another process takes over when this one dies. The embedded database belongs to one
   * process by nature.
   */
  private async tryTakeLock(): Promise<void> {
    if (this.holdsLock) return;
    if (!this.config.databaseUrl) {
      this.holdsLock = true;
      return;
    }
    const runner = this.lockHolder ?? this.db.dataSource.createQueryRunner();
    this.lockHolder = runner;
    try {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS "locked"', [
        PRODUCER_LOCK_KEY.toString(),
      ])) as { locked: boolean }[];
      this.holdsLock = row?.locked === true;
      if (this.holdsLock) this.logger.log('this process produces the blocks');
      else await runner.release();
      if (!this.holdsLock) this.lockHolder = undefined;
    } catch (error) {
      this.logger.warn(`cannot take the producer lock: ${(error as Error).message}`);
      this.lockHolder = undefined;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      await this.tickOnce();
    } finally {
      this.ticking = false;
    }
  }

  private async tickOnce(): Promise<void> {
    if (!this.holdsLock) {
      await this.tryTakeLock();
      this.schedule(this.holdsLock ? 0 : LOCK_RETRY_MS);
      return;
    }
    let delay = 1_000;
    // A request arriving from here on asks for another look once this one ends.
    this.wakeRequested = false;
    try {
      const clock = await this.slotClock();
      const now = Date.now();
      const slot = slotAt(clock, now);
      const ours = slot % clock.nodes === this.position;
      let produced = false;
      if (ours && this.nodeState.state === 'running' && !this.stopped) {
        this.producing = this.produce();
        produced = (await this.producing) !== undefined;
      }
      // In its slot the node makes blocks one after another while transactions wait: a transaction waits
      // for the block under way, not for the next slot, and under load blocks stay as large as what
      // arrived while the last one was made. With nothing waiting it looks again within the slot (a
      // sendTx asks at once), or at its next slot.
      if (produced) delay = 0;
      else if (ours)
        delay = Math.min(
          nextSlotStart(clock, Date.now(), this.position) - Date.now(),
          Math.max(50, clock.slotMs / 4),
        );
      else delay = nextSlotStart(clock, Date.now(), this.position) - Date.now();
    } catch (error) {
      this.logger.error(`block production failed: ${(error as Error).message}`);
    } finally {
      this.producing = undefined;
    }
    this.schedule(this.wakeRequested ? 0 : delay);
  }

  /** Slot length and this node's position, from the platform parameters (re-read: contracts change them). */
  private async slotClock(): Promise<SlotClock> {
    if (!this.clock) {
      const first = await this.db.one<{ time: string }>(`SELECT "time" FROM "block_chain" WHERE "id" = 1`);
      this.clock = { startMs: Number(first?.time ?? 0) * 1000, slotMs: 4_000, nodes: 1 };
    }
    const values = await this.parameters.values([
      'max_block_generation_time',
      'gap_between_blocks',
      'honor_nodes',
    ]);
    const generation = Number(values.get('max_block_generation_time') ?? 2000);
    const gap = Number(values.get('gap_between_blocks') ?? 2);
    this.clock.slotMs = this.config.blockSlotMs ?? Math.max(1, generation + gap * 1000);
    const honor = parseHonorNodes(values.get('honor_nodes') ?? '').filter((node) => !node.stopped);
    const ours = publicKeyHex04(this.identity.keys.node.publicKey).toLowerCase();
    const index = honor.findIndex(
      (node) => node.public_key.toLowerCase() === ours || `04${node.public_key.toLowerCase()}` === ours,
    );
    this.clock.nodes = Math.max(1, honor.length);
    this.position = Math.max(0, index);
    return this.clock;
  }

  /**
   * Makes one block from the waiting transactions and the delayed contracts due in it, or nothing when there
   * are neither.
   */
  async produce(): Promise<ProducedBlock | undefined> {
    // Most ticks find nothing to do: ask before opening a block's transaction.
    const waiting = await this.db.one(
      `SELECT 1 FROM "transactions" WHERE "used" = 0 AND "verified" = 1 LIMIT 1`,
    );
    if (!waiting && !(await this.delayed.dueAfterTip(this.db))) return undefined;
    const started = performance.now();
    let changedPlatformParameters = false;
    let notices: BlockNotices | undefined;
    const { block, failed } = await this.contracts.transaction(async (sql) => {
      const tip = await this.tip(sql);
      const limits = await this.limits(sql);
      const blockId = tip.id + 1n;
      const nowSeconds = BigInt(Math.floor(Date.now() / 1000));
      const time = nowSeconds > tip.time ? nowSeconds : tip.time;
      const started = Date.now();
      const calls = await this.delayed.calls(sql, blockId, time);
      const executed = await this.executor.run(
        sql,
        {
          blockId,
          time,
          keyId: this.identity.keys.founder.keyId,
          nodePosition: BigInt(this.position),
          limits,
        },
        calls,
      );
      this.reportFailedCalls(blockId, calls, executed);
      if (executed.included.length === 0) {
        await this.executor.settleFailures(sql, executed);
        return { block: undefined, failed: executed.failed.length };
      }
      const ran = Date.now();
      // The VM's prices are platform parameters: read again once the block that changed them is written.
      changedPlatformParameters = executed.journal.some(
        (record) => record.table_name === '1_platform_parameters',
      );
      const block = await this.writeBlock(sql, tip, blockId, time, executed);
      notices = executed.notices;
      await this.events.announce(sql, { kind: 'block', height: blockId });
      this.logger.debug(
        `block ${blockId}: ${executed.included.length} transactions, ${executed.failed.length} failed; ` +
          `ran in ${ran - started} ms, written in ${Date.now() - ran} ms`,
      );
      return { block, failed: block.failed };
    });
    // Counted only once committed: a batch rolled back returns to the queue and is taken again.
    this.metrics.transactionsSettled(block?.txCount ?? 0, failed);
    if (block) {
      this.events.publish({ kind: 'block', height: block.id, notices });
      this.metrics.blockProduced((performance.now() - started) / 1000);
      if (changedPlatformParameters) await this.contracts.loadPrices();
    }
    return block;
  }

  /** A delayed contract whose call failed is not retried before it is due again: the operator should know. */
  private reportFailedCalls(
    blockId: bigint,
    calls: readonly { hash: Buffer }[],
    executed: ExecutedBlock,
  ): void {
    if (calls.length === 0) return;
    const ours = new Set(calls.map((call) => call.hash.toString('hex')));
    for (const failed of executed.failed) {
      if (ours.has(failed.hash.toString('hex'))) {
        this.logger.warn(`block ${blockId}: a delayed contract call failed: ${failed.error}`);
      }
    }
  }

  private async tip(sql: Sql): Promise<Tip> {
    const row = await sql.one<{ block_id: string; hash: unknown; rollbacks_hash: unknown; time: string }>(
      `SELECT "block_id", "hash", "rollbacks_hash", "time" FROM "info_block" LIMIT 1 FOR UPDATE`,
    );
    if (!row) throw new Error('the chain has no genesis block');
    return {
      id: BigInt(row.block_id),
      hash: asBuffer(row.hash),
      rollbacksHash: asBuffer(row.rollbacks_hash),
      time: BigInt(row.time),
    };
  }

  private async limits(sql: Sql): Promise<BlockLimits> {
    const values = await this.parameters.values(
      [
        'max_tx_block',
        'max_tx_block_per_user',
        'max_block_size',
        'max_fuel_tx',
        'max_fuel_block',
        'max_block_generation_time',
      ],
      sql,
    );
    const value = (name: string, fallback: number) => {
      const found = Number(values.get(name));
      return Number.isFinite(found) && found > 0 ? found : fallback;
    };
    const generationMs = value('max_block_generation_time', 2000);
    return {
      txPerBlock: value('max_tx_block', 5000),
      txPerUser: value('max_tx_block_per_user', 5000),
      blockSize: value('max_block_size', 67_108_864),
      fuelPerTx: value('max_fuel_tx', 20_000_000),
      fuelPerBlock: value('max_fuel_block', 200_000_000),
      // A slot shorter than the generation time bounds the work of a block too (not the limit of the
      // transaction under way, which is the platform's, as in the reference).
      generationMs: Math.min(generationMs, this.config.blockSlotMs ?? generationMs),
      txTimeMs: generationMs,
    };
  }

  /** The block's journal in bulk, in the order its transactions made it (the ids keep that order). */
  /** The block's journal in bulk, in the order its transactions made it (the ids keep that order). */
  private async writeJournal(sql: Sql, blockId: bigint, records: readonly JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    await sql.query(
      `INSERT INTO "rollback_tx" ("block_id", "tx_hash", "table_name", "table_id", "data")
       SELECT $1, decode("v"."hash", 'hex'), "v"."table", "v"."key", "v"."data"
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS "v"("hash", "table", "key", "data", "n")
        ORDER BY "v"."n"`,
      [
        blockId.toString(),
        records.map((record) => record.tx_hash.toString('hex')),
        records.map((record) => record.table_name),
        records.map((record) => record.table_id),
        records.map((record) => record.data),
      ],
    );
  }

  private async writeBlock(
    sql: Sql,
    tip: Tip,
    blockId: bigint,
    time: bigint,
    executed: ExecutedBlock,
  ): Promise<ProducedBlock> {
    const hasher = this.crypto.hasher;
    const records = executed.journal;
    await this.writeJournal(sql, blockId, records);
    const digest = rollbacksHash(blockId, records, hasher);
    const built = buildBlock({
      header: {
        blockId,
        timestamp: time,
        ecosystemId: 0n,
        keyId: this.identity.keys.founder.keyId,
        nodePosition: BigInt(this.position),
        version: BLOCK_VERSION,
        consensusMode: 1,
        candidateNodes: new Uint8Array(),
        networkId: this.config.networkId,
      },
      prevHeader: { blockId: tip.id, blockHash: tip.hash, rollbacksHash: tip.rollbacksHash },
      txs: executed.included.map((tx) => tx.stored),
      compressedTxs: await compressTxs(executed.included.map((tx) => tx.stored)),
      rollbacksHash: digest,
      hash: (data) => hasher.hash(data),
      sign: (message) => this.crypto.signer.sign(this.identity.keys.node.privateKey, message),
    });
    const hash = Buffer.from(built.blockHash);
    const keyId = this.identity.keys.founder.keyId.toString();
    await sql.query(
      `INSERT INTO "block_chain" ("id", "hash", "rollbacks_hash", "data", "ecosystem_id", "key_id", "node_position", "time", "tx", "consensus_mode")
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, 1)`,
      [
        blockId.toString(),
        hash,
        Buffer.from(digest),
        Buffer.from(built.bytes),
        keyId,
        String(this.position),
        time.toString(),
        executed.included.length,
      ],
    );
    await sql.query(
      `UPDATE "info_block" SET "hash" = $1, "rollbacks_hash" = $2, "block_id" = $3, "node_position" = $4,
         "key_id" = $5, "time" = $6, "sent" = 0`,
      [hash, Buffer.from(digest), blockId.toString(), String(this.position), keyId, time.toString()],
    );
    await this.executor.settle(sql, blockId, executed);
    return { id: blockId, hash, txCount: executed.included.length, failed: executed.failed.length };
  }
}

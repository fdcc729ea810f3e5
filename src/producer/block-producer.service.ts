import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { NodeStateService } from '../common/node-state.service';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { asBuffer, DatabaseService, type Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { buildBlock, compressTxLater } from '../chain/codec';
import { BLOCK_VERSION } from '../genesis/genesis.service';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { ChainLock } from '../chain/chain-lock';
import type { ProductionTurn } from '../consensus/consensus-core';
import { Finality } from '../chain/finality.service';
import { storeBlock } from './block-store';
import { ChainEvents, type BlockNotices } from '../chain/chain-events';
import { BlockExecutor, RUNNABLE_TXS, type BlockLimits, type ExecutedBlock } from './block-executor';
import { DelayedContracts } from './delayed-contracts';
import { rollbacksHash } from './rollbacks-hash';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';

/** The advisory-lock key that makes one process per database the producer ("IBAXPROD" in ASCII). */
export const PRODUCER_LOCK_KEY = 0x4942_4158_5052_4f44n;
/** How often a process without the producer lock tries to take it. */
const LOCK_RETRY_MS = 2_000;

/** Whether any transaction waits to be run. */
const ANY_WAITING = `SELECT 1 FROM ${RUNNABLE_TXS} LIMIT 1`;
const TIP_TABLE = new EntityTable(InfoBlockEntity);
const TIP_ROW = TIP_TABLE.select('blockId', 'hash', 'rollbacksHash', 'time');
const TIP = `SELECT ${TIP_ROW} FROM ${TIP_TABLE.name} LIMIT 1`;
const LOCKED_TIP = `${TIP} FOR UPDATE`;

export interface ProducedBlock {
  id: bigint;
  hash: Buffer;
  prevHash: Buffer;
  /** Unix seconds. */
  time: bigint;
  txCount: number;
  failed: number;
}

export interface Tip {
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
  /** This node's place among the voters (the consensus core's); -1 when it is not one of them (no block). */
  private get position(): number {
    return this.finality.position ?? -1;
  }

  /** Whether this node is among the active honor nodes; a follower is not. */
  get isHonorNode(): boolean {
    return this.position >= 0;
  }
  private notListedLogged = false;
  private spoilNext = false;
  private wakeRequested = false;
  private ticking = false;
  /** Writing a block against running it, lately (see {@link learnWriteShare}). */
  private writeShare = 0;

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
    private readonly lock: ChainLock,
    private readonly finality: Finality,
  ) {}

  get isProducer(): boolean {
    return this.holdsLock;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.blockProducer || this.config.nodeMode === 'clb') return;
    // The previous slot's block, taken while this node waited for it, opens the turn: look at once.
    this.finality.onTurn(() => this.requestBlock());
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
      await this.finality.start();
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
      if (this.holdsLock) await this.finality.start();
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
    let lookAgainAt = Date.now() + 1_000;
    // A request arriving from here on asks for another look once this one ends.
    this.wakeRequested = false;
    try {
      this.logWhenNotListed();
      // Whose slot it is, how much of it is left, and whether this node's chain is the one to build on:
      // the consensus core decides.
      const turn = this.finality.turn();
      let produced = false;
      if (turn && this.nodeState.state === 'running' && !this.stopped && !this.lock.behindPeers) {
        this.producing = this.produce(turn);
        produced = (await this.producing) !== undefined;
      }
      // In its slot the node makes blocks one after another while transactions wait: a transaction waits
      // for the block under way, not for the next slot, and under load blocks stay as large as what
      // arrived while the last one was made. With nothing waiting it looks again within the slot (a
      // sendTx asks at once), or at its next slot.
      lookAgainAt = produced ? Date.now() : this.finality.nextLookAt();
    } catch (error) {
      this.logger.error(`block production failed: ${(error as Error).message}`);
    } finally {
      this.producing = undefined;
    }
    this.schedule(this.wakeRequested ? 0 : lookAgainAt - Date.now());
  }

  private logWhenNotListed(): void {
    const notListed = this.finality.position === -1;
    if (notListed && !this.notListedLogged) {
      this.logger.log('this node is not an active honor node: it makes no blocks');
    }
    this.notListedLogged = notListed;
  }

  /** Tests only (NETWORK_TEST_SWITCHES): the next block gets a wrong rollbacks hash, as a faulty node's would. */
  spoilNextBlock(): void {
    this.spoilNext = true;
  }

  /**
   * Makes one block from the waiting transactions and the delayed contracts due in it, or nothing when there
   * are neither.
   */
  async produce(turn: ProductionTurn): Promise<ProducedBlock | undefined> {
    // Most ticks find nothing to do: ask before opening a block's transaction.
    const waiting = await this.db.one(ANY_WAITING);
    if (!waiting && !(await this.delayed.dueAfterTip(this.db))) return undefined;
    return this.lock.run(() => this.produceNow(turn));
  }

  private async produceNow(turn: ProductionTurn): Promise<ProducedBlock | undefined> {
    const started = performance.now();
    let changedPlatformParameters = false;
    let notices: BlockNotices | undefined;
    let txHashes: Buffer[] = [];
    const { block, failed } = await this.contracts.transaction(async (sql) => {
      const tip = await this.tip(sql);
      const nowSeconds = BigInt(Math.floor(Date.now() / 1000));
      const time = nowSeconds > tip.time ? nowSeconds : tip.time;
      // A block stamped with another node's slot (a tip from a clock ahead of ours) would be refused.
      if (!this.finality.stampsOwnSlot(time)) return { block: undefined, failed: 0 };
      const limits = await this.limits(sql);
      if (Number.isFinite(turn.buildEndsAtMs)) {
        // With other nodes a leader runs transactions in the first BLOCK_BUILD_SHARE of its slot only: the
        // rest is for its blocks to reach its peers and be run there (as long again on a peer as fast)
        // before the next leader builds on them, not beside them.
        limits.generationMs = Math.max(0, Math.min(limits.generationMs, turn.buildEndsAtMs - Date.now()));
        // Writing the block is part of making it: a block run for the whole share and then written
        // reached its peers late, and the next leader built beside it.
        limits.writeShare = this.writeShare;
      }
      const blockId = tip.id + 1n;
      const started = Date.now();
      const calls = await this.delayed.calls(sql, blockId, time);
      // Each transaction the block takes is compressed on another thread while the rest run.
      const compressed = new Map<Buffer, Promise<Uint8Array>>();
      const executed = await this.executor.run(
        sql,
        {
          blockId,
          time,
          keyId: this.identity.keys.owner.keyId,
          nodePosition: BigInt(this.position),
          limits,
          onIncluded: (tx) => compressed.set(tx.stored, compressTxLater(tx.stored)),
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
      const block = await this.writeBlock(sql, tip, blockId, time, executed, compressed);
      this.learnWriteShare(ran - started, Date.now() - ran);
      notices = executed.notices;
      txHashes = executed.included.map((tx) => tx.hash);
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
      this.events.publish({
        kind: 'block',
        height: block.id,
        notices,
        produced: {
          hash: block.hash,
          prevHash: block.prevHash,
          time: block.time,
          position: this.position,
          txHashes,
          committedAtMs: Date.now(),
        },
      });
      this.metrics.blockProduced((performance.now() - started) / 1000);
      if (changedPlatformParameters) await this.contracts.loadPrices();
    }
    return block;
  }

  /**
   * Writing grows with what ran (rows, statuses, the journal) as running does: their ratio, unlike a cost
   * per transaction, does not make a small block look expensive. A moving average, so that one slow write
   * (a checkpoint, a busy disk) moves it only a little; at most 2, so one stall cannot shut a slot.
   */
  private learnWriteShare(ranMs: number, writtenMs: number): void {
    const share = Math.min(2, writtenMs / Math.max(1, ranMs));
    this.writeShare = this.writeShare === 0 ? share : 0.7 * this.writeShare + 0.3 * share;
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

  /**
   * The last block. `lock` (in a block's transaction) holds the row until it commits; a read from
   * outside one (a peer's question, a look before a sync) must not wait for the block under way.
   */
  async tip(sql: Sql, lock = true): Promise<Tip> {
    const row = await sql.one<RowOf<typeof TIP_ROW>>(lock ? LOCKED_TIP : TIP);
    if (!row) throw new Error('the chain has no genesis block');
    return {
      id: BigInt(row.blockId),
      hash: asBuffer(row.hash),
      rollbacksHash: asBuffer(row.rollbacksHash),
      time: BigInt(row.time),
    };
  }

  async limits(sql: Sql): Promise<BlockLimits> {
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

  private async writeBlock(
    sql: Sql,
    tip: Tip,
    blockId: bigint,
    time: bigint,
    executed: ExecutedBlock,
    compressed: ReadonlyMap<Buffer, Promise<Uint8Array>>,
  ): Promise<ProducedBlock> {
    const hasher = this.crypto.hasher;
    const digest = rollbacksHash(blockId, executed.journal, hasher);
    if (this.spoilNext) {
      this.spoilNext = false;
      digest[0] ^= 0xff;
      this.logger.warn(`block ${blockId} is made with a wrong rollbacks hash (NETWORK_TEST_SWITCHES)`);
    }
    const built = buildBlock({
      header: {
        blockId,
        timestamp: time,
        ecosystemId: 0n,
        keyId: this.identity.keys.owner.keyId,
        nodePosition: BigInt(this.position),
        version: BLOCK_VERSION,
        consensusMode: 1,
        candidateNodes: new Uint8Array(),
        networkId: this.config.networkId,
      },
      prevHeader: { blockId: tip.id, blockHash: tip.hash, rollbacksHash: tip.rollbacksHash },
      txs: executed.included.map((tx) => tx.stored),
      compressedTxs: await Promise.all(
        executed.included.map((tx) => compressed.get(tx.stored) ?? compressTxLater(tx.stored)),
      ),
      rollbacksHash: digest,
      hash: (data) => hasher.hash(data),
      sign: (message) => this.crypto.signer.sign(this.identity.keys.node.privateKey, message),
    });
    const hash = Buffer.from(built.blockHash);
    await storeBlock(sql, this.executor, {
      id: blockId,
      hash,
      rollbacksHash: Buffer.from(digest),
      bytes: Buffer.from(built.bytes),
      keyId: this.identity.keys.owner.keyId,
      position: BigInt(this.position),
      time,
      executed,
    });
    return {
      id: blockId,
      hash,
      prevHash: tip.hash,
      time,
      txCount: executed.included.length,
      failed: executed.failed.length,
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, type AppConfig } from '../config';
import { ChainEvents } from '../chain/chain-events';
import { slotLengthMs, SLOT_PARAMETERS } from '../chain/honor-nodes';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { DatabaseService } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { TransactionEntity } from './entities/transaction.entity';

/** What a batch of transactions adds to the queue. */
export interface QueuedShare {
  bytes: number;
  keyId: bigint;
}

/** The queue as last read, and what this process added since. */
interface QueueLevel {
  count: number;
  bytes: number;
  /** How many transactions may wait now (see {@link TxQueueBound.countBound}). */
  countBound: number;
  /** When the oldest transaction waiting entered the queue (Unix ms), none waiting: undefined. */
  oldestQueuedAtMs?: number;
  /** How long the oldest may have waited before clients are refused (see {@link TxQueueBound.tooOld}). */
  longestWaitMs: number;
  readAtMs: number;
}

/** A level this old is read again before a batch is let in; a block's commit makes it old at once. */
const LEVEL_MAX_AGE_MS = 200;

const QUEUE = new EntityTable(TransactionEntity);
const BLOCKS = new EntityTable(BlockEntity);
const WAITING = `${QUEUE.name} WHERE ${QUEUE.column('used')} = 0`;
/** The waiting transactions: how many, their bytes, and when the oldest was queued. */
const QUEUE_LEVEL = `SELECT count(*) AS "count", coalesce(sum(octet_length(${QUEUE.column('data')})), 0) AS "bytes",
    min(${QUEUE.column('queuedAt')}) AS "oldest"
  FROM ${WAITING}`;
/** Transactions mined in the last 1,000 blocks stamped after $1 (seconds); `select` names them tx and time. */
const MINED_SINCE = `SELECT sum("recent"."tx") AS "mined"
  FROM (SELECT ${BLOCKS.select('tx', 'time')} FROM ${BLOCKS.name} ORDER BY ${BLOCKS.qualified('id')} DESC LIMIT 1000) AS "recent"
  WHERE "recent"."time" > $1`;
/** Waiting transactions of the keys in $1, by key. */
const WAITING_PER_KEY = `SELECT ${QUEUE.column('keyId')} AS "key", count(*) AS "count" FROM ${WAITING}
  AND ${QUEUE.column('keyId')} = ANY($1::bigint[]) GROUP BY ${QUEUE.column('keyId')}`;
/** How far back the chain's pace is taken, in slots: long enough that whole-second block times even out. */
const PACE_WINDOW_SLOTS = 10;
/**
 * The count bound never falls below this share of TX_QUEUE_LIMIT: a chain that was quiet mined little
 * lately, and must still take a burst while its pace picks up.
 */
const QUIET_CHAIN_SHARE = 0.2;

/**
 * Back-pressure: the transactions admitted and not yet in a block are bounded (TX_QUEUE_LIMIT,
 * TX_QUEUE_BYTES, and TX_QUEUE_PER_KEY for one key). The count bound also follows the chain's pace: no
 * more than it mined lately in TX_QUEUE_SLOTS slots may wait, so that what is accepted is mined within
 * about that many slots whether one node makes the blocks or a network that mines less; and clients are
 * refused while the oldest transaction waiting has been queued longer than that ({@link tooOld}). A batch
 * that would pass a bound is refused whole, before anything is stored, with E_BUSY (503 and Retry-After on
 * REST, -32000 on JSON-RPC): the client sends it again later instead of the node queueing more than it can
 * mine. Transactions passed on by peers are cut to what still fits; those a fork puts back in the queue
 * were admitted once and are never refused.
 *
 * The level is read from the database (the truth across the processes sharing it) at most every
 * {@link LEVEL_MAX_AGE_MS} ms and after each block, and what this process lets in meanwhile is counted at
 * once, in the same turn of the event loop as the check, so concurrent requests cannot pass a bound together.
 */
@Injectable()
export class TxQueueBound {
  private level?: QueueLevel;
  private reading?: Promise<QueueLevel>;
  /** Reserved and not yet committed to the queue. */
  private pending = { count: 0, bytes: 0 };
  /** Committed by this process since the level was read (not in it). */
  private committed = { count: 0, bytes: 0 };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly parameters: PlatformParametersService,
    events: ChainEvents,
  ) {
    events.subscribe(() => {
      if (this.level) this.level.readAtMs = 0;
    });
  }

  /**
   * Takes room for `batch` or throws E_BUSY; the room is the batch's until {@link settle} (queued) or
   * {@link release} (not queued after all).
   */
  async reserve(batch: readonly QueuedShare[]): Promise<void> {
    const level = await this.currentLevel();
    // One key cannot hold more than the whole queue: below the per-key bound there is nothing to count.
    const mayPassPerKey = this.waiting(level).count + batch.length > this.config.txQueue.perKey;
    const perKey = mayPassPerKey
      ? await this.queuedPerKey([...new Set(batch.map((tx) => tx.keyId))])
      : new Map<bigint, number>();
    // The check and the reservation are one step: nothing awaits between them.
    const problem = this.overflow(level, batch, perKey);
    if (problem) throw await this.busy(problem);
    this.add(this.pending, batch, 1);
  }

  /**
   * Throws E_BUSY when `count` more transactions cannot fit by count or bytes now: asked before the batch's
   * signatures are checked, so that a full node does not spend its time on transactions it refuses.
   * Reserves nothing ({@link reserve} decides, per key too, once they are admitted).
   */
  async refuseWhenFull(count: number, bytes: number): Promise<void> {
    const level = await this.currentLevel();
    const problem = this.tooOld(level) ?? this.sizeOverflow(level, count, bytes);
    if (problem) throw await this.busy(problem);
  }

  /** How many of `batch` (in order) fit now; those are reserved. For transactions passed on by peers. */
  async reserveWhatFits(batch: readonly QueuedShare[]): Promise<number> {
    const level = await this.currentLevel();
    const bound = this.config.txQueue;
    const waiting = this.waiting(level);
    let bytes = waiting.bytes;
    let fitting = 0;
    for (const tx of batch) {
      if (waiting.count + fitting + 1 > level.countBound || bytes + tx.bytes > bound.bytes) break;
      bytes += tx.bytes;
      fitting++;
    }
    this.add(this.pending, batch.slice(0, fitting), 1);
    return fitting;
  }

  /** A reservation whose transactions are committed to the queue. */
  settle(batch: readonly QueuedShare[]): void {
    this.add(this.pending, batch, -1);
    this.add(this.committed, batch, 1);
  }

  /** A reservation not used (the batch was not queued). */
  release(batch: readonly QueuedShare[]): void {
    this.add(this.pending, batch, -1);
  }

  private overflow(
    level: QueueLevel,
    batch: readonly QueuedShare[],
    perKey: Map<bigint, number>,
  ): string | undefined {
    const bound = this.config.txQueue;
    const bytes = batch.reduce((sum, tx) => sum + tx.bytes, 0);
    const problem = this.tooOld(level) ?? this.sizeOverflow(level, batch.length, bytes);
    if (problem) return problem;
    const own = new Map<bigint, number>();
    for (const tx of batch) own.set(tx.keyId, (own.get(tx.keyId) ?? 0) + 1);
    for (const [key, count] of own) {
      const queued = perKey.get(key) ?? 0;
      if (queued + count > bound.perKey) {
        return `key ${key} has ${queued} transactions waiting and sends ${count} (at most ${bound.perKey})`;
      }
    }
    return undefined;
  }

  /**
   * Whether the oldest transaction waiting has waited longer than TX_QUEUE_SLOTS slots: the chain is not
   * mining what it accepted within the time the bound promises, whatever the count says. The count bound
   * follows the pace the chain had; this follows the wait itself, and so holds where the pace misleads (a
   * chain whose pace falls, a fifth of TX_QUEUE_LIMIT on a network that mines less, several nodes each
   * holding a bound's worth). Clients only: a peer's transactions that do not fit wait outside the queue.
   */
  private tooOld(level: QueueLevel): string | undefined {
    if (level.oldestQueuedAtMs === undefined) return undefined;
    const waited = Date.now() - level.oldestQueuedAtMs;
    if (waited <= level.longestWaitMs) return undefined;
    return `a transaction has waited ${waited} ms for a block (at most ${level.longestWaitMs})`;
  }

  /** Whether `count` more transactions of `bytes` would pass the count or the bytes bound. */
  private sizeOverflow(level: QueueLevel, count: number, bytes: number): string | undefined {
    const waiting = this.waiting(level);
    if (waiting.count + count > level.countBound) {
      return `${waiting.count} transactions wait for a block (at most ${level.countBound})`;
    }
    const most = this.config.txQueue.bytes;
    if (waiting.bytes + bytes > most) {
      return `the transactions waiting for a block hold ${waiting.bytes} bytes (at most ${most})`;
    }
    return undefined;
  }

  private waiting(level: QueueLevel): { count: number; bytes: number } {
    return {
      count: level.count + this.committed.count + this.pending.count,
      bytes: level.bytes + this.committed.bytes + this.pending.bytes,
    };
  }

  private add(into: { count: number; bytes: number }, batch: readonly QueuedShare[], sign: 1 | -1): void {
    into.count = Math.max(0, into.count + sign * batch.length);
    into.bytes = Math.max(0, into.bytes + sign * batch.reduce((sum, tx) => sum + tx.bytes, 0));
  }

  private async currentLevel(): Promise<QueueLevel> {
    if (this.level && Date.now() - this.level.readAtMs < LEVEL_MAX_AGE_MS) return this.level;
    this.reading ??= this.readLevel().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** The queue's level from the database: what this process committed before the read is in it now. */
  private async readLevel(): Promise<QueueLevel> {
    const before = { ...this.committed };
    const row = await this.db.one<{ count: string; bytes: string; oldest: string | null }>(QUEUE_LEVEL);
    const { slots } = this.config.txQueue;
    const slotMs = slotLengthMs(await this.parameters.values(SLOT_PARAMETERS), this.config.blockSlotMs);
    this.committed.count = Math.max(0, this.committed.count - before.count);
    this.committed.bytes = Math.max(0, this.committed.bytes - before.bytes);
    this.level = {
      count: Number(row?.count ?? 0),
      bytes: Number(row?.bytes ?? 0),
      countBound: await this.countBound(slotMs),
      oldestQueuedAtMs: row?.oldest == null ? undefined : Number(row.oldest),
      longestWaitMs: slots === 0 ? Number.POSITIVE_INFINITY : slots * slotMs,
      readAtMs: Date.now(),
    };
    return this.level;
  }

  /**
   * TX_QUEUE_LIMIT, or what the chain mined in TX_QUEUE_SLOTS slots on average over its last
   * {@link PACE_WINDOW_SLOTS} when that is less (never below {@link QUIET_CHAIN_SHARE} of TX_QUEUE_LIMIT,
   * which lets a chain that just went from quiet to busy take a burst while its pace picks up).
   * A fixed bound let three nodes that mine a third of what one node does queue as much: what they
   * accepted waited 40 s. The mean, not the most in any few slots: blocks come unevenly under load (one
   * second may stamp two large blocks), and the most let the queue hold about twice the mean's wait.
   */
  private async countBound(slotMs: number): Promise<number> {
    const { count, slots } = this.config.txQueue;
    if (slots === 0) return count;
    const floor = Math.ceil(count * QUIET_CHAIN_SHARE);
    // Blocks carry whole seconds: the pace is read over whole seconds.
    const windowS = Math.max(1, Math.round((PACE_WINDOW_SLOTS * slotMs) / 1000));
    const nowS = Math.floor(Date.now() / 1000);
    const row = await this.db.one<{ mined: string | null }>(MINED_SINCE, [nowS - windowS]);
    const perSecond = Number(row?.mined ?? 0) / windowS;
    const pace = Math.ceil((perSecond * slots * slotMs) / 1000);
    return Math.min(count, Math.max(floor, pace));
  }

  private async queuedPerKey(keys: readonly bigint[]): Promise<Map<bigint, number>> {
    const rows = await this.db.query<{ key: string; count: string }>(WAITING_PER_KEY, [keys.map(String)]);
    return new Map(rows.map((row) => [BigInt(row.key), Number(row.count)]));
  }

  /** E_BUSY, to be tried again after a slot: by then a block has taken some of the queue. */
  private async busy(why: string): Promise<ApiError> {
    const slotMs = slotLengthMs(await this.parameters.values(SLOT_PARAMETERS), this.config.blockSlotMs);
    const seconds = Math.max(1, Math.ceil(slotMs / 1000));
    return new ApiError('E_BUSY', why, seconds).retryAfter(seconds);
  }
}

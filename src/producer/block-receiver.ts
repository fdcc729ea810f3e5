import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { DatabaseService, type Sql } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { ChainEvents } from '../chain/chain-events';
import { ChainLock } from '../chain/chain-lock';
import {
  asciiBytes,
  bytesEqual,
  bytesOfHex,
  decodeSmartContractEnvelope,
  forSign,
  hexOf,
  parseBlock,
  verifyBlockHashes,
  type ParsedBlock,
} from '../chain/codec';
import { BLOCK_VERSION } from '../genesis/genesis.service';
import {
  activeHonorNodes,
  agreedSlotMs,
  bareKey,
  SLOT_PARAMETERS,
  slotAt,
  slotLengthMs,
  type SlotClock,
} from '../chain/honor-nodes';
import { NodeCrypto } from '../chain/node-crypto.service';
import { headerProblemIn } from '../consensus/consensus-core';
import { parseHonorNodes, PlatformParametersService } from '../chain/platform-parameters.service';
import { BlockExecutor } from './block-executor';
import { BlockProducer } from './block-producer.service';
import { storeBlock } from './block-store';
import { rollbacksHash } from './rollbacks-hash';

/** How far ahead of this node's clock a block's time may be (whole seconds, and clocks differ a little). */
const CLOCK_TOLERANCE_MS = 2000;

const BLOCKS = new EntityTable(BlockEntity);
/** The first block's time: where the slot clock starts. */
const FIRST_BLOCK_TIME = `SELECT ${BLOCKS.select('time')} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = 1`;

/**
 * A block this node does not take. `bad`: the block itself is wrong (whoever sent it is at fault, and its
 * producer too once its signature held: the consensus core decides whom to ban); otherwise it only does
 * not follow this node's tip (a fork, or blocks missing).
 */
export class RefusedBlock extends Error {
  /**
   * What its header says, when it could be read: id, time (Unix seconds), hash (hex), and the producer's
   * position. `signed`: its hashes and its producer's signature held, so the producer made exactly this
   * block and answers for what is wrong with it.
   */
  block?: { id: bigint; time: bigint; hash: string; position: number; signed: boolean };

  constructor(
    message: string,
    readonly bad: boolean,
  ) {
    super(message);
  }
}

/**
 * Checks a received block's transactions as admission would at the block's time: the refusal of the first
 * that fails, or undefined. A thrown error is a failure of this node's (its database, say), no verdict on
 * the block.
 */
export type ReceivedTxCheck = (
  txs: readonly Uint8Array[],
  blockTimeMs: number,
) => Promise<string | undefined>;

export interface AppliedBlock {
  id: bigint;
  hash: Buffer;
  position: number;
  txHashes: Buffer[];
}

/**
 * Takes a block made by another honor node (formats.md §3.7, stricter): it must follow this node's tip
 * (id, previous hash and rollbacks hash), carry this network's id, a time within its slot and not
 * ahead of this node's clock, come from the leader of that slot, hash and sign right (merkle root and
 * block hash recomputed, signature by the node at its position), and hold transactions that pass
 * admission. Then it runs, in one database transaction, exactly as its producer ran it: every
 * transaction must succeed again and the journal must give the block's rollbacks hash. Anything else
 * writes nothing.
 */
@Injectable()
export class BlockReceiver {
  private readonly logger = new Logger('BlockReceiver');
  /** The first block's time, ms, once read ({@link slotClockStart}). */
  private firstBlockMs?: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly contracts: ContractsService,
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly parameters: PlatformParametersService,
    private readonly executor: BlockExecutor,
    private readonly producer: BlockProducer,
    private readonly events: ChainEvents,
    private readonly lock: ChainLock,
    private readonly metrics: PrometheusMetrics,
  ) {}

  apply(bytes: Uint8Array, checkTx: ReceivedTxCheck): Promise<AppliedBlock> {
    return this.lock.run(() => this.applyHeld(bytes, checkTx));
  }

  /** {@link apply} for a caller holding the chain lock (a fork switch). */
  async applyHeld(bytes: Uint8Array, checkTx: ReceivedTxCheck): Promise<AppliedBlock> {
    const started = performance.now();
    // When each step ended, for the log: a peer's replay is on the path from one leader to the next.
    const phases = { checked: started, ran: started, written: started };
    let block: ParsedBlock;
    try {
      block = parseBlock(bytes);
    } catch (error) {
      throw new RefusedBlock(`the block does not decode: ${(error as Error).message}`, true);
    }
    const { header } = block;
    let changedPlatformParameters = false;
    let applied: AppliedBlock;
    let signed = false;
    try {
      // Checked before the block's database transaction opens, so that transaction stays short. The chain
      // lock keeps the tip still.
      const tip = await this.producer.tip(this.db, false);
      if (header.blockId !== tip.id + 1n || !bytesEqual(block.prevHeader.blockHash, tip.hash)) {
        throw new RefusedBlock(`block ${header.blockId} does not follow block ${tip.id} here`, false);
      }
      // The signature first: what fails after it, its producer signed.
      const slots = await this.checkSignature(this.db, block);
      signed = true;
      if (!bytesEqual(block.prevHeader.rollbacksHash, tip.rollbacksHash)) {
        throw new RefusedBlock(`block ${header.blockId}: the previous rollbacks hash is not ours`, true);
      }
      this.checkHeader(block, tip, slots);
      const txRefusal = await checkTx(block.txs, Number(header.timestamp) * 1000);
      if (txRefusal !== undefined) {
        throw new RefusedBlock(`block ${header.blockId}: a transaction: ${txRefusal}`, true);
      }
      phases.checked = performance.now();
      applied = await this.contracts.transaction(async (sql) => {
        const locked = await this.producer.tip(sql);
        if (locked.id !== tip.id || !locked.hash.equals(tip.hash)) {
          throw new RefusedBlock(`block ${header.blockId}: the chain moved while it was checked`, false);
        }
        const ran = await this.run(sql, block, bytes, phases);
        changedPlatformParameters = ran.changedPlatformParameters;
        return ran.applied;
      });
    } catch (error) {
      // A block run in memory and then refused leaves rows in the row store the database never kept.
      this.executor.forgetRows();
      const verdict = error instanceof RefusedBlock;
      const refused = verdict
        ? error
        : new RefusedBlock(`block ${header.blockId}: ${(error as Error).message}`, true);
      refused.block = {
        id: header.blockId,
        time: header.timestamp,
        hash: hexOf(header.blockHash),
        position: Number(header.nodePosition),
        // An unexpected failure here (the database, say) is no verdict on the block: it may pass next time.
        signed: signed && verdict,
      };
      throw refused;
    }
    this.events.publish({ kind: 'block', height: applied.id });
    this.metrics.blockReceived();
    this.metrics.blockReplayed((performance.now() - started) / 1000);
    if (changedPlatformParameters) await this.contracts.loadPrices();
    const ms = (from: number, to: number) => Math.round(to - from);
    this.logger.debug(
      `took block ${applied.id} of node ${applied.position} (${applied.txHashes.length} txs) in ` +
        `${ms(started, performance.now())} ms: checked in ${ms(started, phases.checked)}, ` +
        `ran in ${ms(phases.checked, phases.ran)}, written in ${ms(phases.ran, phases.written)}`,
    );
    return applied;
  }

  /**
   * The block's hashes (merkle root and block hash recomputed) and its signature by the active honor node at
   * its position: once they hold, its producer made exactly this block. Returns the slot clock of the
   * honor nodes active at its time, for {@link checkHeader}.
   */
  private async checkSignature(sql: Sql, block: ParsedBlock): Promise<SlotClock> {
    const { header } = block;
    const refuse = (why: string) => new RefusedBlock(`block ${header.blockId}: ${why}`, true);
    const values = await this.parameters.values(['honor_nodes', ...SLOT_PARAMETERS], sql);
    const active = activeHonorNodes(parseHonorNodes(values.get('honor_nodes') ?? ''), header.timestamp);
    const producer = active[Number(header.nodePosition)];
    if (!producer) throw refuse(`no active honor node at position ${header.nodePosition}`);
    try {
      verifyBlockHashes(block, (data) => this.crypto.hasher.hash(data));
      this.crypto.signer.verify(
        bytesOfHex(bareKey(producer.public_key)),
        asciiBytes(forSign(header, block.prevHeader, block.merkleRoot)),
        header.sign,
      );
    } catch (error) {
      throw refuse((error as Error).message);
    }
    return {
      startMs: await this.slotClockStart(sql),
      nodes: active.length,
      slotMs: agreedSlotMs(slotLengthMs(values, this.config.blockSlotMs), active.length),
    };
  }

  /** Where the slot clock starts: the first block's time, read once (it never changes once written). */
  private async slotClockStart(sql: Sql): Promise<number> {
    if (this.firstBlockMs !== undefined) return this.firstBlockMs;
    const first = await sql.one<Pick<BlockEntity, 'time'>>(FIRST_BLOCK_TIME);
    if (!first) return 0;
    return (this.firstBlockMs = Number(first.time) * 1000);
  }

  /**
   * This network's id and block format and a time not before the previous block's; then the consensus
   * core's rules for a header (its producer led its slot, which is not ahead of this node's clock), judged by
   * the honor nodes active at the block's time.
   */
  private checkHeader(block: ParsedBlock, tip: { id: bigint; time: bigint }, clock: SlotClock): void {
    const { header } = block;
    const refuse = (why: string) => new RefusedBlock(`block ${header.blockId}: ${why}`, true);
    if (header.networkId !== this.config.networkId) throw refuse(`network ${header.networkId} is not ours`);
    if (header.version !== BLOCK_VERSION || header.consensusMode !== 1 || header.ecosystemId !== 0n) {
      throw refuse('version, consensus mode or ecosystem is not the one this network uses');
    }
    if (header.timestamp < tip.time) throw refuse('its time is before the previous block');
    const slotOfTime = (time: bigint) => slotAt(clock, Number(time) * 1000);
    const problem = headerProblemIn(
      {
        height: Number(header.blockId),
        hash: hexOf(header.blockHash),
        parent: hexOf(block.prevHeader.blockHash),
        slot: slotOfTime(header.timestamp),
        producer: Number(header.nodePosition),
      },
      {
        voters: clock.nodes,
        schedule: clock,
        parent: { height: Number(tip.id), slot: slotOfTime(tip.time) },
      },
      Date.now(),
      CLOCK_TOLERANCE_MS,
    );
    if (problem?.kind === 'ahead') {
      // This node's clock may be the one behind: no verdict on the block, which is tried again later.
      throw new RefusedBlock(`block ${header.blockId}: ${problem.reason}`, false);
    }
    if (problem) throw refuse(problem.reason);
  }

  private async run(
    sql: Sql,
    block: ParsedBlock,
    bytes: Uint8Array,
    phases: { ran: number; written: number },
  ): Promise<{ applied: AppliedBlock; changedPlatformParameters: boolean }> {
    const { header } = block;
    const refuse = (why: string) => new RefusedBlock(`block ${header.blockId}: ${why}`, true);
    const limits = await this.producer.limits(sql);
    const size = block.txs.reduce((total, tx) => total + tx.length, 0);
    if (block.txs.length > limits.txPerBlock || size > limits.blockSize) {
      throw refuse('more transactions or bytes than a block may hold');
    }
    const rows = block.txs.map((tx) => ({
      hash: Buffer.from(decodeSmartContractEnvelope(tx).hash),
      data: tx,
    }));
    const executed = await this.executor.replay(
      sql,
      {
        blockId: header.blockId,
        time: header.timestamp,
        keyId: header.keyId,
        nodePosition: header.nodePosition,
        // The producer's time limits do not apply again: a slower machine still takes the block.
        limits: { ...limits, generationMs: Number.POSITIVE_INFINITY },
      },
      rows,
    );
    const failed = executed.failed[0];
    if (failed) throw refuse(`transaction ${failed.hash.toString('hex')} fails here: ${failed.error}`);
    if (executed.duplicates.length > 0) throw refuse('it holds a transaction already in the chain');
    if (executed.included.length !== rows.length) throw refuse('not every transaction fits its limits here');
    const digest = rollbacksHash(header.blockId, executed.journal, this.crypto.hasher);
    if (!bytesEqual(digest, header.rollbacksHash)) {
      throw refuse(`its rollbacks hash ${hexOf(header.rollbacksHash)} should be ${hexOf(digest)}`);
    }
    phases.ran = performance.now();
    const hash = Buffer.from(header.blockHash);
    await storeBlock(sql, this.executor, {
      id: header.blockId,
      hash,
      rollbacksHash: Buffer.from(digest),
      bytes: Buffer.from(bytes),
      keyId: header.keyId,
      position: header.nodePosition,
      time: header.timestamp,
      executed,
    });
    await this.events.announce(sql, { kind: 'block', height: header.blockId });
    phases.written = performance.now();
    return {
      applied: {
        id: header.blockId,
        hash,
        position: Number(header.nodePosition),
        txHashes: rows.map((row) => row.hash),
      },
      // The VM's prices are platform parameters: read again once the block that changed them is written.
      changedPlatformParameters: executed.journal.some(
        (record) => record.table_name === '1_platform_parameters',
      ),
    };
  }
}

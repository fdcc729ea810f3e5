import { Injectable, Logger } from '@nestjs/common';
import { readBlockContent } from '../chain/block-content';
import { ChainLock } from '../chain/chain-lock';
import { Finality } from '../chain/finality.service';
import { parseBlock } from '../chain/codec';
import { ApiError } from '../common/api-error';
import { ChainEvents } from '../chain/chain-events';
import { ContractsService } from '../contracts/contracts.service';
import { undoTransaction } from '../contract-host';
import { ORDINARY_RATE } from './block-executor';
import { asBuffer, bindList, type Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { RollbackTxEntity } from '../blocks/entities/rollback-tx.entity';
import { SpentInfoEntity } from '../accounts/entities/spent-info.entity';
import { LogTransactionEntity } from '../tx/entities/log-transaction.entity';
import { TransactionStatusEntity } from '../tx/entities/transaction-status.entity';
import { ConfirmationEntity } from '../tx/entities/confirmation.entity';
import { TransactionEntity } from '../tx/entities/transaction.entity';

export interface RollbackResult {
  rolledBack: number;
  maxBlockId: bigint;
  /** With `requeue`: the transactions put back in the queue (their stored bytes), oldest first. */
  requeued: Buffer[];
}

export interface RollbackOptions {
  /**
   * Put the blocks' transactions that were sent to this node back in the queue, pending again, instead
   * of marking them rolled back: a node leaving a fork for a longer chain loses no accepted transaction.
   */
  requeue?: boolean;
  /**
   * Take back final blocks too (an operator's decision, logged as a warning): without it, a rollback that
   * would reach below the highest final block is refused.
   */
  force?: boolean;
}

const BLOCKS = new EntityTable(BlockEntity);
const TIP = new EntityTable(InfoBlockEntity);
const OUTPUTS = new EntityTable(SpentInfoEntity);
const STATUSES = new EntityTable(TransactionStatusEntity);
const QUEUE = new EntityTable(TransactionEntity);
const TIP_ROW = TIP.select('blockId');
const TIP_HEIGHT = `SELECT ${TIP_ROW} FROM ${TIP.name} LIMIT 1 FOR UPDATE`;
const BLOCK_DATA = `SELECT ${BLOCKS.select('data')} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = $1`;
// Block $1's rows that go with it, each table's by the column that names the block.
const JOURNAL_GONE = blockRowsGone(new EntityTable(RollbackTxEntity), 'blockId');
const OUTPUTS_MADE_GONE = blockRowsGone(OUTPUTS, 'blockId');
const LOG_GONE = blockRowsGone(new EntityTable(LogTransactionEntity), 'block');
const CONFIRMATIONS_GONE = blockRowsGone(new EntityTable(ConfirmationEntity), 'blockId');
const BLOCK_GONE = blockRowsGone(BLOCKS, 'id');
/** Outputs spent by the transactions listed after it are unspent again. */
const UNSPEND = `UPDATE ${OUTPUTS.name} SET ${OUTPUTS.assignments({ inputTxHash: 'NULL', inputIndex: 'NULL' })}
  WHERE ${OUTPUTS.column('inputTxHash')} IN`;
const STATUS_ROLLED_BACK = `UPDATE ${STATUSES.name} SET ${STATUSES.assignments({ blockId: '0', error: '$2' })}
  WHERE ${STATUSES.column('blockId')} = $1`;
const REQUEUED_STATUS = STATUSES.select('hash', 'time', 'type', 'walletId');
/** The statuses of block $1's transactions pending again; what the queue needs of them. */
const STATUS_PENDING_AGAIN = `UPDATE ${STATUSES.name} SET ${STATUSES.assignments({ blockId: '0', error: "''", penalty: '0' })}
  WHERE ${STATUSES.column('blockId')} = $1 RETURNING ${REQUEUED_STATUS}`;
const ENQUEUE = `${QUEUE.insert({
  hash: '$1',
  data: '$2',
  highRate: '$3',
  expedite: '$4',
  time: '$5',
  type: '$6',
  keyId: '$7',
  used: '0',
  sent: '0',
  verified: '1',
  queuedAt: '$8',
})} ON CONFLICT (${QUEUE.column('hash')}) DO NOTHING`;
/** The tip moves to the chain's block $1. */
const TIP_BACK = `UPDATE ${TIP.name} AS "i" SET ${TIP.assignments({
  hash: BLOCKS.column('hash', 'b'),
  rollbacksHash: BLOCKS.column('rollbacksHash', 'b'),
  blockId: BLOCKS.column('id', 'b'),
  nodePosition: BLOCKS.column('nodePosition', 'b'),
  keyId: BLOCKS.column('keyId', 'b'),
  time: BLOCKS.column('time', 'b'),
  sent: '0',
})}
  FROM ${BLOCKS.name} AS "b" WHERE ${BLOCKS.column('id', 'b')} = $1 RETURNING ${TIP.column('blockId', 'i')}`;

function blockRowsGone<T>(table: EntityTable<T>, blockColumn: keyof T & string): string {
  return `DELETE FROM ${table.name} WHERE ${table.column(blockColumn)} = $1`;
}

/** What a rolled-back transaction's status says: it is no longer in a block, and why. */
export const ROLLED_BACK_ERROR = 'The transaction was rolled back with its block';

/**
 * Takes the last blocks off the chain (formats.md §3.7), newest first, in one database transaction:
 * every transaction's journal is applied in reverse (rows restored, inserted rows and created tables
 * dropped), coin outputs made by the block are removed and those it spent are unspent again, the log
 * and block rows go, the tip moves back, and the compiled contracts follow the restored rows. The
 * transactions' statuses leave the block and say they were rolled back (an operator's rollback), or
 * wait in the queue again (a node leaving a fork: `requeue`).
 */
@Injectable()
export class ChainRollback {
  private readonly logger = new Logger('Rollback');

  constructor(
    private readonly contracts: ContractsService,
    private readonly events: ChainEvents,
    private readonly lock: ChainLock,
    private readonly finality: Finality,
  ) {}

  rollback(count: number, options: RollbackOptions = {}): Promise<RollbackResult> {
    return this.lock.run(() => this.rollbackHeld(count, options));
  }

  /** {@link rollback} for a caller that holds the chain lock already (a fork switch: rollback, then blocks). */
  async rollbackHeld(count: number, options: RollbackOptions = {}): Promise<RollbackResult> {
    if (!Number.isSafeInteger(count) || count < 1)
      throw ApiError.server('the number of blocks must be at least 1');
    const requeued: Buffer[] = [];
    const result = await this.contracts.transaction(async (sql) => {
      const tip = await sql.one<RowOf<typeof TIP_ROW>>(TIP_HEIGHT);
      const height = BigInt(tip?.blockId ?? 0);
      if (BigInt(count) >= height) {
        throw ApiError.server(
          `cannot roll back ${count} blocks: the chain has ${height - 1n} after the genesis block`,
        );
      }
      const newTip = height - BigInt(count);
      const final = await this.finality.finalized(sql);
      if (newTip < final.id) {
        if (!options.force) {
          throw ApiError.server(
            `cannot roll back ${count} blocks: block ${final.id} is final (voted for by a majority of the honor nodes); force to take it back`,
          );
        }
        this.logger.warn(`rolling back across final block ${final.id} to block ${newTip}, as forced`);
        await this.finality.forgetAbove(newTip, sql);
      }
      for (let id = height; id > newTip; id--) {
        requeued.unshift(...(await this.undoBlock(sql, id, options.requeue === true)));
      }
      await this.moveTip(sql, newTip);
      await this.contracts.resync(sql);
      await this.events.announce(sql, { kind: 'rollback', height: newTip });
      return { rolledBack: count, maxBlockId: newTip, requeued };
    });
    this.events.publish({ kind: 'rollback', height: result.maxBlockId });
    // The blocks taken back may have changed fuel prices (UpdatePlatformParam).
    await this.contracts.loadPrices();
    this.logger.log(`rolled back ${count} blocks; the chain ends at block ${result.maxBlockId}`);
    return result;
  }

  /** Undoes block `id`; returns the transactions put back in the queue (with `requeue`). */
  private async undoBlock(sql: Sql, id: bigint, requeue: boolean): Promise<Buffer[]> {
    const block = await sql.one<Pick<BlockEntity, 'data'>>(BLOCK_DATA, [id.toString()]);
    if (!block) throw new Error(`block ${id} is missing`);
    const data = asBuffer(block.data);
    const transactions = readBlockContent(data, this.contracts.vm.registry).transactions;
    const hashes = transactions.map((tx) => tx.hash);
    for (const hash of [...hashes].reverse()) await undoTransaction(sql, hash);
    const blockId = id.toString();
    await sql.query(JOURNAL_GONE, [blockId]);
    await sql.query(OUTPUTS_MADE_GONE, [blockId]);
    if (hashes.length > 0) {
      const params: unknown[] = [];
      await sql.query(`${UNSPEND} (${bindList(hashes, params)})`, params);
    }
    await sql.query(LOG_GONE, [blockId]);
    const requeued = requeue ? await this.requeue(sql, id, data, transactions) : [];
    await sql.query(STATUS_ROLLED_BACK, [blockId, ROLLED_BACK_ERROR]);
    await sql.query(CONFIRMATIONS_GONE, [blockId]);
    await sql.query(BLOCK_GONE, [blockId]);
    return requeued;
  }

  /**
   * The block's transactions that have a status here (sent to this node or passed on to it; not the
   * producer's own delayed-contract calls, which the next block makes again) go back to the queue.
   */
  private async requeue(
    sql: Sql,
    id: bigint,
    data: Buffer,
    transactions: readonly { hash: Buffer; expedite: string }[],
  ): Promise<Buffer[]> {
    const stored = parseBlock(data).txs;
    const rows = await sql.query<RowOf<typeof REQUEUED_STATUS>>(STATUS_PENDING_AGAIN, [id.toString()]);
    const known = new Map(rows.map((row) => [asBuffer(row.hash).toString('hex'), row]));
    const requeued: Buffer[] = [];
    // Their wait here begins again: the earlier one ended in the block taken back.
    const queuedAt = String(Date.now());
    for (const [index, tx] of transactions.entries()) {
      const row = known.get(tx.hash.toString('hex'));
      if (!row) continue;
      const bytes = Buffer.from(stored[index]);
      await sql.query(ENQUEUE, [
        tx.hash,
        bytes,
        ORDINARY_RATE,
        tx.expedite.split('.')[0] || '0',
        row.time,
        row.type,
        row.walletId,
        queuedAt,
      ]);
      requeued.push(bytes);
    }
    return requeued;
  }

  private async moveTip(sql: Sql, id: bigint): Promise<void> {
    const updated = await sql.query(TIP_BACK, [id.toString()]);
    if (updated.length !== 1) throw new Error(`block ${id} is missing: the tip cannot move to it`);
  }
}

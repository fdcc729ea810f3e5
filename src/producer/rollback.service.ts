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
      const tip = await sql.one<{ block_id: string }>(
        `SELECT "block_id" FROM "info_block" LIMIT 1 FOR UPDATE`,
      );
      const height = BigInt(tip?.block_id ?? 0);
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
    const block = await sql.one<{ data: unknown }>(`SELECT "data" FROM "block_chain" WHERE "id" = $1`, [
      id.toString(),
    ]);
    if (!block) throw new Error(`block ${id} is missing`);
    const data = asBuffer(block.data);
    const transactions = readBlockContent(data, this.contracts.vm.registry).transactions;
    const hashes = transactions.map((tx) => tx.hash);
    for (const hash of [...hashes].reverse()) await undoTransaction(sql, hash);
    const blockId = id.toString();
    await sql.query(`DELETE FROM "rollback_tx" WHERE "block_id" = $1`, [blockId]);
    await sql.query(`DELETE FROM "spent_info" WHERE "block_id" = $1`, [blockId]);
    if (hashes.length > 0) {
      const params: unknown[] = [];
      await sql.query(
        `UPDATE "spent_info" SET "input_tx_hash" = NULL, "input_index" = NULL WHERE "input_tx_hash" IN (${bindList(hashes, params)})`,
        params,
      );
    }
    await sql.query(`DELETE FROM "log_transactions" WHERE "block" = $1`, [blockId]);
    const requeued = requeue ? await this.requeue(sql, id, data, transactions) : [];
    await sql.query(`UPDATE "transactions_status" SET "block_id" = 0, "error" = $2 WHERE "block_id" = $1`, [
      blockId,
      ROLLED_BACK_ERROR,
    ]);
    await sql.query(`DELETE FROM "confirmations" WHERE "block_id" = $1`, [blockId]);
    await sql.query(`DELETE FROM "block_chain" WHERE "id" = $1`, [blockId]);
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
    const rows = await sql.query<{ hash: unknown; time: string; type: number; wallet_id: string }>(
      `UPDATE "transactions_status" SET "block_id" = 0, "error" = '', "penalty" = 0
        WHERE "block_id" = $1 RETURNING "hash", "time", "type", "wallet_id"`,
      [id.toString()],
    );
    const known = new Map(rows.map((row) => [asBuffer(row.hash).toString('hex'), row]));
    const requeued: Buffer[] = [];
    // Their wait here begins again: the earlier one ended in the block taken back.
    const queuedAt = String(Date.now());
    for (const [index, tx] of transactions.entries()) {
      const row = known.get(tx.hash.toString('hex'));
      if (!row) continue;
      const bytes = Buffer.from(stored[index]);
      await sql.query(
        `INSERT INTO "transactions" ("hash", "data", "high_rate", "expedite", "time", "type", "key_id", "used", "sent", "verified", "queued_at")
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, 1, $8) ON CONFLICT ("hash") DO NOTHING`,
        [
          tx.hash,
          bytes,
          ORDINARY_RATE,
          tx.expedite.split('.')[0] || '0',
          row.time,
          row.type,
          row.wallet_id,
          queuedAt,
        ],
      );
      requeued.push(bytes);
    }
    return requeued;
  }

  private async moveTip(sql: Sql, id: bigint): Promise<void> {
    const updated = await sql.query(
      `UPDATE "info_block" AS "i" SET "hash" = "b"."hash", "rollbacks_hash" = "b"."rollbacks_hash", "block_id" = "b"."id",
              "node_position" = "b"."node_position", "key_id" = "b"."key_id", "time" = "b"."time", "sent" = 0
         FROM "block_chain" AS "b" WHERE "b"."id" = $1 RETURNING "i"."block_id"`,
      [id.toString()],
    );
    if (updated.length !== 1) throw new Error(`block ${id} is missing: the tip cannot move to it`);
  }
}

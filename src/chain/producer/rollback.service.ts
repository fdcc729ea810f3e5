import { Injectable, Logger } from '@nestjs/common';
import { readBlockContent } from '../block-content';
import { ApiError } from '../../common/api-error';
import { ChainEvents } from '../chain-events';
import { ContractsService } from '../../contracts/contracts.service';
import { undoTransaction } from '../../contract-host';
import { asBuffer, bindList, type Sql } from '../../database/database.service';

export interface RollbackResult {
  rolledBack: number;
  maxBlockId: bigint;
}

/** What a rolled-back transaction's status says: it is no longer in a block, and why. */
export const ROLLED_BACK_ERROR = 'The transaction was rolled back with its block';

/**
 * Takes the last blocks off the chain (formats.md §3.7), newest first, in one database transaction:
 * every transaction's journal is applied in reverse (rows restored, inserted rows and created tables
 * dropped), coin outputs made by the block are removed and those it spent are unspent again, the log
 * and block rows go, the tip moves back, and the compiled contracts follow the restored rows. The
 * transactions' statuses leave the block and say they were rolled back; they are not mined again.
 */
@Injectable()
export class ChainRollback {
  private readonly logger = new Logger('Rollback');

  constructor(
    private readonly contracts: ContractsService,
    private readonly events: ChainEvents,
  ) {}

  async rollback(count: number): Promise<RollbackResult> {
    if (!Number.isSafeInteger(count) || count < 1)
      throw ApiError.server('the number of blocks must be at least 1');
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
      for (let id = height; id > height - BigInt(count); id--) await this.undoBlock(sql, id);
      const newTip = height - BigInt(count);
      await this.moveTip(sql, newTip);
      await this.contracts.resync(sql);
      await this.events.announce(sql, { kind: 'rollback', height: newTip });
      return { rolledBack: count, maxBlockId: newTip };
    });
    this.events.publish({ kind: 'rollback', height: result.maxBlockId });
    // The blocks taken back may have changed fuel prices (UpdatePlatformParam).
    await this.contracts.loadPrices();
    this.logger.log(`rolled back ${count} blocks; the chain ends at block ${result.maxBlockId}`);
    return result;
  }

  private async undoBlock(sql: Sql, id: bigint): Promise<void> {
    const block = await sql.one<{ data: unknown }>(`SELECT "data" FROM "block_chain" WHERE "id" = $1`, [
      id.toString(),
    ]);
    if (!block) throw new Error(`block ${id} is missing`);
    const hashes = readBlockContent(asBuffer(block.data), this.contracts.vm.registry).transactions.map(
      (tx) => tx.hash,
    );
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
    await sql.query(`UPDATE "transactions_status" SET "block_id" = 0, "error" = $2 WHERE "block_id" = $1`, [
      blockId,
      ROLLED_BACK_ERROR,
    ]);
    await sql.query(`DELETE FROM "confirmations" WHERE "block_id" = $1`, [blockId]);
    await sql.query(`DELETE FROM "block_chain" WHERE "id" = $1`, [blockId]);
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

import type { Sql } from '../database/database.service';
import type { BlockExecutor, ExecutedBlock } from './block-executor';
import type { JournalRecord } from './rollbacks-hash';

export interface StoredBlock {
  id: bigint;
  hash: Buffer;
  rollbacksHash: Buffer;
  /** The BlockData protobuf. */
  bytes: Buffer;
  /** The block's key (its producer's owner account). */
  keyId: bigint;
  position: bigint;
  time: bigint;
  executed: ExecutedBlock;
}

/**
 * Writes a block that ran, made here or received: its journal, the block row, the new tip, and its
 * transactions' log and statuses. The same rows either way, so a node's chain does not depend on which
 * of its blocks it made itself.
 */
export async function storeBlock(sql: Sql, executor: BlockExecutor, block: StoredBlock): Promise<void> {
  await writeJournal(sql, block.id, block.executed.journal);
  const keyId = block.keyId.toString();
  await sql.query(
    `INSERT INTO "block_chain" ("id", "hash", "rollbacks_hash", "data", "ecosystem_id", "key_id", "node_position", "time", "tx", "consensus_mode")
     VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, 1)`,
    [
      block.id.toString(),
      block.hash,
      block.rollbacksHash,
      block.bytes,
      keyId,
      block.position.toString(),
      block.time.toString(),
      block.executed.included.length,
    ],
  );
  await sql.query(
    `UPDATE "info_block" SET "hash" = $1, "rollbacks_hash" = $2, "block_id" = $3, "node_position" = $4,
       "key_id" = $5, "time" = $6, "sent" = 0`,
    [
      block.hash,
      block.rollbacksHash,
      block.id.toString(),
      block.position.toString(),
      keyId,
      block.time.toString(),
    ],
  );
  await executor.settle(sql, block.id, block.executed);
}

/** The block's journal in bulk, in the order its transactions made it (the ids keep that order). */
async function writeJournal(sql: Sql, blockId: bigint, records: readonly JournalRecord[]): Promise<void> {
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

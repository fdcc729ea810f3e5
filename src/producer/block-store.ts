import type { Sql } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { RollbackTxEntity } from '../blocks/entities/rollback-tx.entity';
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

const BLOCKS = new EntityTable(BlockEntity);
const TIP = new EntityTable(InfoBlockEntity);
const JOURNAL = new EntityTable(RollbackTxEntity);
const INSERT_BLOCK = BLOCKS.insert({
  id: '$1',
  hash: '$2',
  rollbacksHash: '$3',
  data: '$4',
  ecosystemId: '0',
  keyId: '$5',
  nodePosition: '$6',
  time: '$7',
  tx: '$8',
  consensusMode: '1',
});
const MOVE_TIP = `UPDATE ${TIP.name} SET ${TIP.assignments({
  hash: '$1',
  rollbacksHash: '$2',
  blockId: '$3',
  nodePosition: '$4',
  keyId: '$5',
  time: '$6',
  sent: '0',
})}`;
/** The journal's records in the order given: block $1, then one array per column. */
const INSERT_JOURNAL = `INSERT INTO ${JOURNAL.name} (${JOURNAL.columnList('blockId', 'txHash', 'tableName', 'tableId', 'data')})
  SELECT $1, decode("v"."hash", 'hex'), "v"."table", "v"."key", "v"."data"
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS "v"("hash", "table", "key", "data", "n")
   ORDER BY "v"."n"`;

/**
 * Writes a block that ran, made here or received: its journal, the block row, the new tip, and its
 * transactions' log and statuses. The same rows either way, so a node's chain does not depend on which
 * of its blocks it made itself.
 */
export async function storeBlock(sql: Sql, executor: BlockExecutor, block: StoredBlock): Promise<void> {
  await writeJournal(sql, block.id, block.executed.journal);
  const keyId = block.keyId.toString();
  await sql.query(INSERT_BLOCK, [
    block.id.toString(),
    block.hash,
    block.rollbacksHash,
    block.bytes,
    keyId,
    block.position.toString(),
    block.time.toString(),
    block.executed.included.length,
  ]);
  await sql.query(MOVE_TIP, [
    block.hash,
    block.rollbacksHash,
    block.id.toString(),
    block.position.toString(),
    keyId,
    block.time.toString(),
  ]);
  await executor.settle(sql, block.id, block.executed);
}

/** The block's journal in bulk, in the order its transactions made it (the ids keep that order). */
async function writeJournal(sql: Sql, blockId: bigint, records: readonly JournalRecord[]): Promise<void> {
  if (records.length === 0) return;
  await sql.query(INSERT_JOURNAL, [
    blockId.toString(),
    records.map((record) => record.tx_hash.toString('hex')),
    records.map((record) => record.table_name),
    records.map((record) => record.table_id),
    records.map((record) => record.data),
  ]);
}

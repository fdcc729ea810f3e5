import type { JournalRecord } from '../contract-host';
import type { Hasher } from '../crypto';

export type { JournalRecord };

/**
 * The block's digest of its state changes (formats.md §3.5, in our own deterministic form): one hash of
 * the JSON of `[block id, [tx hash (base64), table, row key, data], …]` with the journal records in the
 * order the block made them (the order `rollback_tx` ids keep). A block with no changes hashes `["<id>"]`.
 * It enters the next block's hash and signature, so any difference in replayed state shows. One hash over
 * the whole journal, not one per record: at thousands of records per block the per-record hashing was a
 * tenth of the block's time.
 */
export function rollbacksHash(
  blockId: bigint,
  records: readonly JournalRecord[],
  hasher: Hasher,
): Uint8Array {
  const entries: unknown[] = [blockId.toString()];
  for (const record of records) {
    entries.push([record.tx_hash.toString('base64'), record.table_name, record.table_id, record.data]);
  }
  return hasher.hash(Buffer.from(JSON.stringify(entries), 'utf8'));
}

import type { JournalRecord } from '../../contracts/host';
import type { Hasher } from '../../crypto';

export type { JournalRecord };

/**
 * The block's digest of its state changes (formats.md §3.5, in our own deterministic form): the hash of
 * each journal record's JSON, sorted, as a JSON array, hashed. A block with no changes hashes "[]".
 * It enters the next block's hash and signature, so any difference in replayed state shows.
 */
export function rollbacksHash(
  blockId: bigint,
  records: readonly JournalRecord[],
  hasher: Hasher,
): Uint8Array {
  const digests = records
    .map((record) =>
      hasher.hashHex(
        Buffer.from(
          JSON.stringify({
            block_id: blockId.toString(),
            tx_hash: record.tx_hash.toString('base64'),
            table_name: record.table_name,
            table_id: record.table_id,
            data: record.data,
          }),
          'utf8',
        ),
      ),
    )
    .sort();
  return hasher.hash(Buffer.from(JSON.stringify(digests), 'utf8'));
}

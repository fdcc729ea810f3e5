import { describe, expect, it } from 'vitest';
import { dtoFailures } from '../common/dto/dto-fields';
import {
  BlockAnnouncementBody,
  BlockRangeQuery,
  IsolatePeersParams,
  PassedTransactionsBody,
} from './network.dto';

const read = <T extends object>(dto: new () => T, values: object) =>
  dtoFailures(dto, Object.assign(new dto(), values));

describe('the node-to-node inputs', () => {
  it('take what a peer sends', () => {
    const announcement = {
      block_id: '12',
      hash: 'ab'.repeat(32),
      txs: ['cd'.repeat(32)],
      committed_at_ms: 1,
    };
    expect(read(BlockAnnouncementBody, announcement)).toEqual([]);
    expect(read(PassedTransactionsBody, { txs: [Buffer.from('tx').toString('base64')] })).toEqual([]);
    expect(read(BlockRangeQuery, { from: 1n, count: 10n })).toEqual([]);
    expect(read(IsolatePeersParams, { peers: [] })).toEqual([]);
  });

  it('refuse what does not fit, naming the field', () => {
    const failures = read(BlockAnnouncementBody, {
      block_id: 12,
      hash: 'xyz',
      txs: 'no',
      committed_at_ms: -1,
    });
    expect(failures.map((failure) => failure.property)).toEqual([
      'block_id',
      'hash',
      'txs',
      'committed_at_ms',
    ]);
    expect(read(PassedTransactionsBody, { txs: ['not base64!'] })[0]?.property).toBe('txs');
    expect(read(PassedTransactionsBody, { txs: new Array(1001).fill('') })[0]?.property).toBe('txs');
    expect(read(BlockRangeQuery, { from: 0n, count: 1n })[0]?.property).toBe('from');
  });
});

import { describe, expect, it } from 'vitest';
import { dtoFailures } from '../common/dto/dto-fields';
import {
  BlockAnnouncementBody,
  BlockRangeQuery,
  IsolatePeersParams,
  PassedTransactionsBody,
  VotesBody,
  VotesQuery,
} from './network.dto';

const read = <T extends object>(dto: new () => T, values: object) =>
  dtoFailures(dto, Object.assign(new dto(), values));

describe('the node-to-node inputs', () => {
  it('take what a peer sends', () => {
    const announcement = {
      block_id: '12',
      hash: 'ab'.repeat(32),
      prev_hash: 'ef'.repeat(32),
      time: '1795878096',
      position: '2',
      txs: ['cd'.repeat(32)],
      committed_at_ms: 1,
    };
    expect(read(BlockAnnouncementBody, announcement)).toEqual([]);
    const vote = {
      block_id: '12',
      hash: 'ab'.repeat(32),
      public_key: '04' + '12'.repeat(64),
      signature: '34'.repeat(64),
    };
    expect(read(VotesBody, { votes: [vote, { ...vote, public_key: '12'.repeat(64) }] })).toEqual([]);
    expect(read(VotesQuery, { from: 1n })).toEqual([]);
    expect(read(PassedTransactionsBody, { txs: [Buffer.from('tx').toString('base64')] })).toEqual([]);
    expect(read(BlockRangeQuery, { from: 1n, count: 10n })).toEqual([]);
    expect(read(IsolatePeersParams, { peers: [] })).toEqual([]);
  });

  it('refuse what does not fit, naming the field', () => {
    const failures = read(BlockAnnouncementBody, {
      block_id: 12,
      hash: 'xyz',
      prev_hash: '',
      time: 'soon',
      position: -1,
      txs: 'no',
      committed_at_ms: -1,
    });
    expect(failures.map((failure) => failure.property)).toEqual([
      'block_id',
      'hash',
      'prev_hash',
      'time',
      'position',
      'txs',
      'committed_at_ms',
    ]);
    const vote = {
      block_id: '12',
      hash: 'ab'.repeat(32),
      public_key: '12'.repeat(64),
      signature: '34'.repeat(64),
    };
    for (const bad of [
      { ...vote, block_id: '-1' },
      { ...vote, hash: 'xy' },
      { ...vote, signature: '' },
      'vote',
    ]) {
      expect(read(VotesBody, { votes: [bad] })[0]?.property).toBe('votes');
    }
    expect(read(VotesBody, { votes: new Array(2001).fill(vote) })[0]?.property).toBe('votes');
    expect(read(VotesQuery, { from: 0n })[0]?.property).toBe('from');
    expect(read(PassedTransactionsBody, { txs: ['not base64!'] })[0]?.property).toBe('txs');
    expect(read(PassedTransactionsBody, { txs: new Array(1001).fill('') })[0]?.property).toBe('txs');
    expect(read(BlockRangeQuery, { from: 0n, count: 1n })[0]?.property).toBe('from');
  });
});

import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config';
import type { SmartTransaction } from './codec';
import { DecodedTxs } from './decoded-txs';

const config = { txQueue: { count: 2 } } as AppConfig;
const hash = (byte: number) => Buffer.alloc(32, byte);
const decoded = (keyId: bigint) => ({ tx: { keyId } as SmartTransaction, timestampMs: 1_000n });

describe('DecodedTxs', () => {
  it('gives back what admission decoded for the very same bytes, once', () => {
    const txs = new DecodedTxs(config);
    txs.remember(hash(1), Buffer.from('stored'), decoded(7n));
    expect(txs.take(hash(1).toString('hex'), Buffer.from('stored'))?.tx.keyId).toBe(7n);
    expect(txs.take(hash(1).toString('hex'), Buffer.from('stored'))).toBeUndefined();
  });

  it('gives nothing for other bytes under the same hash (another envelope of one payload)', () => {
    const txs = new DecodedTxs(config);
    txs.remember(hash(1), Buffer.from('stored'), decoded(7n));
    expect(txs.take(hash(1).toString('hex'), Buffer.from('stored, signed again'))).toBeUndefined();
  });

  it('keeps at most as many as the queue holds, dropping the oldest', () => {
    const txs = new DecodedTxs(config);
    for (const byte of [1, 2, 3]) txs.remember(hash(byte), Buffer.from([byte]), decoded(BigInt(byte)));
    expect(txs.take(hash(1).toString('hex'), Buffer.from([1]))).toBeUndefined();
    expect(txs.take(hash(2).toString('hex'), Buffer.from([2]))?.tx.keyId).toBe(2n);
    expect(txs.take(hash(3).toString('hex'), Buffer.from([3]))?.tx.keyId).toBe(3n);
  });
});

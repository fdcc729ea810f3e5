import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config';
import type { SmartTransaction } from './codec';
import { AdmittedTxs } from './admitted-txs';

const config = (count: number, bytes = 1 << 20) => ({ txQueue: { count, bytes } }) as AppConfig;
const hash = (byte: number) => Buffer.alloc(32, byte);
const hex = (byte: number) => hash(byte).toString('hex');
const decoded = (keyId: bigint) => ({ tx: { keyId } as SmartTransaction, timestampMs: 1_000n });

describe('AdmittedTxs', () => {
  it('gives back what admission decoded for the very same bytes, once', () => {
    const txs = new AdmittedTxs(config(2));
    txs.remember(hash(1), Buffer.from('stored'), decoded(7n));
    expect(txs.holds(hex(1), Buffer.from('stored'))).toBe(true);
    expect(txs.take(hex(1), Buffer.from('stored'))?.tx.keyId).toBe(7n);
    expect(txs.holds(hex(1), Buffer.from('stored'))).toBe(false);
    expect(txs.take(hex(1), Buffer.from('stored'))).toBeUndefined();
  });

  it('knows nothing of other bytes under the same hash (another envelope of one payload)', () => {
    const txs = new AdmittedTxs(config(2));
    txs.remember(hash(1), Buffer.from('stored'), decoded(7n));
    expect(txs.holds(hex(1), Buffer.from('stored, signed again'))).toBe(false);
    expect(txs.take(hex(1), Buffer.from('stored, signed again'))).toBeUndefined();
  });

  it('keeps at most twice the queue by count, dropping the oldest', () => {
    const txs = new AdmittedTxs(config(1));
    for (const byte of [1, 2, 3]) txs.remember(hash(byte), Buffer.from([byte]), decoded(BigInt(byte)));
    expect(txs.holds(hex(1), Buffer.from([1]))).toBe(false);
    expect(txs.take(hex(2), Buffer.from([2]))?.tx.keyId).toBe(2n);
    expect(txs.take(hex(3), Buffer.from([3]))?.tx.keyId).toBe(3n);
  });

  it("keeps at most the queue's bytes, dropping the oldest", () => {
    const txs = new AdmittedTxs(config(100, 10));
    txs.remember(hash(1), Buffer.alloc(6, 1), decoded(1n));
    txs.remember(hash(2), Buffer.alloc(4, 2), decoded(2n));
    expect(txs.holds(hex(1), Buffer.alloc(6, 1))).toBe(true);
    txs.remember(hash(3), Buffer.alloc(1, 3), decoded(3n));
    expect(txs.holds(hex(1), Buffer.alloc(6, 1))).toBe(false);
    expect(txs.holds(hex(2), Buffer.alloc(4, 2))).toBe(true);
    // Remembering the same hash again replaces its bytes, not adds to them.
    txs.remember(hash(2), Buffer.alloc(4, 2), decoded(2n));
    txs.remember(hash(4), Buffer.alloc(5, 4), decoded(4n));
    expect(txs.holds(hex(2), Buffer.alloc(4, 2))).toBe(true);
    expect(txs.holds(hex(3), Buffer.alloc(1, 3))).toBe(true);
  });

  it("hands a block the peers' transactions waiting outside the queue, oldest first, until a block takes them", () => {
    const txs = new AdmittedTxs(config(10));
    const at = (ms: bigint) => ({ tx: { keyId: 1n } as SmartTransaction, timestampMs: ms });
    txs.remember(hash(1), Buffer.from([1]), at(3_000n));
    txs.remember(hash(2), Buffer.from([2]), at(1_000n));
    txs.remember(hash(3), Buffer.from([3]), at(2_000n));
    // The client's own (queued) transaction 3 is not waiting outside.
    txs.waitOutside(hex(1));
    txs.waitOutside(hex(2));
    txs.waitOutside(hex(9));
    expect(txs.oldestOutside(5).map((tx) => tx.hash.toString('hex'))).toEqual([hex(2), hex(1)]);
    expect(txs.oldestOutside(1)).toEqual([{ hash: hash(2), data: Buffer.from([2]), timestampMs: 1_000n }]);
    // Run in a block (this node's or another's): it waits no more.
    txs.take(hex(2), Buffer.from([2]));
    expect(txs.oldestOutside(5).map((tx) => tx.hash.toString('hex'))).toEqual([hex(1)]);
  });
});

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import type { SmartTransaction } from './codec';

export interface DecodedTx {
  tx: SmartTransaction;
  /** The envelope's time, Unix milliseconds. */
  timestampMs: bigint;
}

interface Entry extends DecodedTx {
  stored: Uint8Array;
  /** Passed on by a peer while this node's queue was full: it waits here only (see {@link waitOutside}). */
  outside?: boolean;
}

/** A transaction waiting for a block outside the queue, as a block's producer takes it. */
export interface WaitingOutside {
  hash: Buffer;
  data: Buffer;
  timestampMs: bigint;
}

/**
 * Transactions this node admitted lately (their envelope, hash, header, size and signature checked), as
 * decoded, kept for the block that runs them. Two costs this saves, both measured under load:
 * - a block decoded again what admission had just decoded (decoding was 6–7 % of a saturated node's CPU);
 * - a peer checked again, signature and all, the transactions of a block it had already checked when they
 *   were passed on to it but not queued (its queue was full), while the next leader waited for that block:
 *   half of a block's transactions, 80–250 ms of each replay at 800/s offered to three nodes.
 * An entry counts only for the very bytes it came from (a hash covers the payload, not the envelope's
 * time and signature). A block takes its entries; the oldest go first past the queue's own bounds, twice
 * its count (a peer's transactions are remembered here beyond what its queue takes) and once its bytes.
 */
@Injectable()
export class AdmittedTxs {
  private readonly entries = new Map<string, Entry>();
  private readonly maxCount: number;
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.maxCount = 2 * config.txQueue.count;
    this.maxBytes = config.txQueue.bytes;
  }

  remember(hash: Uint8Array, stored: Uint8Array, decoded: DecodedTx): void {
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
    this.forget(key);
    this.entries.set(key, { ...decoded, stored });
    this.bytes += stored.byteLength;
    while (this.entries.size > this.maxCount || (this.bytes > this.maxBytes && this.entries.size > 0)) {
      this.forget(this.entries.keys().next().value!);
    }
  }

  /**
   * A peer's transaction this node checked but could not queue (its queue was at its bound): it waits
   * here for a block of this node's all the same. A transaction waits for a leader that holds it: kept
   * only in the queue of the node its client sent it to, it waited for that node's turn, and under load
   * most of the network's transactions were so (three nodes at 2,000/s offered: 70–80 % of each block's
   * transactions were its producer's own clients').
   */
  waitOutside(hashHex: string): void {
    const entry = this.entries.get(hashHex);
    if (entry) entry.outside = true;
  }

  /** The transactions waiting outside the queue, oldest first, at most `limit`. */
  oldestOutside(limit: number): WaitingOutside[] {
    const waiting: WaitingOutside[] = [];
    for (const [hashHex, entry] of this.entries) {
      if (entry.outside) {
        waiting.push({
          hash: Buffer.from(hashHex, 'hex'),
          data: Buffer.from(entry.stored),
          timestampMs: entry.timestampMs,
        });
      }
    }
    waiting.sort((a, b) => (a.timestampMs < b.timestampMs ? -1 : a.timestampMs > b.timestampMs ? 1 : 0));
    return waiting.slice(0, limit);
  }

  /** Whether this node admitted these very bytes lately. */
  holds(hashHex: string, stored: Uint8Array): boolean {
    return this.matching(hashHex, stored) !== undefined;
  }

  /** The decoded form of `stored`, when admission decoded these very bytes; the entry is used up. */
  take(hashHex: string, stored: Uint8Array): DecodedTx | undefined {
    const entry = this.matching(hashHex, stored);
    this.forget(hashHex);
    return entry;
  }

  /** The entry of `hashHex` when it was made from these very bytes. */
  private matching(hashHex: string, stored: Uint8Array): Entry | undefined {
    const entry = this.entries.get(hashHex);
    if (!entry) return undefined;
    return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).equals(entry.stored)
      ? entry
      : undefined;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.stored.byteLength;
  }
}

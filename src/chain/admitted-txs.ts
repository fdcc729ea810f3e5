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
}

/**
 * Transactions as admission decoded them, kept for the block that runs them. Decoding a transaction's
 * envelope and payload took 6–7 % of a saturated node's CPU, half of it the block decoding again what
 * admission had just decoded. An entry counts only for the very bytes it came from (a hash covers the
 * payload, not the envelope's time and signature), and the block decodes whatever is not here, so what
 * runs never depends on this memory. Entries leave when a block takes them; the oldest go first once
 * there are more than the queue can hold (transactions that were refused, or never reached a block here).
 */
@Injectable()
export class DecodedTxs {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.capacity = config.txQueue.count;
  }

  remember(hash: Uint8Array, stored: Uint8Array, decoded: DecodedTx): void {
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
    this.entries.delete(key);
    this.entries.set(key, { ...decoded, stored });
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  /** The decoded form of `stored`, when admission decoded these very bytes; the entry is used up. */
  take(hashHex: string, stored: Buffer): DecodedTx | undefined {
    const entry = this.entries.get(hashHex);
    if (!entry) return undefined;
    this.entries.delete(hashHex);
    return stored.equals(entry.stored) ? entry : undefined;
  }
}

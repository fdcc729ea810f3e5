import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import {
  createHasher,
  createSigner,
  keyIdFromPublicKey,
  keyIdToAddress,
  type Hasher,
  type Signer,
} from '../crypto';

/** Key ids kept at most; past it all are forgotten and derived again (a new sender costs one derivation). */
const KEY_ID_MEMO_LIMIT = 10_000;

/** The node's configured crypto (curve and hasher) as one injectable, for every domain that signs or hashes. */
@Injectable()
export class NodeCrypto {
  readonly hasher: Hasher;
  readonly signer: Signer;
  /**
   * Key ids by public key (its bytes as latin1 text). A key id is a pure function of the key, and admission
   * derives the sender's for every transaction with a public key: H, SHA-512 and a CRC-64, 8 µs and
   * 5 % of the node's allocations at saturation, for the same senders again and again.
   */
  private readonly keyIds = new Map<string, bigint>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.hasher = createHasher(config.hasher);
    this.signer = createSigner(config.cryptoer, this.hasher);
  }

  keyId(publicKey: Uint8Array): bigint {
    const memoKey = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString(
      'latin1',
    );
    let keyId = this.keyIds.get(memoKey);
    if (keyId === undefined) {
      keyId = keyIdFromPublicKey(publicKey, this.hasher);
      if (this.keyIds.size >= KEY_ID_MEMO_LIMIT) this.keyIds.clear();
      this.keyIds.set(memoKey, keyId);
    }
    return keyId;
  }

  address(keyId: bigint): string {
    return keyIdToAddress(keyId);
  }
}

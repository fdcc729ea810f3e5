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

/** The node's configured crypto (curve and hasher) as one injectable, for every domain that signs or hashes. */
@Injectable()
export class NodeCrypto {
  readonly hasher: Hasher;
  readonly signer: Signer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.hasher = createHasher(config.hasher);
    this.signer = createSigner(config.cryptoer, this.hasher);
  }

  keyId(publicKey: Uint8Array): bigint {
    return keyIdFromPublicKey(publicKey, this.hasher);
  }

  address(keyId: bigint): string {
    return keyIdToAddress(keyId);
  }
}

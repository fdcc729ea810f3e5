import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { NodeCrypto } from './node-crypto.service';
import { loadOrCreateNodeKeys, type NodeKeys } from './node-keys';

/** This node's keys (node and founder), loaded from the data directory or made on first start. */
@Injectable()
export class NodeIdentity {
  readonly keys: NodeKeys;

  constructor(@Inject(APP_CONFIG) config: AppConfig, crypto: NodeCrypto) {
    this.keys = loadOrCreateNodeKeys(config.dataDir, crypto.signer, (pub) => crypto.keyId(pub));
  }
}

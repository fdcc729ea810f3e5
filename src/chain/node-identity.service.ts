import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { NodeCrypto } from './node-crypto.service';
import { type KeyPair, loadOrCreateNodeKeys, type NodeKeys } from './node-keys';

/** This node's keys (node and founder), loaded from the data directory or made on first start. */
@Injectable()
export class NodeIdentity {
  readonly keys: NodeKeys;

  constructor(@Inject(APP_CONFIG) config: AppConfig, crypto: NodeCrypto) {
    this.keys = loadOrCreateNodeKeys(config.dataDir, crypto.signer, (pub) => crypto.keyId(pub), {
      makesGenesis: !config.network.genesisPeer,
    });
  }

  /** The founder's key, which only the node that made the genesis has. */
  get founder(): KeyPair {
    if (!this.keys.founder) {
      throw new Error('this node took its genesis from a peer (GENESIS_PEER): the founder key is not here');
    }
    return this.keys.founder;
  }
}

import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex, parsePrivateKeyHex, type Signer } from '../crypto';

export interface KeyPair {
  privateKey: Uint8Array;
  /** 64 bytes X‖Y. */
  publicKey: Uint8Array;
  keyId: bigint;
  /** Where the private key is kept. */
  file: string;
}

export interface NodeKeys {
  node: KeyPair;
  /** The chain's founder (owns ecosystem 1): only on the node that makes the genesis. */
  founder?: KeyPair;
  /** The node owner's account, the key of the blocks this node makes: the founder's, else the node key's. */
  owner: KeyPair;
  /** True when this start generated the keys (first start). */
  generated: boolean;
}

/**
 * The node key (signs blocks) and the founder key (owns ecosystem 1) live in the data directory as 64 hex
 * characters, readable by the owner only. The first start generates them; later starts reuse them. A node
 * that takes its genesis from a peer has no founder key: the chain's founder is the first node's.
 */
export function loadOrCreateNodeKeys(
  dataDir: string,
  signer: Signer,
  keyIdOf: (publicKey: Uint8Array) => bigint,
  options: { makesGenesis: boolean },
): NodeKeys {
  let generated = false;
  const load = (name: string): KeyPair => {
    const file = join(dataDir, name);
    let privateKey: Uint8Array;
    if (existsSync(file)) {
      try {
        privateKey = parsePrivateKeyHex(readFileSync(file, 'utf8').trim());
      } catch (error) {
        throw new Error(`${file} does not hold a private key as hex: ${(error as Error).message}`);
      }
    } else {
      privateKey = signer.generatePrivateKey();
      writeFileSync(file, bytesToHex(privateKey) + '\n', { mode: 0o600 });
      chmodSync(file, 0o600);
      generated = true;
    }
    const publicKey = signer.publicKey(privateKey);
    return { privateKey, publicKey, keyId: keyIdOf(publicKey), file };
  };
  const node = load('node.key');
  const founder = options.makesGenesis ? load('founder.key') : undefined;
  return { node, founder, owner: founder ?? node, generated };
}

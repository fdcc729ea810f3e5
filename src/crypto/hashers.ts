import { createHash } from 'node:crypto';
import { md5 as nobleMd5 } from '@noble/hashes/legacy.js';
import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createKeccak, type IHasher } from 'hash-wasm';

/** The node's `Hasher` setting, spelled as `getuid` reports it. */
export type HasherName = 'KECCAK256' | 'SHA256' | 'SHA3_256';

export const HASHER_NAMES: readonly HasherName[] = ['KECCAK256', 'SHA256', 'SHA3_256'];

/** The configured hash H and the helpers the whole protocol is written in (formats.md §1.1). */
export interface Hasher {
  readonly name: HasherName;
  /** H(data): always 32 bytes. */
  hash(data: Uint8Array): Uint8Array;
  /** H(H(data)): the tx hash and the empty merkle root are made this way. */
  doubleHash(data: Uint8Array): Uint8Array;
  /** Lowercase hex of H(data). */
  hashHex(data: Uint8Array): string;
}

let wasmKeccak: IHasher | undefined;

/**
 * Loads the WebAssembly Keccak (hash-wasm), several times faster than the pure-JS one on the chain's small
 * inputs (transactions, merkle leaves). It compiles asynchronously, so the node awaits this at start;
 * until then, and in code that never calls it, the pure-JS Keccak gives the same digests.
 */
export async function loadFastHashers(): Promise<void> {
  wasmKeccak ??= await createKeccak(256);
}

function keccak256(data: Uint8Array): Uint8Array {
  if (!wasmKeccak) return keccak_256(data);
  wasmKeccak.init();
  wasmKeccak.update(data);
  return wasmKeccak.digest('binary');
}

/** SHA-256 and SHA3-256 come from OpenSSL (node:crypto). */
function openSsl(algorithm: string): (data: Uint8Array) => Uint8Array {
  return (data) => new Uint8Array(createHash(algorithm).update(data).digest());
}

// KECCAK256 is the legacy (pre-NIST, Ethereum) padding; SHA3_256 is the NIST one. They differ on every input.
const HASH_FUNCTIONS: Record<HasherName, (data: Uint8Array) => Uint8Array> = {
  KECCAK256: keccak256,
  SHA256: openSsl('sha256'),
  SHA3_256: openSsl('sha3-256'),
};

/** A hash fed in pieces, for data too long to hash at once without keeping the node from other work. */
export interface IncrementalHash {
  update(data: Uint8Array): void;
  digest(): Uint8Array;
}

/** The incremental form of a hasher (the same digests): Keccak in JS, SHA-256 and SHA3-256 from OpenSSL. */
export function incrementalHash(name: HasherName): IncrementalHash {
  if (name === 'KECCAK256') {
    const hash = keccak_256.create();
    return { update: (data) => hash.update(data), digest: () => hash.digest() };
  }
  const hash = createHash(name === 'SHA256' ? 'sha256' : 'sha3-256');
  return { update: (data) => hash.update(data), digest: () => new Uint8Array(hash.digest()) };
}

const hashers = new Map<HasherName, Hasher>();

export function isHasherName(name: string): name is HasherName {
  return (HASHER_NAMES as readonly string[]).includes(name);
}

/** Hashers are stateless, so one shared instance per name is handed out. */
export function createHasher(name: HasherName): Hasher {
  if (!isHasherName(name)) throw new Error(`unknown hasher ${String(name)}`);
  let hasher = hashers.get(name);
  if (!hasher) {
    const hash = HASH_FUNCTIONS[name];
    hasher = Object.freeze({
      name,
      hash: (data: Uint8Array) => hash(data),
      doubleHash: (data: Uint8Array) => hash(hash(data)),
      hashHex: (data: Uint8Array) => bytesToHex(hash(data)),
    });
    hashers.set(name, hasher);
  }
  return hasher;
}

/** SHA-512, used by the key_id derivation whatever the configured hasher is. */
export function sha512(data: Uint8Array): Uint8Array {
  return nobleSha512(data);
}

/** MD5, for the 32-hex-digit hashes of binary data; not used for anything security related. */
export function md5(data: Uint8Array): Uint8Array {
  return nobleMd5(data);
}

/** The reference hashes Go strings, i.e. their UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return utf8ToBytes(text);
}

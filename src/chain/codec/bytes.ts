import { CodecError } from './errors';

export function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function bytesOfHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new CodecError(`invalid hex string of length ${hex.length}`);
  }
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function asciiBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The configured hasher (Keccak-256 by default); injected so the codec stays independent of src/crypto. */
export type HashFn = (data: Uint8Array) => Uint8Array;

export function doubleHash(data: Uint8Array, hash: HashFn): Uint8Array {
  return hash(hash(data));
}

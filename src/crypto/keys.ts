import { bytesToHex as nobleBytesToHex, hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js';
import { uint64ToInt64, withCheckDigit } from './address';
import { crc64 } from './crc64';
import { CryptoError } from './errors';
import { sha512, type Hasher } from './hashers';

const PUBLIC_KEY_LENGTH = 64;
const PRIVATE_KEY_LENGTH = 32;
const UNCOMPRESSED_PREFIX = 0x04;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  return nobleBytesToHex(bytes);
}

/** Strict hex decoding (even length, hex digits only, either case); throws CryptoError otherwise. */
export function hexToBytes(hex: string): Uint8Array {
  if (!HEX.test(hex)) throw new CryptoError(`invalid hex string`);
  return nobleHexToBytes(hex);
}

/**
 * The 64-byte X‖Y form of a public key given as bytes or hex. A 65-byte key that starts with 0x04 loses
 * the prefix; any other length than 64 is the reference's `invalid parameters len(public) = N`.
 * The point is not checked to lie on a curve here (that needs the curve; verification does it).
 */
export function parsePublicKey(key: Uint8Array | string): Uint8Array {
  let bytes = typeof key === 'string' ? hexToBytes(key) : key;
  if (bytes.length === PUBLIC_KEY_LENGTH + 1 && bytes[0] === UNCOMPRESSED_PREFIX) bytes = bytes.subarray(1);
  if (bytes.length !== PUBLIC_KEY_LENGTH) {
    throw new CryptoError(`invalid parameters len(public) = ${bytes.length}`);
  }
  return bytes;
}

/** The 130-hex-digit `04…` text the reference writes for public keys (key files, `/network`). */
export function publicKeyHex04(publicKey: Uint8Array): string {
  return '04' + bytesToHex(parsePublicKey(publicKey));
}

/**
 * key_id of a public key (formats.md §1.3): CRC-64/XZ of SHA-512(H(pub64)), its last decimal digit
 * replaced by the check digit, read as int64. SHA-512 is fixed; only H follows the configured hasher.
 */
export function keyIdFromPublicKey(publicKey: Uint8Array | string, hasher: Hasher): bigint {
  const crc = crc64(sha512(hasher.hash(parsePublicKey(publicKey))));
  return uint64ToInt64(withCheckDigit(crc));
}

/**
 * A private key from hex (key files). The reference writes the scalar's minimal big-endian bytes, so
 * shorter keys are left-padded to 32 bytes. Surrounding whitespace (a file's trailing newline) is ignored.
 * Whether the scalar is valid for a curve is checked by the signer.
 */
export function parsePrivateKeyHex(hex: string): Uint8Array {
  const text = hex.trim();
  if (text === '' || !HEX.test(text)) throw new CryptoError('invalid private key hex');
  const bytes = nobleHexToBytes(text);
  if (bytes.length > PRIVATE_KEY_LENGTH) throw new CryptoError(`invalid private key length ${bytes.length}`);
  const padded = new Uint8Array(PRIVATE_KEY_LENGTH);
  padded.set(bytes, PRIVATE_KEY_LENGTH - bytes.length);
  return padded;
}

/**
 * The node's compact length prefix (formats.md §2.4): n ≤ 127 is one byte; otherwise 0x80|k followed
 * by n in k big-endian bytes. Used by the 0x80 client envelope and inside `TxSignature`.
 */
import { CodecError } from './errors';

/** Six bytes already exceed any real length and keep the value a safe JS integer. */
const MAX_LENGTH_BYTES = 6;

export function encodeLength(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new CodecError(`cannot encode length ${length}`);
  }
  if (length <= 127) return Uint8Array.of(length);
  const digits: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) digits.unshift(rest % 256);
  return Uint8Array.of(0x80 | digits.length, ...digits);
}

export interface DecodedLength {
  length: number;
  /** Offset of the first byte after the prefix. */
  next: number;
}

export function decodeLength(bytes: Uint8Array, offset = 0): DecodedLength {
  if (offset >= bytes.length) throw new CodecError(`length prefix missing at offset ${offset}`);
  const first = bytes[offset];
  if ((first & 0x80) === 0) return { length: first, next: offset + 1 };
  const count = first & 0x7f;
  if (count === 0 || count > MAX_LENGTH_BYTES) {
    throw new CodecError(`bad length prefix 0x${first.toString(16)} at offset ${offset}`);
  }
  if (offset + 1 + count > bytes.length) {
    throw new CodecError(`length prefix at offset ${offset} truncated: needs ${count} more bytes`);
  }
  let length = 0;
  for (let i = 1; i <= count; i++) length = length * 256 + bytes[offset + i];
  return { length, next: offset + 1 + count };
}

/** Reads a length prefix and the bytes it announces. */
export function readLengthPrefixed(
  bytes: Uint8Array,
  offset: number,
  what: string,
): { data: Uint8Array; next: number } {
  let prefix: DecodedLength;
  try {
    prefix = decodeLength(bytes, offset);
  } catch (error) {
    if (error instanceof CodecError) throw new CodecError(`${what}: ${error.message}`);
    throw error;
  }
  const { length, next } = prefix;
  if (next + length > bytes.length) {
    throw new CodecError(`${what} truncated: prefix announces ${length} bytes, ${bytes.length - next} left`);
  }
  return { data: bytes.slice(next, next + length), next: next + length };
}

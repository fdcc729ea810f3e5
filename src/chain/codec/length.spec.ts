import { describe, expect, it } from 'vitest';
import { bytesOfHex, hexOf } from './bytes';
import { CodecError } from './errors';
import { decodeLength, encodeLength, readLengthPrefixed } from './length';

describe('EncodeLength', () => {
  it('matches the formats.md §2.4 and clients.md vectors', () => {
    expect(hexOf(encodeLength(0))).toBe('00');
    expect(hexOf(encodeLength(64))).toBe('40');
    expect(hexOf(encodeLength(71))).toBe('47');
    expect(hexOf(encodeLength(127))).toBe('7f');
    expect(hexOf(encodeLength(128))).toBe('8180');
    expect(hexOf(encodeLength(168))).toBe('81a8');
    expect(hexOf(encodeLength(254))).toBe('81fe');
    expect(hexOf(encodeLength(1024))).toBe('820400');
    expect(hexOf(encodeLength(0x1_0000))).toBe('83010000');
  });

  it('decodes what it encodes, reporting the next offset', () => {
    for (const n of [0, 1, 127, 128, 254, 255, 256, 1024, 65535, 65536, 2 ** 32, 2 ** 40 + 5]) {
      const bytes = Uint8Array.of(0xee, ...encodeLength(n));
      expect(decodeLength(bytes, 1)).toEqual({ length: n, next: bytes.length });
    }
  });

  it('rejects bad prefixes with CodecError', () => {
    expect(() => decodeLength(new Uint8Array(0))).toThrow(/missing/);
    expect(() => decodeLength(bytesOfHex('80'))).toThrow(/bad length prefix 0x80/);
    expect(() => decodeLength(bytesOfHex('ff00'))).toThrow(/bad length prefix 0xff/);
    expect(() => decodeLength(bytesOfHex('8201'))).toThrow(/truncated/);
    expect(() => encodeLength(-1)).toThrow(CodecError);
    expect(() => encodeLength(1.5)).toThrow(CodecError);
  });

  it('reads a length-prefixed slice and names it in errors', () => {
    expect(readLengthPrefixed(bytesOfHex('02aabbcc'), 0, 'sig')).toEqual({
      data: Uint8Array.of(0xaa, 0xbb),
      next: 3,
    });
    expect(() => readLengthPrefixed(bytesOfHex('05aabb'), 0, 'sig')).toThrow(
      /sig truncated: prefix announces 5 bytes, 2 left/,
    );
    expect(() => readLengthPrefixed(bytesOfHex('80'), 0, 'sig')).toThrow(/^sig: bad length prefix/);
  });
});

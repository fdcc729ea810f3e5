import { describe, expect, it } from 'vitest';
import { crc64 } from './crc64';
import { sha512, utf8 } from './hashers';
import { hexToBytes } from './keys';

describe('crc64 (CRC-64/XZ, Go crc64.ECMA)', () => {
  it('gives the catalogue check value for "123456789"', () => {
    expect(crc64(utf8('123456789'))).toBe(0x995dc9bbdf1939fan);
  });

  it('is 0 for empty input (init and xorout cancel)', () => {
    expect(crc64(new Uint8Array())).toBe(0n);
  });

  it('reproduces the guest key step crc64(sha512(keccak(pub))) of formats.md §1.4', () => {
    const keccakOfGuestPub = hexToBytes('31858a7da4426643f79fb343e02a97d1855a1b9f40613a7d73ceefbfb87f1b7e');
    expect(crc64(sha512(keccakOfGuestPub))).toBe(18336466533008538269n);
  });
});

import { describe, expect, it } from 'vitest';
import { keyIdToAddress } from './address';
import { CryptoError } from './errors';
import { createHasher, utf8 } from './hashers';
import {
  bytesToHex,
  hexToBytes,
  keyIdFromPublicKey,
  parsePrivateKeyHex,
  parsePublicKey,
  publicKeyHex04,
} from './keys';

const keccak = createHasher('KECCAK256');
const sha256 = createHasher('SHA256');

const GUEST_PUB =
  'ef0ab117793962b7b3ee8d2ae94b58bbd7db1aa856a7dc623fdb28ad530090b0bcf5cb81b4d6912a249f1ab30921f414ad88383208cd8ba26ae2a9c3eb543772';

describe('keyIdFromPublicKey', () => {
  it('gives the guest key with Keccak (formats.md §1.4 worked example 1)', () => {
    expect(keccak.hashHex(hexToBytes(GUEST_PUB))).toBe(
      '31858a7da4426643f79fb343e02a97d1855a1b9f40613a7d73ceefbfb87f1b7e',
    );
    const id = keyIdFromPublicKey(hexToBytes(GUEST_PUB), keccak);
    expect(id).toBe(-110277540701013350n);
    expect(keyIdToAddress(id)).toBe('1833-6466-5330-0853-8266');
  });

  it('gives another id for the guest key under SHA-256 (rest-api.md §3, clients.md §5.2)', () => {
    expect(keyIdFromPublicKey(GUEST_PUB, sha256)).toBe(-8489576413377376586n);
  });

  it('accepts the key as hex, with or without 04', () => {
    expect(keyIdFromPublicKey('04' + GUEST_PUB, keccak)).toBe(-110277540701013350n);
    expect(keyIdFromPublicKey(hexToBytes('04' + GUEST_PUB), keccak)).toBe(-110277540701013350n);
  });

  it('gives worked example 2 (formats.md §1.4)', () => {
    const pub =
      '3edc2c323ef5b97356c7407f744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c504';
    expect(keyIdFromPublicKey(pub, keccak)).toBe(3983063462744111396n);
  });

  it('refuses a key of the wrong length', () => {
    expect(() => keyIdFromPublicKey(new Uint8Array(63), keccak)).toThrow(
      'invalid parameters len(public) = 63',
    );
  });
});

describe('parsePublicKey', () => {
  const pub = hexToBytes(GUEST_PUB);

  it('keeps 64 bytes and strips 04 from 65', () => {
    expect(parsePublicKey(pub)).toEqual(pub);
    expect(parsePublicKey(hexToBytes('04' + GUEST_PUB))).toEqual(pub);
    expect(parsePublicKey('04' + GUEST_PUB.toUpperCase())).toEqual(pub);
  });

  it.each([
    [new Uint8Array(63), 63],
    [new Uint8Array(65), 65], // 65 bytes without the 04 prefix
    [new Uint8Array(66).fill(4), 66],
    [new Uint8Array(0), 0],
    ['04' + GUEST_PUB + '00', 66],
  ])('refuses length %#', (key, length) => {
    expect(() => parsePublicKey(key)).toThrow(new CryptoError(`invalid parameters len(public) = ${length}`));
  });

  it('refuses bad hex with a CryptoError', () => {
    expect(() => parsePublicKey('zz' + GUEST_PUB.slice(2))).toThrow(CryptoError);
    expect(() => parsePublicKey(GUEST_PUB.slice(1))).toThrow(CryptoError);
  });
});

describe('publicKeyHex04', () => {
  it('writes 130 hex digits with the 04 prefix', () => {
    const text = publicKeyHex04(hexToBytes(GUEST_PUB));
    expect(text).toBe('04' + GUEST_PUB);
    expect(text).toHaveLength(130);
    expect(publicKeyHex04(hexToBytes('04' + GUEST_PUB))).toBe('04' + GUEST_PUB);
  });
});

describe('parsePrivateKeyHex', () => {
  it('reads a full key', () => {
    const hex = '86b5818b92f65f358c3ce0964d026fd209a75255da8a4fa992fdeab7ca9a2c1e';
    expect(bytesToHex(parsePrivateKeyHex(hex))).toBe(hex);
    expect(bytesToHex(parsePrivateKeyHex(hex.toUpperCase() + '\n'))).toBe(hex);
  });

  it('left-pads a key written in its minimal form', () => {
    expect(bytesToHex(parsePrivateKeyHex('0102'))).toBe('00'.repeat(30) + '0102');
  });

  it.each(['', '   ', 'xy', '123', '0x01', '00'.repeat(33), '01 02'])('refuses %j', (hex) => {
    expect(() => parsePrivateKeyHex(hex)).toThrow(CryptoError);
  });
});

describe('hex helpers', () => {
  it('round-trips and writes lowercase', () => {
    expect(bytesToHex(hexToBytes('00ABff'))).toBe('00abff');
    expect(hexToBytes('')).toEqual(new Uint8Array());
    expect(bytesToHex(utf8('0'))).toBe('30');
  });

  it('refuses odd length and non-hex', () => {
    expect(() => hexToBytes('abc')).toThrow(CryptoError);
    expect(() => hexToBytes('0g')).toThrow(CryptoError);
  });
});

import { randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { HASHER_NAMES, createHasher, isHasherName, loadFastHashers, md5, sha512, utf8 } from './hashers';
import { bytesToHex, hexToBytes } from './keys';

const keccak = createHasher('KECCAK256');
const sha256 = createHasher('SHA256');
const sha3 = createHasher('SHA3_256');

describe('hashers', () => {
  it('KECCAK256 is the legacy (Ethereum) Keccak and SHA3_256 the NIST one', () => {
    const empty = new Uint8Array();
    expect(keccak.hashHex(empty)).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(sha3.hashHex(empty)).toBe('a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a');
    expect(sha256.hashHex(utf8('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('reproduces the genesis constants of formats.md §8', () => {
    expect(keccak.hashHex(utf8('0'))).toBe(
      '044852b2a670ade5407e78fb2863c51de9fcb96542a07186fe3aeda6bb8a116d',
    );
    expect(bytesToHex(keccak.doubleHash(utf8('0')))).toBe(
      '40105d5bc10105c17fd72b93a8f73369e2ee6eee4d4714b7bf7bf3c2f156e601',
    );
    expect(keccak.hashHex(utf8('[]'))).toBe(
      '518674ab2b227e5f11e9084f615d57663cde47bce1ba168b4c19c7ee22a73d70',
    );
  });

  it('reproduces the login digest of rest-api.md §3', () => {
    expect(keccak.hashHex(utf8('LOGIN15577006791947779410'))).toBe(
      '82a69ceb2a1a44aeeb17615d9a2e40c1e933e407f6de8664a3a187e18c40d45a',
    );
  });

  it('reproduces the login digest of clients.md §5.2', () => {
    expect(keccak.hashHex(utf8('LOGIN11234567890'))).toBe(
      '9ecda097e6362ac9eee646aaa4448d061982cbae9efca60529af782daac6f8e2',
    );
  });

  it('doubleHash is hash(hash(x))', () => {
    for (const name of HASHER_NAMES) {
      const hasher = createHasher(name);
      const data = utf8('ibax');
      expect(hasher.doubleHash(data)).toEqual(hasher.hash(hasher.hash(data)));
      expect(hasher.hash(data)).toHaveLength(32);
    }
  });

  it('hashes strings as UTF-8', () => {
    expect(bytesToHex(utf8('ключ'))).toBe('d0bad0bbd18ed187');
  });

  it('hands out one instance per name and refuses unknown names', () => {
    expect(createHasher('KECCAK256')).toBe(keccak);
    expect(keccak.name).toBe('KECCAK256');
    expect(isHasherName('SHA3_256')).toBe(true);
    expect(isHasherName('SM3')).toBe(false);
    expect(() => createHasher('SM3' as never)).toThrow('unknown hasher SM3');
  });

  it('exports SHA-512 and MD5', () => {
    expect(bytesToHex(sha512(utf8('abc')))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a' +
        '2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
    expect(bytesToHex(md5(new Uint8Array()))).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it('reproduces the tx hashes (DoubleHash of the payload) of formats.md §8 and clients.md §5', () => {
    const goldenPayload = hexToBytes(
      '8ea24944ce0000139cab45636f73797374656d4944d30000000000000001a54b65794944d33746af1dbeb33924a454696d65d3000000006553f100a94e6574776f726b4944d30000000000000001a95075626c69634b6579c4403edc2c323ef5b97356c7407f744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c504a64d617853756da0a75061794f766572a0a44c616e67a0a84578706564697465a0a85369676e65644279d30000000000000000ac5472616e7366657253656c66c0a45554584fc0a6506172616d7381a6416d6f756e74ad31303030303030303030303030',
    );
    expect(goldenPayload).toHaveLength(254);
    expect(bytesToHex(keccak.doubleHash(goldenPayload))).toBe(
      'e801dc3d413674d131b944ccde9dd79b8c2e1bf98a6829fa63213a45175f0fd1',
    );
  });

  it('gives the same Keccak digests once the WebAssembly one is loaded', async () => {
    const inputs = [
      new Uint8Array(),
      utf8('0'),
      ...[1, 64, 135, 136, 137, 1000, 70_000].map((n) => randomBytes(n)),
    ];
    const before = inputs.map((input) => keccak.hashHex(input));
    await loadFastHashers();
    const after = inputs.map((input) => keccak.hashHex(input));
    expect(after).toEqual(before);
    expect(after).toEqual(inputs.map((input) => bytesToHex(keccak_256(input))));
    expect(keccak.hashHex(new Uint8Array())).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });
});

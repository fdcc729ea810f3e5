import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config';
import { CryptoError, keyIdFromPublicKey } from '../crypto';
import { NodeCrypto } from './node-crypto.service';

const crypto = new NodeCrypto({ cryptoer: 'ECC_Secp256k1', hasher: 'KECCAK256' } as AppConfig);

describe('NodeCrypto.keyId (kept by public key)', () => {
  it('gives the derived key id, asked once or again, for a key seen in any buffer', () => {
    for (let i = 0; i < 20; i++) {
      const publicKey = crypto.signer.publicKey(crypto.signer.generatePrivateKey());
      const expected = keyIdFromPublicKey(publicKey, crypto.hasher);
      expect(crypto.keyId(publicKey)).toBe(expected);
      expect(crypto.keyId(Uint8Array.from(publicKey))).toBe(expected);
      // The same bytes inside a larger message: the kept id is found by the bytes, not the buffer.
      const message = Buffer.concat([randomBytes(7), publicKey, randomBytes(5)]);
      expect(crypto.keyId(message.subarray(7, 7 + publicKey.length))).toBe(expected);
      // With the 04 prefix it is the same key.
      expect(crypto.keyId(Buffer.concat([Buffer.from([4]), publicKey]))).toBe(expected);
    }
  });

  it('keys that differ in one byte keep their own ids', () => {
    const publicKey = crypto.signer.publicKey(crypto.signer.generatePrivateKey());
    const other = Uint8Array.from(publicKey);
    other[63] ^= 1;
    expect(crypto.keyId(publicKey)).toBe(keyIdFromPublicKey(publicKey, crypto.hasher));
    expect(crypto.keyId(other)).toBe(keyIdFromPublicKey(other, crypto.hasher));
    expect(crypto.keyId(other)).not.toBe(crypto.keyId(publicKey));
  });

  it('refuses a malformed key every time it is asked (a refusal is not kept)', () => {
    const short = randomBytes(63);
    expect(() => crypto.keyId(short)).toThrow(CryptoError);
    expect(() => crypto.keyId(short)).toThrow('invalid parameters len(public) = 63');
  });

  it('stays right past the number of ids it keeps', () => {
    const fresh = new NodeCrypto({ cryptoer: 'ECC_Secp256k1', hasher: 'KECCAK256' } as AppConfig);
    const first = randomBytes(64);
    const expected = keyIdFromPublicKey(first, fresh.hasher);
    expect(fresh.keyId(first)).toBe(expected);
    const kept = (fresh as unknown as { keyIds: Map<string, bigint> }).keyIds;
    for (let i = 0; i < 10_050; i++) {
      fresh.keyId(randomBytes(64));
      expect(kept.size).toBeLessThanOrEqual(10_000);
    }
    expect(fresh.keyId(first)).toBe(expected);
  });
});

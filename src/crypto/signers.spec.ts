import { describe, expect, it } from 'vitest';
import { keyIdToAddress } from './address';
import { CryptoError } from './errors';
import { HASHER_NAMES, createHasher, utf8 } from './hashers';
import { bytesToHex, hexToBytes, keyIdFromPublicKey, parsePrivateKeyHex, publicKeyHex04 } from './keys';
import * as secp256k1Noble from '@noble/secp256k1';
import { offThreadVerifier } from './off-thread-verify';
import { CRYPTOER_NAMES, createSigner, derToCompact, isCryptoerName } from './signers';

const keccak = createHasher('KECCAK256');
const sha256 = createHasher('SHA256');
const k1Keccak = createSigner('ECC_Secp256k1', keccak);
const p256Sha256 = createSigner('ECC_P256', sha256);

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

function scalarBytes(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(64, '0'));
}

function scalarOf(bytes: Uint8Array): bigint {
  return BigInt('0x' + bytesToHex(bytes));
}

/** s' = n − s: the other, equally valid signature with the same r. */
function flipS(signature: Uint8Array, n: bigint): Uint8Array {
  const flipped = signature.slice();
  flipped.set(scalarBytes(n - scalarOf(signature.subarray(32))), 32);
  return flipped;
}

function derInteger(value: Uint8Array): Uint8Array {
  return Uint8Array.of(0x02, value.length, ...value);
}

function der(r: Uint8Array, s: Uint8Array): Uint8Array {
  const body = [...derInteger(r), ...derInteger(s)];
  return Uint8Array.of(0x30, body.length, ...body);
}

/** Minimal DER integer of a 32-byte scalar: no redundant zeros, a 00 when the high bit is set. */
function minimal(scalar: Uint8Array): Uint8Array {
  let first = 0;
  while (first < scalar.length - 1 && scalar[first] === 0) first++;
  const trimmed = scalar.subarray(first);
  return trimmed[0] & 0x80 ? Uint8Array.of(0, ...trimmed) : trimmed;
}

function isHighS(signature: Uint8Array, n: bigint): boolean {
  return scalarOf(signature.subarray(32)) > n / 2n;
}

// formats.md §1.4 worked example 2 and §8 golden vectors.
const EXAMPLE2 = {
  privateKey: '86b5818b92f65f358c3ce0964d026fd209a75255da8a4fa992fdeab7ca9a2c1e',
  publicKey:
    '3edc2c323ef5b97356c7407f744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c504',
  txHash: 'e801dc3d413674d131b944ccde9dd79b8c2e1bf98a6829fa63213a45175f0fd1',
  signature:
    '65381a939f4397d31b12ea0bc1be06c776b65b23b5f48170876879a73778c86479dbdb3e3aac9f593be19e5eaccaef6a61d16d8e8f5967c3181185037fa1896f',
};

// clients.md §5.2
const K1 = {
  privateKey: '8e7476e5f6b37b8ef81114ca15c7723d43f1d8b68ab30a9dd3ccb3648ad21448',
  publicKey04:
    '04e31491d7b402a88888d30e6103d8b93e5422884c26fd211b6e0c3df52c597190c0778a9f52e43b54f2f6151d670ab065439da2afde56c63718408500e25dfda7',
  keyId: -8704011958613640643n,
  address: '0974-2732-1150-9591-0973',
  loginMessage: 'LOGIN11234567890',
  loginSignature:
    '5e04f24982ba1f05e8df4c9f370c2e39d2dc2901f1d908ccd5be088130dfca48655b6d339805166580cce8365b2a7e95f857679ab4a8ed55ec18d655d6b84164',
  txBody:
    '83a648656164657286a24944cd1403a454696d65ce6553f100ab45636f73797374656d494401a54b65794944d38735233d4e14fa3da94e6574776f726b494401a95075626c69634b6579c44104e31491d7b402a88888d30e6103d8b93e5422884c26fd211b6e0c3df52c597190c0778a9f52e43b54f2f6151d670ab065439da2afde56c63718408500e25dfda7a6506172616d7381a44e616d65a568656c6c6fa44c616e67a2656e',
  txHash: 'ead6f6164da2dd38ebcdee2e1973c7d769e39ebdc5461e4b70df643868de99b5',
  txSignature:
    '8593f5e9f029c8fe16d56b5aec1d8bcb24cfd265dd84fa79bdb4fe0b6914ebf850e3744b7be5496dede7445379fe0bff62d1ad9bd8c7ee8b8a0be68fe3f2120f',
};

// clients.md §5.1 (weaver, P-256 + SHA-256)
const P256_KEYS = [
  {
    source: 'weaver guest key',
    privateKey: 'e5a87a96a445cb55a214edaad3661018061ef2936e63a0a93bdb76eb28251c1f',
    publicKey04:
      '04489347a1205c818d9a02f285faaedd0122a56138e3d985f5e1b4f6a9470f90f692a00a3453771dd7feea388ceb7aefeaf183e299c70ad1aecb7f870bfada3b86',
    keyId: 4544233900443112470n,
    address: '0454-4233-9004-4311-2470',
  },
  {
    source: 'weaver key backup scenario',
    privateKey: '06076ac7d0bdaea988cfaee2af78b790805e41e38aa52c773cb37eb76adf91e0',
    publicKey04:
      '04ea0cdb0f9b2a8d7fa7403fe302c3f4686e0e52ef3d5d473df3d2c477c53bf9d76efc67d93b2b1d7042df219edda66c6c04d51e089e026bbf69e40ecedf1dd556',
    keyId: -1465863158328511897n,
    address: '1698-0880-9153-8103-9719',
  },
  {
    source: 'weaver MOCK_ENCRYPTED_KEY',
    privateKey: '88ee2d399d3a57562c44202b5ba7f770a88fedf8d0abd81986cbc5b1dfe8d5f1',
    publicKey04:
      '042e3077c513f3e2b7eaaeafb6ac299db932316e3b89fdcdde2eb0b524754b7a6893f5e11dfdba96ac47bf57e53e5fe46b958843cf54037b647b5abd7fa4403b97',
    keyId: -8025645506384457280n,
    address: '1042-1098-5673-2509-4336',
  },
];
const WEAVER_PUB04 = P256_KEYS[1].publicKey04;
const WEAVER_LOGIN = {
  message: 'LOGIN1669609527652983900',
  der: '304502203a47eb250ea7ed1ced45f7a34bb84f7a4a5a5efa7923b6d1976d878d29c4d84e022100eb84d5bba14361ac264c924d07f1325958d837f2c3bfec447e46373684e860b1',
};
const WEAVER_TX = {
  body: '83a648656164657286a24944cd1403a454696d65ce6b0259bfab45636f73797374656d494401a54b65794944d3eba83539567f3267a94e6574776f726b494401a95075626c69634b6579c44104ea0cdb0f9b2a8d7fa7403fe302c3f4686e0e52ef3d5d473df3d2c477c53bf9d76efc67d93b2b1d7042df219edda66c6c04d51e089e026bbf69e40ecedf1dd556a6506172616d7381a44e616d65a568656c6c6fa44c616e67a2656e',
  hash: 'dc1258ad881b651fd38950525b3593e3110a19fd0882f744d0ce2d5f0abc1e79',
  der: '304502205dfc290d1dc6e8b4f1d726f68150a034383b58974aaf21d65616efd3b2a41d3d022100c01c71ee03fc9f54106130383a5e6f68731ea7e7a8afe1cdc5624b93f77ae587',
};

describe('secp256k1 + Keccak-256', () => {
  it('derives the public key of worked example 2 (formats.md §1.4)', () => {
    expect(keccak.hashHex(utf8('core-formats example key'))).toBe(EXAMPLE2.privateKey);
    const pub = k1Keccak.publicKey(hexToBytes(EXAMPLE2.privateKey));
    expect(bytesToHex(pub)).toBe(EXAMPLE2.publicKey);
    expect(keyIdFromPublicKey(pub, keccak)).toBe(3983063462744111396n);
  });

  it('verifies the golden tx signature over keccak(txhash) (formats.md §8) and reproduces it', () => {
    const pub = hexToBytes(EXAMPLE2.publicKey);
    const txHash = hexToBytes(EXAMPLE2.txHash);
    const signature = hexToBytes(EXAMPLE2.signature);
    expect(() => k1Keccak.verify(pub, txHash, signature)).not.toThrow();
    expect(bytesToHex(k1Keccak.sign(hexToBytes(EXAMPLE2.privateKey), txHash))).toBe(EXAMPLE2.signature);
  });

  it('derives pub, key_id and address of the key 2b×32 (rest-api.md §3)', () => {
    const pub = k1Keccak.publicKey(parsePrivateKeyHex('2b'.repeat(32)));
    expect(bytesToHex(pub)).toBe(
      'bb58b5feca505c74edc000d8282fc556e51a1024fc8e7d7e56c6f887c5c8d5f202f76f508a57ac2491af19c8e67e55133f8e1cd3f9ee2350071497085f7356f8',
    );
    const id = keyIdFromPublicKey(pub, keccak);
    expect(id).toBe(-1450197505406253194n);
    expect(keyIdToAddress(id)).toBe('1699-6546-5683-0329-8422');
  });

  it('derives pub, key_id and address of the clients.md §5.2 key', () => {
    expect(bytesToHex(sha256.hash(utf8('ibax clients.md test vector k1')))).toBe(K1.privateKey);
    const pub = k1Keccak.publicKey(hexToBytes(K1.privateKey));
    expect(publicKeyHex04(pub)).toBe(K1.publicKey04);
    expect(keyIdFromPublicKey(pub, keccak)).toBe(K1.keyId);
    expect(keyIdToAddress(K1.keyId)).toBe(K1.address);
  });

  it('verifies the clients.md §5.2 login signature (04-prefixed key) and reproduces it', () => {
    const message = utf8(K1.loginMessage);
    expect(() =>
      k1Keccak.verify(hexToBytes(K1.publicKey04), message, hexToBytes(K1.loginSignature)),
    ).not.toThrow();
    expect(bytesToHex(k1Keccak.sign(hexToBytes(K1.privateKey), message))).toBe(K1.loginSignature);
  });

  it('verifies the clients.md §5.2 0x80 tx signature over keccak(hash) and reproduces it', () => {
    const hash = keccak.doubleHash(hexToBytes(K1.txBody));
    expect(bytesToHex(hash)).toBe(K1.txHash);
    expect(() => k1Keccak.verify(hexToBytes(K1.publicKey04), hash, hexToBytes(K1.txSignature))).not.toThrow();
    expect(bytesToHex(k1Keccak.sign(hexToBytes(K1.privateKey), hash))).toBe(K1.txSignature);
  });

  it('accepts the high-S twin of a valid signature (s′ = n − s)', () => {
    const signature = hexToBytes(EXAMPLE2.signature);
    const highS = flipS(signature, SECP256K1_N);
    expect(isHighS(signature, SECP256K1_N)).toBe(false);
    expect(isHighS(highS, SECP256K1_N)).toBe(true);
    expect(() =>
      k1Keccak.verify(hexToBytes(EXAMPLE2.publicKey), hexToBytes(EXAMPLE2.txHash), highS),
    ).not.toThrow();
  });

  it('accepts DER: minimal, with a redundant leading 00 on r, and of a high-S signature', () => {
    const pub = hexToBytes(EXAMPLE2.publicKey);
    const txHash = hexToBytes(EXAMPLE2.txHash);
    const signature = hexToBytes(EXAMPLE2.signature);
    const r = signature.subarray(0, 32);
    const s = signature.subarray(32);
    expect(r[0] & 0x80).toBe(0); // so the 00 below is not needed as a sign byte
    const highS = flipS(signature, SECP256K1_N).subarray(32);
    for (const encoded of [
      der(minimal(r), minimal(s)),
      der(Uint8Array.of(0, ...r), minimal(s)),
      der(minimal(r), minimal(highS)),
    ]) {
      expect(encoded.length).toBeGreaterThan(64);
      expect(() => k1Keccak.verify(pub, txHash, encoded)).not.toThrow();
    }
  });
});

describe('P-256 + SHA-256 (weaver)', () => {
  it.each(P256_KEYS)('derives pub, key_id and address of the $source', (key) => {
    const pub = p256Sha256.publicKey(hexToBytes(key.privateKey));
    expect(publicKeyHex04(pub)).toBe(key.publicKey04);
    expect(keyIdFromPublicKey(pub, sha256)).toBe(key.keyId);
    expect(keyIdToAddress(key.keyId)).toBe(key.address);
  });

  it('verifies the weaver DER login signature, which is high-S', () => {
    const signature = hexToBytes(WEAVER_LOGIN.der);
    expect(() =>
      p256Sha256.verify(hexToBytes(WEAVER_PUB04), utf8(WEAVER_LOGIN.message), signature),
    ).not.toThrow();
    expect(isHighS(derToCompact(signature)!, P256_N)).toBe(true);
  });

  it('verifies the weaver 0x80 tx DER signature over SHA-256(hash)', () => {
    const hash = sha256.doubleHash(hexToBytes(WEAVER_TX.body));
    expect(bytesToHex(hash)).toBe(WEAVER_TX.hash);
    expect(() => p256Sha256.verify(hexToBytes(WEAVER_PUB04), hash, hexToBytes(WEAVER_TX.der))).not.toThrow();
  });

  it('accepts the same signature as raw r‖s and its low-S twin', () => {
    const compact = derToCompact(hexToBytes(WEAVER_TX.der))!;
    const pub = hexToBytes(WEAVER_PUB04);
    const hash = hexToBytes(WEAVER_TX.hash);
    expect(() => p256Sha256.verify(pub, hash, compact)).not.toThrow();
    expect(() => p256Sha256.verify(pub, hash, flipS(compact, P256_N))).not.toThrow();
  });

  it('signs so that weaver’s key verifies its own output', () => {
    const message = utf8(WEAVER_LOGIN.message);
    const signature = p256Sha256.sign(hexToBytes(P256_KEYS[1].privateKey), message);
    expect(signature).toHaveLength(64);
    expect(() => p256Sha256.verify(hexToBytes(WEAVER_PUB04), message, signature)).not.toThrow();
  });
});

describe('verify errors', () => {
  const pub = hexToBytes(EXAMPLE2.publicKey);
  const txHash = hexToBytes(EXAMPLE2.txHash);
  const signature = hexToBytes(EXAMPLE2.signature);

  function verifyError(
    publicKey: Uint8Array,
    message: Uint8Array,
    sig: Uint8Array,
    signer = k1Keccak,
  ): unknown {
    try {
      signer.verify(publicKey, message, sig);
    } catch (error) {
      return error;
    }
    return undefined;
  }

  function expectCryptoError(error: unknown, message: string): void {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).message).toBe(message);
  }

  it('rejects a signature over another message', () => {
    expectCryptoError(verifyError(pub, utf8('other'), signature), 'Incorrect sign');
  });

  it('rejects a tampered signature', () => {
    const tampered = signature.slice();
    tampered[10] ^= 1;
    expectCryptoError(verifyError(pub, txHash, tampered), 'Incorrect sign');
  });

  it('rejects the right signature checked with another hasher or curve', () => {
    expectCryptoError(
      verifyError(pub, txHash, signature, createSigner('ECC_Secp256k1', sha256)),
      'Incorrect sign',
    );
    expectCryptoError(
      verifyError(pub, txHash, signature, createSigner('ECC_P256', keccak)),
      'Incorrect sign',
    );
  });

  it('rejects r = 0, s = 0 and r, s ≥ n', () => {
    expectCryptoError(verifyError(pub, txHash, new Uint8Array(64)), 'Incorrect sign');
    const withRn = signature.slice();
    withRn.set(scalarBytes(SECP256K1_N), 0);
    expectCryptoError(verifyError(pub, txHash, withRn), 'Incorrect sign');
    expectCryptoError(verifyError(pub, txHash, new Uint8Array(64).fill(0xff)), 'Incorrect sign');
  });

  it('rejects a public key that is not on the curve', () => {
    expectCryptoError(verifyError(new Uint8Array(64).fill(1), txHash, signature), 'Incorrect sign');
  });

  it('rejects public keys of the wrong length with the reference’s text', () => {
    expectCryptoError(verifyError(pub.subarray(1), txHash, signature), 'invalid parameters len(public) = 63');
    expectCryptoError(
      verifyError(Uint8Array.of(5, ...pub), txHash, signature),
      'invalid parameters len(public) = 65',
    );
    // The key is checked before the signature.
    expectCryptoError(
      verifyError(pub.subarray(1), txHash, new Uint8Array()),
      'invalid parameters len(public) = 63',
    );
  });

  it('rejects an empty or short signature with the reference’s texts', () => {
    expectCryptoError(verifyError(pub, txHash, new Uint8Array()), 'invalid parameters len(signature) == 0');
    expectCryptoError(verifyError(pub, txHash, signature.subarray(0, 63)), 'wrong len of signature 126');
    expectCryptoError(verifyError(pub, txHash, signature.subarray(0, 1)), 'wrong len of signature 2');
  });

  it('rejects DER that does not parse', () => {
    const r = signature.subarray(0, 32);
    const s = signature.subarray(32);
    const good = der(minimal(r), minimal(s));
    const badSequenceTag = Uint8Array.of(0x31, ...good.subarray(1));
    const badIntegerTag = good.slice();
    badIntegerTag[2] = 0x03;
    const trailingByte = Uint8Array.of(...good, 0);
    const wrongSequenceLength = good.slice();
    wrongSequenceLength[1] += 1;
    const rTooLong = der(Uint8Array.of(1, ...r), minimal(s));
    const sLengthPastEnd = good.slice();
    sLengthPastEnd[4 + r.length + 1] += 1;
    for (const encoded of [
      badSequenceTag,
      badIntegerTag,
      trailingByte,
      wrongSequenceLength,
      rTooLong,
      sLengthPastEnd,
      new Uint8Array(65),
    ]) {
      expect(derToCompact(encoded)).toBeUndefined();
      expectCryptoError(verifyError(pub, txHash, encoded), 'Incorrect sign');
    }
  });

  it('derToCompact refuses an empty integer', () => {
    expect(derToCompact(der(new Uint8Array(), minimal(signature.subarray(32))))).toBeUndefined();
  });
});

describe('createSigner', () => {
  it.each(CRYPTOER_NAMES.flatMap((cryptoer) => HASHER_NAMES.map((hasher) => [cryptoer, hasher] as const)))(
    '%s + %s: a fresh key signs and verifies',
    (cryptoer, hasherName) => {
      const signer = createSigner(cryptoer, createHasher(hasherName));
      const privateKey = signer.generatePrivateKey();
      expect(privateKey).toHaveLength(32);
      const pub = signer.publicKey(privateKey);
      expect(pub).toHaveLength(64);
      const message = utf8('LOGIN1' + '5577006791947779410');
      const signature = signer.sign(privateKey, message);
      expect(signature).toHaveLength(64);
      expect(() => signer.verify(pub, message, signature)).not.toThrow();
      expect(() => signer.verify(pub, utf8('LOGIN2'), signature)).toThrow('Incorrect sign');
    },
  );

  it('refuses invalid private keys with a CryptoError', () => {
    for (const privateKey of [new Uint8Array(32), scalarBytes(SECP256K1_N), new Uint8Array(31).fill(1)]) {
      expect(() => k1Keccak.publicKey(privateKey)).toThrow(CryptoError);
      expect(() => k1Keccak.sign(privateKey, utf8('x'))).toThrow(CryptoError);
    }
    expect(() => p256Sha256.publicKey(scalarBytes(P256_N))).toThrow(CryptoError);
  });

  it('knows the cryptoer names and refuses others', () => {
    expect(isCryptoerName('ECC_P256')).toBe(true);
    expect(isCryptoerName('SM2')).toBe(false);
    expect(() => createSigner('SM2' as never, keccak)).toThrow('unknown cryptoer SM2');
    expect(k1Keccak.cryptoer).toBe('ECC_Secp256k1');
    expect(k1Keccak.hasher).toBe(keccak);
  });
});

describe('verifyLater: the same verdicts, with the curve on another thread', () => {
  const pub = hexToBytes(EXAMPLE2.publicKey);
  const txHash = hexToBytes(EXAMPLE2.txHash);
  const signature = hexToBytes(EXAMPLE2.signature);
  const tampered = signature.slice();
  tampered[10] ^= 1;

  async function laterError(publicKey: Uint8Array, sig: Uint8Array, signer = k1Keccak): Promise<unknown> {
    return signer.verifyLater(publicKey, txHash, sig).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it('accepts what verify accepts, low or high S, compact or DER, and refuses what it refuses', async () => {
    expect(await laterError(pub, signature)).toBeUndefined();
    expect(await laterError(pub, flipS(signature, SECP256K1_N))).toBeUndefined();
    expect(
      await laterError(pub, der(minimal(signature.subarray(0, 32)), minimal(signature.subarray(32)))),
    ).toBe(undefined);
    for (const bad of [tampered, new Uint8Array(64), new Uint8Array(64).fill(0xff)]) {
      expect(await laterError(pub, bad)).toEqual(new CryptoError('Incorrect sign'));
    }
    expect(await laterError(new Uint8Array(64).fill(1), signature)).toEqual(
      new CryptoError('Incorrect sign'),
    );
    expect(await laterError(pub.subarray(1), signature)).toEqual(
      new CryptoError('invalid parameters len(public) = 63'),
    );
    expect(await laterError(pub, new Uint8Array())).toEqual(
      new CryptoError('invalid parameters len(signature) == 0'),
    );
  });

  it('answers each of many checks asked for at once, in their order', async () => {
    const signatures = Array.from({ length: 60 }, (_, index) => (index % 3 === 1 ? tampered : signature));
    const verdicts = await Promise.all(signatures.map((sig) => laterError(pub, sig)));
    expect(verdicts.map((error) => error === undefined)).toEqual(signatures.map((sig) => sig === signature));
  });

  it('checks in this thread once its worker is gone, or when the worker cannot load', async () => {
    const inThread = (sig: Uint8Array, digest: Uint8Array, publicKey: Uint8Array) =>
      secp256k1Noble.verify(sig, digest, publicKey, { prehash: false, lowS: false });
    const digest = keccak.hash(txHash);
    const pub65 = Uint8Array.of(4, ...pub.subarray(pub.length - 64));
    for (const bindingPath of [require.resolve('secp256k1/bindings'), '/nonexistent/binding.js']) {
      const verifier = offThreadVerifier(bindingPath, inThread);
      const check = (sig: Uint8Array) => verifier.run({ signature: sig, digest, publicKey: pub65 });
      expect(await Promise.all([check(signature), check(tampered)])).toEqual([true, false]);
      await verifier.close();
      expect(await check(signature)).toBe(true);
      expect(await check(tampered)).toBe(false);
    }
  });
});

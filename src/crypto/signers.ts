import { p256 } from '@noble/curves/nist.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as secp256k1 from '@noble/secp256k1';
import { CryptoError } from './errors';
import type { Hasher } from './hashers';
import { parsePublicKey } from './keys';
import { offThreadVerifier, ownBytes, type SignatureCheck } from './off-thread-verify';
import type { WorkerBatches } from '../threads/worker-batches';

/** The node's `Cryptoer` setting, spelled as `getuid` reports it. */
export type CryptoerName = 'ECC_Secp256k1' | 'ECC_P256';

export const CRYPTOER_NAMES: readonly CryptoerName[] = ['ECC_Secp256k1', 'ECC_P256'];

export interface Signer {
  readonly cryptoer: CryptoerName;
  readonly hasher: Hasher;
  /** A fresh random 32-byte private key valid for the curve. */
  generatePrivateKey(): Uint8Array;
  /** The 64-byte X‖Y public key (no 04 prefix). */
  publicKey(privateKey: Uint8Array): Uint8Array;
  /** ECDSA over hasher.hash(message): 64 bytes r‖s (deterministic k, RFC 6979; low S). */
  sign(privateKey: Uint8Array, message: Uint8Array): Uint8Array;
  /**
   * Checks an ECDSA signature over hasher.hash(message) with the reference's rules and error texts;
   * throws CryptoError unless it is valid. Accepts 64-byte r‖s or DER, and high-S signatures.
   */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): void;
  /** `verify` of a message already hashed (`hasher.hash(message)`): for messages hashed in steps. */
  verifyDigest(publicKey: Uint8Array, digest: Uint8Array, signature: Uint8Array): void;
  /**
   * `verify`, with the curve's arithmetic on another thread where the curve has one (secp256k1 through
   * libsecp256k1): the same rules and errors, and the event loop free meanwhile.
   */
  verifyLater(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<void>;
}

/** What differs between the curves: all take a 32-byte digest and a 64-byte compact signature. */
interface Curve {
  randomPrivateKey(): Uint8Array;
  /** 65 bytes, 04‖X‖Y. */
  uncompressedPublicKey(privateKey: Uint8Array): Uint8Array;
  signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array;
  verifyDigest(compactSignature: Uint8Array, digest: Uint8Array, publicKey65: Uint8Array): boolean;
  /** `verifyDigest` on another thread, where the curve has one. */
  verifyDigestLater?(
    compactSignature: Uint8Array,
    digest: Uint8Array,
    publicKey65: Uint8Array,
  ): Promise<boolean>;
}

/**
 * libsecp256k1 through the `secp256k1` package's prebuilt binding verifies ≈30 times faster than pure JS
 * (bench/README.md), which admission at block speed needs. Loaded from its binding directly: the
 * package's own fallback is a slower JS library, and ours is @noble/secp256k1 below.
 */
interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array };
  ecdsaVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  signatureNormalize(signature: Uint8Array): Uint8Array;
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

function loadNativeSecp256k1(): NativeSecp256k1 | undefined {
  try {
    // A plain require: the binding may be missing on a platform without a prebuild, and that is allowed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

const nativeSecp256k1 = loadNativeSecp256k1();

function verifyNatively(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  const native = nativeSecp256k1!;
  return native.ecdsaVerify(native.signatureNormalize(Uint8Array.from(signature)), digest, publicKey);
}

/** Started at the first check that wants it (a node admitting transactions), shared by every signer. */
let offThread: WorkerBatches<SignatureCheck, boolean> | undefined;

// The standalone secp256k1 package leaves its synchronous hashes to the caller; RFC 6979 needs HMAC-SHA256.
secp256k1.hashes.sha256 ??= sha256;
secp256k1.hashes.hmacSha256 ??= (key, message) => hmac(sha256, key, message);

// prehash: false because the digest is the configured hasher's, not the library's SHA-256.
// lowS: false on verify because the reference signs with random k and never normalises S.
const CURVES: Record<CryptoerName, Curve> = {
  ECC_Secp256k1: nativeSecp256k1
    ? {
        randomPrivateKey: () => secp256k1.utils.randomSecretKey(),
        uncompressedPublicKey: (privateKey) => nativeSecp256k1.publicKeyCreate(privateKey, false),
        // RFC 6979 with low S, as @noble/secp256k1 signs: the same bytes either way.
        signDigest: (digest, privateKey) => nativeSecp256k1.ecdsaSign(digest, privateKey).signature,
        // libsecp256k1 accepts only low S; the reference's high-S signatures are normalised first.
        verifyDigest: verifyNatively,
        verifyDigestLater: (signature, digest, publicKey) =>
          (offThread ??= offThreadVerifier(require.resolve('secp256k1/bindings'), verifyNatively)).run(
            ownBytes({ signature, digest, publicKey }),
          ),
      }
    : {
        randomPrivateKey: () => secp256k1.utils.randomSecretKey(),
        uncompressedPublicKey: (privateKey) => secp256k1.getPublicKey(privateKey, false),
        signDigest: (digest, privateKey) => secp256k1.sign(digest, privateKey, { prehash: false }),
        verifyDigest: (signature, digest, publicKey) =>
          secp256k1.verify(signature, digest, publicKey, { prehash: false, lowS: false }),
      },
  ECC_P256: {
    randomPrivateKey: () => p256.utils.randomSecretKey(),
    uncompressedPublicKey: (privateKey) => p256.getPublicKey(privateKey, false),
    signDigest: (digest, privateKey) => p256.sign(digest, privateKey, { prehash: false }),
    verifyDigest: (signature, digest, publicKey) =>
      p256.verify(signature, digest, publicKey, { prehash: false, lowS: false }),
  },
};

const SCALAR_LENGTH = 32;
const COMPACT_SIGNATURE_LENGTH = 2 * SCALAR_LENGTH;
const DER_SEQUENCE = 0x30;
const DER_INTEGER = 0x02;

export function isCryptoerName(name: string): name is CryptoerName {
  return (CRYPTOER_NAMES as readonly string[]).includes(name);
}

export function createSigner(cryptoer: CryptoerName, hasher: Hasher): Signer {
  if (!isCryptoerName(cryptoer)) throw new Error(`unknown cryptoer ${String(cryptoer)}`);
  const curve = CURVES[cryptoer];
  return Object.freeze({
    cryptoer,
    hasher,
    generatePrivateKey: () => curve.randomPrivateKey(),
    publicKey(privateKey: Uint8Array): Uint8Array {
      return withInvalidPrivateKeyError(() => curve.uncompressedPublicKey(privateKey).subarray(1));
    },
    sign(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
      const digest = hasher.hash(message);
      return withInvalidPrivateKeyError(() => curve.signDigest(digest, privateKey));
    },
    verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): void {
      this.verifyDigest(publicKey, hasher.hash(message), signature);
    },
    verifyDigest(publicKey: Uint8Array, digest: Uint8Array, signature: Uint8Array): void {
      const { compact, publicKey65 } = verificationInput(publicKey, signature);
      let valid: boolean;
      try {
        valid = curve.verifyDigest(compact, digest, publicKey65);
      } catch {
        // The library throws on a point off the curve or r/s outside [1, n): for the caller that is a bad signature.
        valid = false;
      }
      if (!valid) throw new CryptoError('Incorrect sign');
    },
    async verifyLater(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<void> {
      if (!curve.verifyDigestLater) return this.verify(publicKey, message, signature);
      const { compact, publicKey65 } = verificationInput(publicKey, signature);
      if (!(await curve.verifyDigestLater(compact, hasher.hash(message), publicKey65))) {
        throw new CryptoError('Incorrect sign');
      }
    },
  });
}

/** The key as 04‖X‖Y and the signature as r‖s, with the reference's rules and error texts. */
function verificationInput(
  publicKey: Uint8Array,
  signature: Uint8Array,
): { compact: Uint8Array; publicKey65: Uint8Array } {
  const publicKey64 = parsePublicKey(publicKey);
  const compact = compactSignature(signature);
  const publicKey65 = new Uint8Array(1 + publicKey64.length);
  publicKey65[0] = 0x04;
  publicKey65.set(publicKey64, 1);
  return { compact, publicKey65 };
}

function withInvalidPrivateKeyError(operation: () => Uint8Array): Uint8Array {
  try {
    return operation();
  } catch (error) {
    throw new CryptoError(`invalid private key: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The signature as 64-byte r‖s, applying the reference's length rules and error texts. */
function compactSignature(signature: Uint8Array): Uint8Array {
  if (signature.length === 0) throw new CryptoError('invalid parameters len(signature) == 0');
  if (signature.length < COMPACT_SIGNATURE_LENGTH) {
    throw new CryptoError(`wrong len of signature ${signature.length * 2}`);
  }
  if (signature.length === COMPACT_SIGNATURE_LENGTH) return signature;
  const fromDer = derToCompact(signature);
  if (!fromDer) throw new CryptoError('Incorrect sign');
  return fromDer;
}

/**
 * `30 len 02 rlen r 02 slen s` → r‖s, or undefined when the structure or lengths do not add up.
 * Loose like the reference where it does not matter for safety: redundant leading zeros and a missing
 * sign byte are accepted (each integer is trimmed of leading zeros, then left-padded to 32 bytes);
 * the range of r and s is left to the curve check.
 */
export function derToCompact(der: Uint8Array): Uint8Array | undefined {
  // ECDSA-256 signatures are at most 72 bytes, so the short length form is the only one that occurs.
  if (der.length < 2 || der[0] !== DER_SEQUENCE || der[1] !== der.length - 2) return undefined;
  const r = readDerInteger(der, 2);
  if (!r) return undefined;
  const s = readDerInteger(der, r.end);
  if (!s || s.end !== der.length) return undefined;
  const compact = new Uint8Array(COMPACT_SIGNATURE_LENGTH);
  compact.set(r.value, SCALAR_LENGTH - r.value.length);
  compact.set(s.value, COMPACT_SIGNATURE_LENGTH - s.value.length);
  return compact;
}

function readDerInteger(der: Uint8Array, offset: number): { value: Uint8Array; end: number } | undefined {
  if (offset + 2 > der.length || der[offset] !== DER_INTEGER) return undefined;
  const length = der[offset + 1];
  const start = offset + 2;
  const end = start + length;
  if (length === 0 || end > der.length) return undefined;
  let first = start;
  while (first < end && der[first] === 0) first++;
  const value = der.subarray(first, end);
  return value.length <= SCALAR_LENGTH ? { value, end } : undefined;
}

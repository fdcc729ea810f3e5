import { hmac } from '@noble/hashes/hmac.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CHash } from '@noble/hashes/utils.js';
import {
  addressToId,
  CryptoError,
  incrementalHash,
  keyIdToAddress,
  parsePublicKey,
  type HasherName,
  type IncrementalHash,
} from '../crypto';
import { formatMoney, goTypeName, panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { intArg, textArg } from './args';
import { ecosystemOf, hostOf } from './state';

function bytesOf(value: Value): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') {
    const hex = value.trim().replace(/^0x/i, '');
    if (hex.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(hex)) return Buffer.from(hex, 'hex');
  }
  throw panic('expected a public key as hex text or bytes');
}

function publicKeyOf(value: Value): Uint8Array {
  try {
    return parsePublicKey(bytesOf(value));
  } catch (error) {
    throw panic((error as Error).message);
  }
}

function addressToIdBuiltin(_ctx: BuiltinContext, address: Value): Value {
  if (typeof address !== 'string') throw panic('address must be a string');
  return addressToId(address);
}

function idToAddress(_ctx: BuiltinContext, id: Value): Value {
  if (typeof id === 'bigint') return keyIdToAddress(id);
  if (typeof id === 'string' && /^-?\d+$/.test(id.trim())) return keyIdToAddress(BigInt(id.trim()));
  throw panic('key id must be an integer');
}

function pubToId(ctx: BuiltinContext, pub: Value): Value {
  return hostOf(ctx).crypto.keyId(publicKeyOf(pub));
}

function hexToPub(_ctx: BuiltinContext, hex: Value): Value {
  return publicKeyOf(hex);
}

/**
 * Data this long or longer is hashed in steps of this size, with a pause between steps once the time slice
 * is over: hashing runs at some 20 to 300 MB/s, and a transaction may carry tens of megabytes.
 */
const HASH_STEP = 1 << 20;

/** A hash of data: at once when it is short, in steps (with pauses) when it is long. */
function hashInSteps(
  ctx: BuiltinContext,
  data: Uint8Array,
  hash: IncrementalHash,
): Promise<Uint8Array> | Uint8Array {
  if (data.length < HASH_STEP) {
    hash.update(data);
    return hash.digest();
  }
  return (async () => {
    for (let start = 0; start < data.length; start += HASH_STEP) {
      hash.update(data.subarray(start, start + HASH_STEP));
      ctx.chargeWork(HASH_STEP);
      const pause = ctx.pauseIfDue();
      if (pause) await pause;
    }
    return hash.digest();
  })();
}

/** The node's hash of data (see `hashInSteps`); short data goes through the node's fastest hasher. */
function digestOf(ctx: BuiltinContext, data: Uint8Array): Promise<Uint8Array> | Uint8Array {
  const { hasher } = hostOf(ctx).crypto;
  return data.length < HASH_STEP ? hasher.hash(data) : hashInSteps(ctx, data, incrementalHash(hasher.name));
}

function then<T, R>(value: T | Promise<T>, next: (resolved: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value as T);
}

/** Hash(value): hex of the node's hasher over the value's bytes (text as UTF-8). */
function hash(ctx: BuiltinContext, value: Value): Value | Promise<Value> {
  if (!(value instanceof Uint8Array) && typeof value !== 'string')
    throw panic(`Unsupported type ${goTypeName(value)}`);
  const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return then(digestOf(ctx, data), (digest) => Buffer.from(digest).toString('hex'));
}

/** The node's hash function, for HMAC. */
const HASH_FUNCTIONS: Record<HasherName, CHash> = {
  KECCAK256: keccak_256,
  SHA256: sha256,
  SHA3_256: sha3_256,
};

function dataBytes(value: Value, fn: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  throw panic(`${fn} takes text or bytes`);
}

/** DoubleHash(data): the node's hash of its hash, as bytes. */
function doubleHash(ctx: BuiltinContext, value: Value): Value | Promise<Value> {
  const { hasher } = hostOf(ctx).crypto;
  return then(digestOf(ctx, dataBytes(value, 'DoubleHash')), (digest) => hasher.hash(digest));
}

/** HMac(key, data, raw): HMAC with the node's hash; hex, or the raw bytes as text when `raw`. */
function hmacBuiltin(ctx: BuiltinContext, key: Value, data: Value, raw: Value): Value | Promise<Value> {
  const hash = HASH_FUNCTIONS[hostOf(ctx).crypto.hasher.name];
  const mac = hmac.create(hash, Buffer.from(textArg(key, 'key')));
  return then(hashInSteps(ctx, Buffer.from(textArg(data, 'data')), mac), (digest) =>
    raw === true ? Buffer.from(digest).toString('utf8') : Buffer.from(digest).toString('hex'),
  );
}

function hexArg(value: Value, what: string): Uint8Array {
  const text = textArg(value, what);
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw panic(`encoding/hex: invalid ${what}`);
  return Buffer.from(text, 'hex');
}

/** CheckSign(pub, data, sign): whether `sign` (hex) signs `data` for the public key `pub` (hex), node's curve. */
function checkSign(ctx: BuiltinContext, pub: Value, data: Value, sign: Value): Value | Promise<Value> {
  const key = hexArg(pub, 'public key');
  const signature = hexArg(sign, 'signature');
  return then(digestOf(ctx, Buffer.from(textArg(data, 'data'))), (digest) => {
    try {
      hostOf(ctx).crypto.signer.verifyDigest(key, digest, signature);
      return true;
    } catch (error) {
      if (error instanceof CryptoError) return false;
      throw error;
    }
  });
}

/**
 * SeedToID(seed): the key id of the key pair a seed phrase stands for: the private key is the node's hash of
 * the seed text, on the node's curve.
 */
function seedToId(ctx: BuiltinContext, seed: Value): Value | Promise<Value> {
  const { crypto } = hostOf(ctx);
  return then(digestOf(ctx, Buffer.from(textArg(seed, 'seed'))), (privateKey) => {
    try {
      return crypto.keyId(crypto.signer.publicKey(privateKey));
    } catch (error) {
      throw panic((error as Error).message);
    }
  });
}

/** FormatMoney(exp, digits): with digits 0, the money digits of the transaction's ecosystem. */
async function formatMoneyBuiltin(ctx: BuiltinContext, exp: Value, digitsArg: Value): Promise<Value> {
  let digits = intArg(digitsArg, 'digits');
  if (digits === 0n) {
    const row = await hostOf(ctx).sql.one<{ digits: string }>(
      'SELECT "digits" FROM "1_ecosystems" WHERE "id" = $1',
      [ecosystemOf(ctx).toString()],
    );
    digits = row ? BigInt(row.digits) : 0n;
  }
  return formatMoney(textArg(exp, 'money'), digits);
}

export const ACCOUNT_BUILTINS: BuiltinDef[] = [
  { name: 'AddressToId', fn: addressToIdBuiltin, params: 1, async: false },
  { name: 'IdToAddress', fn: idToAddress, params: 1, async: false },
  { name: 'PubToID', fn: pubToId, params: 1, async: false },
  { name: 'HexToPub', fn: hexToPub, params: 1, async: false },
  { name: 'Hash', fn: hash, params: 1 },
  { name: 'DoubleHash', fn: doubleHash, params: 1 },
  { name: 'HMac', fn: hmacBuiltin, params: 3 },
  { name: 'CheckSign', fn: checkSign, params: 3 },
  { name: 'SeedToID', fn: seedToId, params: 1 },
  { name: 'FormatMoney', fn: formatMoneyBuiltin, params: 2 },
];

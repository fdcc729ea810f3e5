import { hmac } from '@noble/hashes/hmac.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CHash } from '@noble/hashes/utils.js';
import { addressToId, CryptoError, keyIdToAddress, parsePublicKey, type HasherName } from '../../crypto';
import { formatMoney, panic, type BuiltinContext, type BuiltinDef, type Value } from '../../vm';
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

/** Hash(value): hex of the node's hasher over the value's bytes (text as UTF-8). */
function hash(ctx: BuiltinContext, value: Value): Value {
  if (!(value instanceof Uint8Array) && typeof value !== 'string') throw panic('Hash takes text or bytes');
  const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return hostOf(ctx).crypto.hasher.hashHex(data);
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
function doubleHash(ctx: BuiltinContext, value: Value): Value {
  return hostOf(ctx).crypto.hasher.doubleHash(dataBytes(value, 'DoubleHash'));
}

/** HMac(key, data, raw): HMAC with the node's hash; hex, or the raw bytes as text when `raw`. */
function hmacBuiltin(ctx: BuiltinContext, key: Value, data: Value, raw: Value): Value {
  const hash = HASH_FUNCTIONS[hostOf(ctx).crypto.hasher.name];
  const mac = hmac(hash, Buffer.from(textArg(key, 'key')), Buffer.from(textArg(data, 'data')));
  return raw === true ? Buffer.from(mac).toString('utf8') : Buffer.from(mac).toString('hex');
}

function hexArg(value: Value, what: string): Uint8Array {
  const text = textArg(value, what);
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw panic(`encoding/hex: invalid ${what}`);
  return Buffer.from(text, 'hex');
}

/** CheckSign(pub, data, sign): whether `sign` (hex) signs `data` for the public key `pub` (hex), node's curve. */
function checkSign(ctx: BuiltinContext, pub: Value, data: Value, sign: Value): Value {
  const key = hexArg(pub, 'public key');
  const signature = hexArg(sign, 'signature');
  try {
    hostOf(ctx).crypto.signer.verify(key, Buffer.from(textArg(data, 'data')), signature);
    return true;
  } catch (error) {
    if (error instanceof CryptoError) return false;
    throw error;
  }
}

/**
 * SeedToID(seed): the key id of the key pair a seed phrase stands for: the private key is the node's hash of
 * the seed text, on the node's curve.
 */
function seedToId(ctx: BuiltinContext, seed: Value): Value {
  const { crypto } = hostOf(ctx);
  const privateKey = crypto.hasher.hash(Buffer.from(textArg(seed, 'seed')));
  try {
    return crypto.keyId(crypto.signer.publicKey(privateKey));
  } catch (error) {
    throw panic((error as Error).message);
  }
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
  { name: 'Hash', fn: hash, params: 1, async: false },
  { name: 'DoubleHash', fn: doubleHash, params: 1, async: false },
  { name: 'HMac', fn: hmacBuiltin, params: 3, async: false },
  { name: 'CheckSign', fn: checkSign, params: 3, async: false },
  { name: 'SeedToID', fn: seedToId, params: 1, async: false },
  { name: 'FormatMoney', fn: formatMoneyBuiltin, params: 2 },
];

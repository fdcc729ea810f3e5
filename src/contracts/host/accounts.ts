import { addressToId, keyIdToAddress, parsePublicKey } from '../../crypto';
import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../../vm';
import { hostOf } from './state';

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

function blockTime(ctx: BuiltinContext): Value {
  return hostOf(ctx).block.time;
}

export const ACCOUNT_BUILTINS: BuiltinDef[] = [
  { name: 'AddressToId', fn: addressToIdBuiltin, params: 1, async: false },
  { name: 'IdToAddress', fn: idToAddress, params: 1, async: false },
  { name: 'PubToID', fn: pubToId, params: 1, async: false },
  { name: 'HexToPub', fn: hexToPub, params: 1, async: false },
  { name: 'Hash', fn: hash, params: 1, async: false },
  { name: 'BlockTime', fn: blockTime, params: 0, async: false },
];

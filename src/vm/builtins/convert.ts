import type Decimal from 'decimal.js';
import { panic } from '../errors';
import { goString } from '../format';
import { boundedMoney, checkInt64, parseDecimal, parseGoFloat, parseGoInt } from '../operators';
import type { BuiltinContext } from '../context';
import { arrayCost, bytesCost, scalarCost } from '../memory';
import {
  goTypeName,
  isMoney,
  moneyToString,
  MoneyDecimal,
  utf8Bytes,
  utf8Size,
  utf8Text,
  type Value,
} from '../values';
import { reserveText } from './budget';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/** Like the reference's ValueToInt: "" is 0, other strings must parse fully. */
export function toInt(value: Value): bigint {
  switch (typeof value) {
    case 'bigint':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw panic(`${goString(value)} is not a valid integer`);
      return checkInt64(BigInt(Math.trunc(value)));
    case 'string': {
      if (value === '') return 0n;
      try {
        return parseGoInt(value);
      } catch (error) {
        const reason = (error as Error).message;
        throw panic(`${value} is not a valid integer ${reason.slice(reason.lastIndexOf(':'))}`);
      }
    }
    default:
      if (isMoney(value)) return checkInt64(BigInt(value.trunc().toFixed()));
      throw panic(`${goString(value)} is not a valid integer`);
  }
}

/** `Float(v)`: like the reference's ValueToFloat, which never fails: what is not a number is 0. */
export function toFloatValue(value: Value): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'bigint':
      return Number(value);
    case 'string':
      try {
        return parseGoFloat(value);
      } catch {
        return 0;
      }
    default:
      return isMoney(value) ? value.toNumber() : 0;
  }
}

/** `Money(v)`: the reference's decimal conversion, which floors floats and strings to a whole number. */
export function toMoneyValue(value: Value): Decimal {
  switch (typeof value) {
    case 'bigint':
      return new MoneyDecimal(value.toString());
    case 'number':
      if (!Number.isFinite(value)) throw panic(`${goString(value)} is not a valid money`);
      return boundedMoney(new MoneyDecimal(value).floor());
    case 'string':
      if (value === '') return new MoneyDecimal(0);
      return parseDecimal(value.trim()).floor();
    default:
      if (isMoney(value)) return value;
      throw panic(`${goString(value)} is not a valid money`);
  }
}

function hexToBytes(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw panic('encoding/hex: odd length hex string');
  const invalid = /[^0-9a-fA-F]/.exec(text);
  if (invalid) {
    const code = invalid[0].codePointAt(0)!;
    throw panic(
      `encoding/hex: invalid byte: U+${code.toString(16).toUpperCase().padStart(4, '0')} '${invalid[0]}'`,
    );
  }
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** A map's keys as a new array (the key strings are the map's). */
function keysOf(ctx: BuiltinContext, map: Map<string, Value>): string[] {
  ctx.reserveMemory(arrayCost(map.size));
  ctx.chargeWork(map.size);
  return [...map.keys()];
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function expectMap(value: Value, fn: string): Map<string, Value> {
  if (!(value instanceof Map)) throw panic(`${fn}: parameter 1 must be map, got ${goTypeName(value)}`);
  return value;
}

/** Money columns are decimal(30, 0): FormatMoney refuses longer texts, as the reference does. */
const MONEY_LENGTH = 30;

/**
 * `FormatMoney(exp, digits)`: a whole amount in minimal units shown in whole units, `exp · 10^-digits`, without
 * trailing zeros ("12345", 2 → "123.45"). The host passes the ecosystem's digits when the contract gives 0.
 */
export function formatMoney(exp: string, digits: bigint): string {
  if (exp === '') return '0';
  if (exp.includes('.')) throw panic(`wrong money format ${exp}`);
  if (digits < 0n) throw panic('digit must be positive');
  if (exp.length > MONEY_LENGTH) throw panic('too long money');
  return moneyToString(parseDecimal(exp).times(new MoneyDecimal(10).pow(-Number(digits))));
}

/** Go's `==` on interface values: the same type and value; arrays, maps and bytes only when they are the same one. */
function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (isMoney(a) && isMoney(b)) return a.equals(b);
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return false;
}

export const convertBuiltins: BuiltinDef[] = [
  { name: 'Int', async: false, params: 1, fn: (_ctx, value) => toInt(value) },
  { name: 'Float', async: false, params: 1, fn: (_ctx, value) => toFloatValue(value) },
  { name: 'Money', async: false, params: 1, fn: (_ctx, value) => toMoneyValue(value) },
  {
    name: 'Len',
    async: false,
    params: 1,
    fn: (_ctx, value) => {
      if (value === null) return 0n;
      if (Array.isArray(value)) return BigInt(value.length);
      if (value instanceof Map) return BigInt(value.size);
      throw panic(`Len: parameter 1 must be array, got ${goTypeName(value)}`);
    },
  },
  {
    name: 'Append',
    async: true,
    params: 2,
    reserves: true,
    fn: (ctx, list, value) => {
      if (list !== null && !Array.isArray(list)) {
        throw panic(`Append: parameter 1 must be array, got ${goTypeName(list)}`);
      }
      const length = list === null ? 1 : list.length + 1;
      ctx.reserveMemory(arrayCost(length) + scalarCost(value));
      ctx.chargeWork(length);
      return list === null ? [value] : [...list, value];
    },
  },
  {
    name: 'GetMapKeys',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, map) => keysOf(ctx, expectMap(map, 'GetMapKeys')),
  },
  {
    name: 'SortedKeys',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, map) => {
      const keys = keysOf(ctx, expectMap(map, 'SortedKeys'));
      ctx.chargeWork(keys.length * Math.ceil(Math.log2(keys.length + 1)));
      return keys.sort(compareKeys);
    },
  },
  // The Go type of the value; nil is "nil" (not Go's "<nil>"), as in the reference.
  {
    name: 'GetType',
    async: false,
    params: 1,
    fn: (_ctx, value) => (value === null ? 'nil' : goTypeName(value)),
  },
  {
    name: 'StringToBytes',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => {
      const source = expectString(text, 'StringToBytes');
      const size = utf8Size(source);
      ctx.reserveMemory(bytesCost(size));
      ctx.chargeWork(source.length + size);
      return utf8Bytes(source);
    },
  },
  {
    name: 'BytesToString',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, bytes) => {
      if (!(bytes instanceof Uint8Array))
        throw panic(`BytesToString: parameter 1 must be bytes, got ${goTypeName(bytes)}`);
      // At most one character per byte, two bytes each when any is above U+00FF.
      reserveText(
        ctx,
        bytes.length,
        bytes.some((byte) => byte >= 0xc4),
      );
      return utf8Text(bytes);
    },
  },
  {
    name: 'HasSlice',
    async: false,
    params: 2,
    fn: (_ctx, list, value) => {
      if (list === null) return false;
      if (!Array.isArray(list)) throw panic(`HasSlice: parameter 1 must be array, got ${goTypeName(list)}`);
      return list.some((item) => sameValue(item, value));
    },
  },
  {
    name: 'FormatMoney',
    async: false,
    params: 2,
    fn: (_ctx, exp, digits) => formatMoney(expectString(exp, 'FormatMoney'), toInt(digits)),
  },
  {
    name: 'HexToBytes',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => {
      const source = expectString(text, 'HexToBytes');
      ctx.reserveMemory(bytesCost(source.length >> 1));
      ctx.chargeWork(source.length);
      return hexToBytes(source);
    },
  },
];

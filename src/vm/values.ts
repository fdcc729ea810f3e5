import Decimal from 'decimal.js';

/**
 * Digits a money value may have, its integer and fractional parts together. The reference's decimals have
 * no bound, so one multiplication loop could build a number of millions of digits; here an operation whose
 * result would need more fails with MONEY_OVERFLOW. Money columns are decimal(30, 0), so this leaves room
 * for products of several amounts before they are scaled back.
 */
export const MONEY_DIGITS = 120;
/** PostgreSQL's words for a number its column cannot hold: the reference meets them when it stores one. */
export const MONEY_OVERFLOW = 'numeric field overflow';

/**
 * Money arithmetic: exact for every operation on bounded operands (a product of two MONEY_DIGITS values
 * has twice as many digits), then checked against the bound. Division results are floored by the
 * operators, so the rounding mode only matters past that precision.
 */
export const MoneyDecimal = Decimal.clone({
  precision: 2 * MONEY_DIGITS + 60,
  rounding: Decimal.ROUND_DOWN,
  toExpPos: 1000,
  toExpNeg: -1000,
});
export type Money = Decimal;

/** A runtime value of the contract language. */
export type Value =
  | bigint // int, address
  | number // float
  | Decimal // money
  | string
  | boolean
  | Uint8Array // bytes
  | Value[] // array
  | Map<string, Value> // map, file
  | null; // nil

export type TypeName =
  'bool' | 'bytes' | 'int' | 'address' | 'array' | 'map' | 'money' | 'float' | 'string' | 'file';

export const TYPE_NAMES: ReadonlySet<string> = new Set<TypeName>([
  'bool',
  'bytes',
  'int',
  'address',
  'array',
  'map',
  'money',
  'float',
  'string',
  'file',
]);

/** The runtime kind of a value (int and address share 'int'; map and file share 'map'). */
export type Kind = 'int' | 'float' | 'money' | 'string' | 'bool' | 'bytes' | 'array' | 'map' | 'nil';

export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;

export function isMoney(value: unknown): value is Decimal {
  return value instanceof Decimal;
}

export function kindOf(value: Value): Kind {
  switch (typeof value) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      if (value === null) return 'nil';
      if (Array.isArray(value)) return 'array';
      if (value instanceof Map) return 'map';
      if (value instanceof Uint8Array) return 'bytes';
      if (value instanceof Decimal) return 'money';
      return 'nil';
  }
}

/** The kind a declared type stores. */
export function kindOfType(type: TypeName): Kind {
  switch (type) {
    case 'address':
      return 'int';
    case 'file':
      return 'map';
    default:
      return type;
  }
}

/** Go type names, used in error texts and in Sprintf's `%!verb(type=value)` output. */
export function goTypeName(value: Value): string {
  switch (kindOf(value)) {
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'money':
      return 'decimal.Decimal';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'bytes':
      return '[]uint8';
    case 'array':
      return '[]interface {}';
    case 'map':
      return '*types.Map';
    default:
      return '<nil>';
  }
}

export function newFileValue(): Map<string, Value> {
  return new Map<string, Value>([
    ['Name', ''],
    ['MimeType', ''],
    ['Body', new Uint8Array(0)],
  ]);
}

export function zeroValue(type: TypeName): Value {
  switch (type) {
    case 'int':
    case 'address':
      return 0n;
    case 'float':
      return 0;
    case 'money':
      return new MoneyDecimal(0);
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return new Uint8Array(0);
    case 'array':
      return [];
    case 'map':
      return new Map<string, Value>();
    case 'file':
      return newFileValue();
  }
}

export function isTruthy(value: Value): boolean {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'bigint':
      return value !== 0n;
    case 'number':
      return value !== 0;
    case 'string':
      return value.length > 0;
    default:
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof Map) return value.size > 0;
      if (value instanceof Uint8Array) return value.length > 0;
      if (value instanceof Decimal) return !value.isZero();
      return false;
  }
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function utf8Text(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** Byte length of a string in UTF-8 without allocating when it is pure ASCII. */
export function utf8Size(text: string): number {
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) size += 1;
    else if (code < 0x800) size += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      size += 4;
      i++;
    } else size += 3;
  }
  return size;
}

export function moneyToString(value: Decimal): string {
  if (value.isZero()) return '0';
  return value.toFixed();
}

/** Values returned by a function with several results travel as one `Results` object. */
export class Results {
  constructor(readonly values: Value[]) {}
}

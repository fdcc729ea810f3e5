import type Decimal from 'decimal.js';
import { panic } from './errors';
import {
  INT64_MAX,
  INT64_MIN,
  isMoney,
  isTruthy,
  kindOf,
  MONEY_DIGITS,
  MONEY_OVERFLOW,
  MoneyDecimal,
  utf8Bytes,
  type Value,
} from './values';

export const UNSUPPORTED_TYPES = 'unsupported combination of types in the operator';

export function unsupported(): never {
  throw panic(UNSUPPORTED_TYPES);
}

export function checkInt64(value: bigint): bigint {
  if (value > INT64_MAX || value < INT64_MIN) throw panic('integer overflow');
  return value;
}

const INT_PATTERN = /^[+-]?\d+$/;
const FLOAT_PATTERN = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;
const DECIMAL_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Go strconv.ParseInt(s, 10, 64). */
export function parseGoInt(text: string): bigint {
  if (!INT_PATTERN.test(text))
    throw panic(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) {
    throw panic(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return value;
}

/**
 * A string operand beside an int, as the reference converts it (its ValueToInt): "" is 0, anything else
 * must be a whole int64, else "<text> is not a valid integer : invalid syntax" (or ": value out of range").
 */
export function stringToInt(text: string): bigint {
  if (text === '') return 0n;
  if (!INT_PATTERN.test(text)) throw panic(`${text} is not a valid integer : invalid syntax`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN)
    throw panic(`${text} is not a valid integer : value out of range`);
  return value;
}

/** A string operand beside a float, as the reference converts it (its ValueToFloat): what does not parse is 0. */
function stringToFloat(text: string): number {
  try {
    return parseGoFloat(text);
  } catch {
    return 0;
  }
}

/** Go strconv.ParseFloat(s, 64) for the decimal forms contracts use (plus inf/nan). */
export function parseGoFloat(text: string): number {
  if (FLOAT_PATTERN.test(text)) return Number(text);
  const lower = text.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return NaN;
  throw panic(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/** The value itself, or MONEY_OVERFLOW when it has more than MONEY_DIGITS digits. */
export function boundedMoney(value: Decimal): Decimal {
  if (value.isZero() || !value.isFinite()) return value;
  const integerDigits = Math.max(value.e + 1, 0);
  if (integerDigits > MONEY_DIGITS || integerDigits + value.decimalPlaces() > MONEY_DIGITS) {
    throw panic(MONEY_OVERFLOW);
  }
  return value;
}

/** Whether a text is a decimal as shopspring's decimal.NewFromString reads it. */
export function isDecimalText(text: string): boolean {
  return DECIMAL_PATTERN.test(text);
}

/** A decimal from text, as shopspring's decimal.NewFromString accepts it, within the money bound. */
export function parseDecimal(text: string): Decimal {
  if (!DECIMAL_PATTERN.test(text)) throw panic(`can't convert ${text} to decimal`);
  return boundedMoney(new MoneyDecimal(text));
}

/** A decimal for comparison with money: strings and floats are floored. */
function toComparableDecimal(value: Value): Decimal {
  switch (kindOf(value)) {
    case 'money':
      return value as Decimal;
    case 'int':
      return new MoneyDecimal((value as bigint).toString());
    case 'float':
      if (!Number.isFinite(value as number)) unsupported();
      return boundedMoney(new MoneyDecimal(value as number).floor());
    case 'string':
      return parseDecimal(value as string).floor();
    default:
      return unsupported();
  }
}

function toFloat(value: Value): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'bigint':
      return Number(value);
    case 'string':
      return stringToFloat(value);
    default:
      return unsupported();
  }
}

type Arith = '+' | '-' | '*' | '/';

function intArith(op: Arith, a: bigint, b: bigint): bigint {
  let r: bigint;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '/':
      if (b === 0n) throw panic('divided by zero');
      r = a / b;
      break;
  }
  if (r > INT64_MAX || r < INT64_MIN) throw panic('integer overflow');
  return r;
}

function floatArith(op: Arith, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw panic('divided by zero');
      return a / b;
  }
}

function moneyArith(op: Arith, a: Decimal, b: Decimal): Decimal {
  switch (op) {
    case '+':
      return boundedMoney(a.plus(b));
    case '-':
      return boundedMoney(a.minus(b));
    case '*':
      return boundedMoney(a.times(b));
    case '/':
      if (b.isZero()) throw panic('divided by zero');
      return boundedMoney(a.div(b).floor());
  }
}

/** `+ - * /` with the reference's mixed-type rules. */
export function arith(op: Arith, a: Value, b: Value): Value {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint') {
    if (tb === 'bigint') return intArith(op, a as bigint, b as bigint);
    if (tb === 'string') return intArith(op, a as bigint, stringToInt(b as string));
    if (tb === 'number') return floatArith(op, Number(a), b as number);
    return unsupported();
  }
  if (ta === 'number') {
    if (tb === 'number' || tb === 'bigint' || tb === 'string') return floatArith(op, a as number, toFloat(b));
    return unsupported();
  }
  if (ta === 'string') {
    if (tb === 'string') {
      if (op === '+') return (a as string) + (b as string);
      return unsupported();
    }
    if (tb === 'bigint') return intArith(op, stringToInt(a as string), b as bigint);
    if (tb === 'number') return floatArith(op, stringToFloat(a as string), b as number);
    return unsupported();
  }
  if (isMoney(a) && isMoney(b)) return moneyArith(op, a, b);
  return unsupported();
}

export function add(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    const r = a + b;
    if (r > INT64_MAX || r < INT64_MIN) throw panic('integer overflow');
    return r;
  }
  return arith('+', a, b);
}

export function sub(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    const r = a - b;
    if (r > INT64_MAX || r < INT64_MIN) throw panic('integer overflow');
    return r;
  }
  return arith('-', a, b);
}

export function mul(a: Value, b: Value): Value {
  return arith('*', a, b);
}

export function div(a: Value, b: Value): Value {
  return arith('/', a, b);
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  // Go compares strings byte-wise (UTF-8); UTF-16 order differs only for code points above U+FFFF.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\ud7ff]*$/.test(a) && /^[\x00-\ud7ff]*$/.test(b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(utf8Bytes(a)), Buffer.from(utf8Bytes(b)));
}

function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFloat(a: number, b: number): number {
  // NaN compares false both ways in Go; map it to a value that makes every ordered comparison false.
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Three-way comparison under the mixed-type rules (operand order matters for money). */
export function compare(a: Value, b: Value): number {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint') {
    if (tb === 'bigint') return compareBig(a as bigint, b as bigint);
    if (tb === 'string') return compareBig(a as bigint, stringToInt(b as string));
    if (tb === 'number') return compareFloat(Number(a), b as number);
    return unsupported();
  }
  if (ta === 'number') {
    if (tb === 'number' || tb === 'bigint' || tb === 'string') return compareFloat(a as number, toFloat(b));
    return unsupported();
  }
  if (ta === 'string') {
    if (tb === 'string') return compareText(a as string, b as string);
    if (tb === 'bigint') return compareBig(stringToInt(a as string), b as bigint);
    if (tb === 'number') return compareFloat(stringToFloat(a as string), b as number);
    if (isMoney(b)) return toComparableDecimal(a).comparedTo(b);
    return unsupported();
  }
  if (isMoney(a)) return a.comparedTo(toComparableDecimal(b));
  return unsupported();
}

export function lt(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  return compare(a, b) < 0;
}
export function le(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a <= b;
  return compare(a, b) <= 0;
}
export function gt(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a > b;
  return compare(a, b) > 0;
}
export function ge(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a >= b;
  return compare(a, b) >= 0;
}

export function eq(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  if (a === null || b === null) return a === b;
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    if (typeof a === 'boolean' && typeof b === 'boolean') return a === b;
    return unsupported();
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (Array.isArray(a) || Array.isArray(b) || a instanceof Map || b instanceof Map) return unsupported();
  return compare(a, b) === 0;
}

export function ne(a: Value, b: Value): boolean {
  return !eq(a, b);
}

export function and(a: Value, b: Value): boolean {
  return isTruthy(a) && isTruthy(b);
}

export function or(a: Value, b: Value): boolean {
  return isTruthy(a) || isTruthy(b);
}

export function negate(a: Value): Value {
  switch (typeof a) {
    case 'bigint':
      if (a === INT64_MIN) throw panic('integer overflow');
      return -a;
    case 'number':
      return -a;
    default:
      if (isMoney(a)) return a.negated();
      return unsupported();
  }
}

export function not(a: Value): boolean {
  return !isTruthy(a);
}

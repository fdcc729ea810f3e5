import { sha256 } from '@noble/hashes/sha2.js';
import type Decimal from 'decimal.js';
import type { BuiltinContext } from '../context';
import { panic } from '../errors';
import { goString } from '../format';
import { boundedMoney, isDecimalText, parseDecimal, parseGoFloat } from '../operators';
import { INT64_MAX, INT64_MIN, isMoney, moneyToString, MoneyDecimal, utf8Bytes, type Value } from '../values';
import type { BuiltinDef } from './registry';

const INCORRECT_FLOAT_VALUE = 'incorrect float value';
const INCORRECT_FLOAT_RESULT = 'incorrect float result';
/** shopspring/decimal's DivisionPrecision: quotients keep 16 decimal places, rounded half away from zero. */
const DIVISION_PLACES = 16;

/** The argument of Floor, Round, Log, Log10, Pow and Sqrt: a float, an int, or a string holding a float. */
function floatArg(value: Value): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    try {
      return parseGoFloat(value);
    } catch {
      throw panic(INCORRECT_FLOAT_VALUE);
    }
  }
  throw panic(INCORRECT_FLOAT_VALUE);
}

function finite(result: number): number {
  if (!Number.isFinite(result)) throw panic(INCORRECT_FLOAT_RESULT);
  return result;
}

function toInt64(result: number): bigint {
  const value = BigInt(finite(result));
  if (value > INT64_MAX || value < INT64_MIN) throw panic(INCORRECT_FLOAT_RESULT);
  return value;
}

/** Go's math.Round: halves go away from zero. */
function roundHalfAwayFromZero(x: number): number {
  const truncated = Math.trunc(x);
  return Math.abs(x - truncated) >= 0.5 ? truncated + Math.sign(x) : truncated;
}

/**
 * A decimal as the string functions (Div, GreaterThan, SqrtDecimal …) read their arguments: text that is not a
 * number reads as 0, as the reference ignores the parse error. Ints and money are taken by their text.
 */
function lenientDecimal(value: Value): Decimal {
  if (isMoney(value)) return value;
  const text = typeof value === 'string' ? value : goString(value);
  return isDecimalText(text) ? parseDecimal(text) : new MoneyDecimal(0);
}

function divide(dividend: Decimal, divisor: Decimal): Decimal {
  if (divisor.isZero()) throw panic('decimal division by 0');
  return dividend.div(divisor).toDecimalPlaces(DIVISION_PLACES, MoneyDecimal.ROUND_HALF_UP);
}

/** Newton's iteration as the reference runs it: 16-place quotients, stopping when it no longer decreases. */
function sqrtDecimal(value: Value): Decimal {
  const y = lenientDecimal(value);
  const two = new MoneyDecimal(2);
  if (y.greaterThan(3)) {
    let z = y;
    let x = divide(y, two).plus(1);
    while (x.lessThan(z)) {
      z = x;
      x = divide(divide(y, x).plus(x), two);
    }
    return z;
  }
  return new MoneyDecimal(y.isZero() ? 0 : 1);
}

function moneyArg(value: Value, fn: string): Decimal {
  if (isMoney(value)) return value;
  if (typeof value === 'bigint') return new MoneyDecimal(value.toString());
  if (typeof value === 'string') return parseDecimal(value);
  throw panic(`${fn}: parameter must be money, got ${goString(value)}`);
}

/**
 * The random numbers of one execution: a deterministic stream seeded from the block and the transaction
 * (`$block`, `$block_time`, `$txhash`), so every node that plays the block draws the same numbers.
 */
class BlockRandom {
  private counter = 0n;
  private readonly seed: Uint8Array;

  constructor(ctx: BuiltinContext) {
    const part = (name: string): string => {
      const value = ctx.getVar(name);
      return value === undefined || value === null ? '' : goString(value);
    };
    this.seed = sha256(utf8Bytes(`${part('block')}|${part('block_time')}|${part('txhash')}`));
  }

  /** 63 uniformly random bits. */
  private next63(): bigint {
    const input = new Uint8Array(this.seed.length + 8);
    input.set(this.seed);
    new DataView(input.buffer).setBigUint64(this.seed.length, this.counter++);
    const digest = sha256(input);
    return new DataView(digest.buffer, digest.byteOffset).getBigUint64(0) >> 1n;
  }

  /** Uniform in [0, n), without modulo bias. */
  below(n: bigint): bigint {
    const limit = (1n << 63n) - ((1n << 63n) % n);
    for (;;) {
      const draw = this.next63();
      if (draw < limit) return draw % n;
    }
  }

  /** Uniform in [0, 1) with 53 bits, like Go's Float64. */
  fraction(): number {
    return Number(this.next63() >> 10n) / 2 ** 53;
  }
}

const randoms = new WeakMap<BuiltinContext, BlockRandom>();

function randomOf(ctx: BuiltinContext): BlockRandom {
  let random = randoms.get(ctx);
  if (!random) {
    random = new BlockRandom(ctx);
    randoms.set(ctx, random);
  }
  return random;
}

function wrongRandom(min: Value, max: Value): never {
  throw panic(`wrong random parameters min: ${goString(min)}, max: ${goString(max)}`);
}

function numberArg(value: Value, fn: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw panic(`${fn}: parameter must be float, got ${goString(value)}`);
}

function intArg(value: Value, fn: string): bigint {
  if (typeof value === 'bigint') return value;
  throw panic(`${fn}: parameter must be int, got ${goString(value)}`);
}

const compare =
  (test: (order: number) => boolean) =>
  (_ctx: BuiltinContext, left: Value, right: Value): Value =>
    test(lenientDecimal(left).comparedTo(lenientDecimal(right)));

export const mathBuiltins: BuiltinDef[] = [
  { name: 'Floor', async: false, params: 1, fn: (_ctx, x) => toInt64(Math.floor(floatArg(x))) },
  { name: 'Round', async: false, params: 1, fn: (_ctx, x) => toInt64(roundHalfAwayFromZero(floatArg(x))) },
  { name: 'Log', async: false, params: 1, fn: (_ctx, x) => finite(Math.log(floatArg(x))) },
  { name: 'Log10', async: false, params: 1, fn: (_ctx, x) => finite(Math.log10(floatArg(x))) },
  { name: 'Pow', async: false, params: 2, fn: (_ctx, x, y) => finite(Math.pow(floatArg(x), floatArg(y))) },
  { name: 'Sqrt', async: false, params: 1, fn: (_ctx, x) => finite(Math.sqrt(floatArg(x))) },
  { name: 'SqrtDecimal', async: false, params: 1, fn: (_ctx, x) => sqrtDecimal(x) },
  {
    name: 'MathMod',
    async: false,
    params: 2,
    // Go's math.Mod: the result has the sign of x; a zero divisor gives NaN, not an error.
    fn: (_ctx, x, y) => numberArg(x, 'MathMod') % numberArg(y, 'MathMod'),
  },
  {
    name: 'MathModDecimal',
    async: false,
    params: 2,
    fn: (_ctx, x, y) => {
      const divisor = moneyArg(y, 'MathModDecimal');
      if (divisor.isZero()) throw panic('decimal division by 0');
      return boundedMoney(moneyArg(x, 'MathModDecimal').mod(divisor));
    },
  },
  {
    name: 'Div',
    async: false,
    params: 2,
    fn: (_ctx, x, y) => moneyToString(divide(lenientDecimal(x), lenientDecimal(y))),
  },
  { name: 'GreaterThan', async: false, params: 2, fn: compare((order) => order > 0) },
  { name: 'GreaterThanOrEqual', async: false, params: 2, fn: compare((order) => order >= 0) },
  { name: 'LessThan', async: false, params: 2, fn: compare((order) => order < 0) },
  { name: 'LessThanOrEqual', async: false, params: 2, fn: compare((order) => order <= 0) },
  {
    name: 'Random',
    async: false,
    params: 2,
    fn: (ctx, minArg, maxArg) => {
      const min = intArg(minArg, 'Random');
      const max = intArg(maxArg, 'Random');
      if (min < 0n || max < 0n || min >= max) wrongRandom(minArg, maxArg);
      return min + randomOf(ctx).below(max - min);
    },
  },
  {
    name: 'RandomFloat',
    async: false,
    params: 2,
    fn: (ctx, minArg, maxArg) => {
      const min = numberArg(minArg, 'RandomFloat');
      const max = numberArg(maxArg, 'RandomFloat');
      if (min < 0 || max < 0 || min >= max) wrongRandom(minArg, maxArg);
      return min + randomOf(ctx).fraction() * (max - min);
    },
  },
  {
    name: 'RandomDecimal',
    async: false,
    params: 2,
    fn: (ctx, minArg, maxArg) => {
      const min = moneyArg(minArg, 'RandomDecimal');
      const max = moneyArg(maxArg, 'RandomDecimal');
      if (min.isNegative() || max.isNegative() || min.greaterThanOrEqualTo(max)) wrongRandom(minArg, maxArg);
      return new MoneyDecimal(randomOf(ctx).fraction()).times(max.minus(min)).plus(min).floor();
    },
  },
];

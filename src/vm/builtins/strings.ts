import { MAX_ARRAY_LENGTH, MEMORY_LIMIT_EXCEEDED, type BuiltinContext } from '../context';
import { panic } from '../errors';
import { arrayCost, isTwoByte, MAX_STRING_LENGTH, stringCostOf } from '../memory';
import { goSprintf } from '../sprintf';
import { goTypeName, utf8Bytes, utf8Size, utf8Text, type Value } from '../values';
import { detach, reserveText, textBudget, textOf } from './budget';
import type { BuiltinDef } from './registry';

export function expectString(value: Value, fn: string, position = 1): string {
  if (typeof value !== 'string')
    throw panic(`${fn}: parameter ${position} must be string, got ${goTypeName(value)}`);
  return value;
}

export function expectInt(value: Value, fn: string, position = 1): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value));
  throw panic(`${fn}: parameter ${position} must be int, got ${goTypeName(value)}`);
}

/** Go's unicode.IsSpace set, which strings.TrimSpace uses. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM_SPACE = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

/** Go `strings.Split`: an empty separator splits into UTF-8 sequences (code points). */
function goSplit(ctx: BuiltinContext, text: string, separator: string): string[] {
  // The pieces are counted and sized first: one call may otherwise make millions of strings.
  let count = 0;
  let bytes = 0;
  const twoByte = isTwoByte(text);
  if (separator === '') {
    for (let i = 0; i < text.length; i++, count++) {
      const code = text.charCodeAt(i);
      const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
      if (pair) i++;
      bytes += stringCostOf(pair ? 2 : 1, twoByte && code > 0xff);
    }
  } else {
    for (let start = 0; ; count++) {
      const at = text.indexOf(separator, start);
      bytes += stringCostOf((at < 0 ? text.length : at) - start, twoByte);
      if (at < 0) break;
      start = at + separator.length;
    }
    count++;
  }
  // No array a contract makes holds more elements than `a[i] = x` can reach.
  if (count > MAX_ARRAY_LENGTH) throw panic(MEMORY_LIMIT_EXCEEDED);
  ctx.reserveMemory(arrayCost(count) + bytes);
  ctx.chargeWork(text.length + count);
  const pieces = separator === '' ? [...text] : text.split(separator);
  for (let i = 0; i < pieces.length; i++) pieces[i] = detach(pieces[i]);
  return pieces;
}

/**
 * Substr counts bytes: an offset past the end gives "", a length past the end stops at the end. Only the
 * characters up to the end of the piece are looked at, and only the piece is encoded.
 */
export function substrBytes(text: string, offset: bigint, length: bigint): string {
  if (offset < 0n || length < 0n) return '';
  if (!NON_ASCII.test(text)) {
    if (offset > BigInt(text.length)) return '';
    const end = offset + length > BigInt(text.length) ? text.length : Number(offset + length);
    return detach(text.slice(Number(offset), end));
  }
  // Characters before the piece, then those it touches: a piece may start or end inside a character.
  let byte = 0;
  let first = -1;
  let firstByte = 0;
  let stop = text.length;
  const from = Number(offset > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : offset);
  const to = Number(
    offset + length > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : offset + length,
  );
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const units = code > 0xffff ? 2 : 1;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (first < 0 && byte + size > from) {
      first = i;
      firstByte = byte;
    }
    byte += size;
    i += units;
    if (byte >= to) {
      stop = i;
      break;
    }
  }
  if (first < 0) return '';
  const bytes = utf8Bytes(text.slice(first, stop));
  const end = Math.min(to - firstByte, bytes.length);
  return utf8Text(bytes.subarray(from - firstByte, end));
}

const NON_ASCII = /[^\u0000-\u007f]/; // eslint-disable-line no-control-regex

/**
 * Go `strings.Replace(s, old, new, -1)`, its result sized before it is built. A long text is replaced in
 * steps of REPLACE_STEP matches, each by the engine's split and join, with a pause between steps when the
 * time slice is over: millions of matches take a while.
 */
function replaceAll(
  ctx: BuiltinContext,
  source: string,
  old: string,
  replacement: string,
): string | Promise<string> {
  if (old === '') return insertEverywhere(ctx, source, replacement);
  // At most one match per `old.length` characters: when even that many fit, there is no need to count.
  const most = Math.floor(source.length / old.length);
  const twoByte = isTwoByte(source) || isTwoByte(replacement);
  const grows = replacement.length > old.length;
  if (!grows || source.length + most * (replacement.length - old.length) <= MAX_STRING_LENGTH) {
    reserveText(
      ctx,
      grows ? source.length + most * (replacement.length - old.length) : source.length,
      twoByte,
    );
  } else {
    let count = 0;
    for (let at = source.indexOf(old); at >= 0; at = source.indexOf(old, at + old.length)) count++;
    ctx.chargeWork(count);
    reserveText(ctx, source.length + count * (replacement.length - old.length), twoByte);
  }
  if (source.length < REPLACE_STEP) return source.split(old).join(replacement);
  return replaceInSteps(ctx, source, old, replacement);
}

const REPLACE_STEP = 1 << 16;

async function replaceInSteps(
  ctx: BuiltinContext,
  source: string,
  old: string,
  replacement: string,
): Promise<string> {
  let out = '';
  let start = 0;
  let matches = 0;
  for (let at = source.indexOf(old); at >= 0; at = source.indexOf(old, at + old.length)) {
    if (++matches < REPLACE_STEP) continue;
    // A step ends after a match, where a scan from its start finds the same matches as the whole scan.
    const end = at + old.length;
    out += source.slice(start, end).split(old).join(replacement);
    start = end;
    matches = 0;
    ctx.chargeWork(REPLACE_STEP);
    const pause = ctx.pauseIfDue();
    if (pause) await pause;
  }
  return out + source.slice(start).split(old).join(replacement);
}

/** Go inserts the replacement before every code point and at the end (the empty pattern, in unicode mode). */
function insertEverywhere(ctx: BuiltinContext, source: string, replacement: string): string {
  let points = 1;
  for (let i = 0; i < source.length; i++, points++) {
    const code = source.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < source.length) i++;
  }
  reserveText(ctx, source.length + points * replacement.length, isTwoByte(source) || isTwoByte(replacement));
  return source.replace(/(?:)/gu, replacement.replace(/\$/g, '$$$$'));
}

/** Go's unicode upper/lower case of a text: a few characters grow (ß → SS), and their extra is reserved after. */
function changeCase(ctx: BuiltinContext, text: string, upper: boolean): string {
  const twoByte = isTwoByte(text);
  reserveText(ctx, text.length, twoByte);
  const changed = upper ? text.toUpperCase() : text.toLowerCase();
  if (changed.length > text.length) reserveText(ctx, changed.length - text.length, twoByte);
  return changed;
}

function join(ctx: BuiltinContext, list: Value[], separator: string): string {
  const texts = list.map((item) => textOf(ctx, item));
  const length =
    texts.reduce((sum, text) => sum + text.length, 0) + separator.length * Math.max(list.length - 1, 0);
  reserveText(ctx, length, isTwoByte(separator) || texts.some(isTwoByte));
  return texts.join(separator);
}

export const stringBuiltins: BuiltinDef[] = [
  {
    name: 'Sprintf',
    async: true,
    params: [1, Infinity],
    reserves: true,
    fn: (ctx, format, ...args) => {
      const text = goSprintf(expectString(format, 'Sprintf'), args, textBudget(ctx));
      reserveText(ctx, text.length, isTwoByte(text));
      return args.some((arg) => typeof arg === 'string' && arg.length >= 13) ? detach(text) : text;
    },
  },
  // Str(nil) is "" in the reference, not Go's "<nil>".
  {
    name: 'Str',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, value) => (value === null ? '' : textOf(ctx, value)),
  },
  {
    name: 'Size',
    async: true,
    params: 1,
    reserves: true,
    fn: (_ctx, text) => BigInt(utf8Size(expectString(text, 'Size'))),
  },
  {
    name: 'Substr',
    async: true,
    params: 3,
    reserves: true,
    fn: (ctx, text, offset, length) => {
      const source = expectString(text, 'Substr');
      const start = expectInt(offset, 'Substr', 2);
      const count = expectInt(length, 'Substr', 3);
      const bound = count < BigInt(source.length) ? Number(count) : source.length;
      reserveText(ctx, Math.max(bound, 0), isTwoByte(source));
      return substrBytes(source, start, count);
    },
  },
  {
    name: 'Contains',
    async: true,
    params: 2,
    reserves: true,
    fn: (_ctx, text, part) => expectString(text, 'Contains').includes(expectString(part, 'Contains', 2)),
  },
  {
    name: 'HasPrefix',
    async: true,
    params: 2,
    reserves: true,
    fn: (_ctx, text, prefix) =>
      expectString(text, 'HasPrefix').startsWith(expectString(prefix, 'HasPrefix', 2)),
  },
  {
    name: 'Replace',
    // A long text is replaced in steps, with pauses between them.
    async: true,
    params: 3,
    reserves: true,
    fn: (ctx, text, from, to) =>
      replaceAll(
        ctx,
        expectString(text, 'Replace'),
        expectString(from, 'Replace', 2),
        expectString(to, 'Replace', 3),
      ),
  },
  {
    name: 'TrimSpace',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => {
      const source = expectString(text, 'TrimSpace');
      reserveText(ctx, source.length, isTwoByte(source));
      return detach(source.replace(TRIM_SPACE, ''));
    },
  },
  {
    name: 'ToLower',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => changeCase(ctx, expectString(text, 'ToLower'), false),
  },
  {
    name: 'ToUpper',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => changeCase(ctx, expectString(text, 'ToUpper'), true),
  },
  {
    name: 'Split',
    async: true,
    params: 2,
    reserves: true,
    fn: (ctx, text, separator) =>
      goSplit(ctx, expectString(text, 'Split'), expectString(separator, 'Split', 2)),
  },
  {
    name: 'Join',
    async: true,
    params: 2,
    reserves: true,
    fn: (ctx, list, separator) => {
      const sep = expectString(separator, 'Join', 2);
      if (list === null) return '';
      if (!Array.isArray(list)) throw panic(`Join: parameter 1 must be array, got ${goTypeName(list)}`);
      return join(ctx, list, sep);
    },
  },
];

import { panic } from '../errors';
import { goString } from '../format';
import { goSprintf } from '../sprintf';
import { goTypeName, utf8Bytes, utf8Size, utf8Text, type Value } from '../values';
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
function goSplit(text: string, separator: string): string[] {
  if (separator === '') return [...text];
  return text.split(separator);
}

/** Substr counts bytes: an offset past the end gives "", a length past the end stops at the end. */
export function substrBytes(text: string, offset: bigint, length: bigint): string {
  const bytes = utf8Bytes(text);
  const size = BigInt(bytes.length);
  if (offset < 0n || length < 0n || offset > size) return '';
  const end = offset + length > size ? size : offset + length;
  return utf8Text(bytes.subarray(Number(offset), Number(end)));
}

export const stringBuiltins: BuiltinDef[] = [
  {
    name: 'Sprintf',
    async: false,
    params: [1, Infinity],
    fn: (_ctx, format, ...args) => goSprintf(expectString(format, 'Sprintf'), args),
  },
  // Str(nil) is "" in the reference, not Go's "<nil>".
  { name: 'Str', async: false, params: 1, fn: (_ctx, value) => (value === null ? '' : goString(value)) },
  { name: 'Size', async: false, params: 1, fn: (_ctx, text) => BigInt(utf8Size(expectString(text, 'Size'))) },
  {
    name: 'Substr',
    async: false,
    params: 3,
    fn: (_ctx, text, offset, length) =>
      substrBytes(
        expectString(text, 'Substr'),
        expectInt(offset, 'Substr', 2),
        expectInt(length, 'Substr', 3),
      ),
  },
  {
    name: 'Contains',
    async: false,
    params: 2,
    fn: (_ctx, text, part) => expectString(text, 'Contains').includes(expectString(part, 'Contains', 2)),
  },
  {
    name: 'HasPrefix',
    async: false,
    params: 2,
    fn: (_ctx, text, prefix) =>
      expectString(text, 'HasPrefix').startsWith(expectString(prefix, 'HasPrefix', 2)),
  },
  {
    name: 'Replace',
    async: false,
    params: 3,
    fn: (_ctx, text, from, to) => {
      const source = expectString(text, 'Replace');
      const old = expectString(from, 'Replace', 2);
      const replacement = expectString(to, 'Replace', 3);
      if (old === '') {
        // Go inserts the replacement before every code point and at the end.
        return replacement + [...source].map((c) => c + replacement).join('');
      }
      return source.split(old).join(replacement);
    },
  },
  {
    name: 'TrimSpace',
    async: false,
    params: 1,
    fn: (_ctx, text) => expectString(text, 'TrimSpace').replace(TRIM_SPACE, ''),
  },
  {
    name: 'ToLower',
    async: false,
    params: 1,
    fn: (_ctx, text) => expectString(text, 'ToLower').toLowerCase(),
  },
  {
    name: 'ToUpper',
    async: false,
    params: 1,
    fn: (_ctx, text) => expectString(text, 'ToUpper').toUpperCase(),
  },
  {
    name: 'Split',
    async: false,
    params: 2,
    fn: (_ctx, text, separator) => goSplit(expectString(text, 'Split'), expectString(separator, 'Split', 2)),
  },
  {
    name: 'Join',
    async: false,
    params: 2,
    fn: (_ctx, list, separator) => {
      const sep = expectString(separator, 'Join', 2);
      if (list === null) return '';
      if (!Array.isArray(list)) throw panic(`Join: parameter 1 must be array, got ${goTypeName(list)}`);
      return list.map(goString).join(sep);
    },
  },
];

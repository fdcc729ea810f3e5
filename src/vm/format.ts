import { panic } from './errors';
import { goTypeName, isMoney, kindOf, moneyToString, utf8Bytes, type Value } from './values';

/** Go's strconv 'g'/'e' style from the shortest round-trip digits of a float64. */
function shortestDigits(x: number): { digits: string; exponent: number } {
  // toExponential() without an argument yields the shortest round-trip digits, like Go's shortest mode.
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(exp) };
}

function formatExponent(exponent: number): string {
  const sign = exponent < 0 ? '-' : '+';
  const abs = Math.abs(exponent);
  return 'e' + sign + (abs < 10 ? '0' + abs : String(abs));
}

/** Go `%v` / `strconv.FormatFloat(x, 'g', -1, 64)`. */
export function goFloatString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = shortestDigits(x);
  // Shortest formatting switches to exponent form from 1e+06 (Go prints 1e+06, not 1000000).
  if (exponent < -4 || exponent >= 6) {
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return sign + mantissa + formatExponent(exponent);
  }
  return sign + plainFromDigits(digits, exponent);
}

function plainFromDigits(digits: string, exponent: number): string {
  if (exponent < 0) return '0.' + '0'.repeat(-exponent - 1) + digits;
  if (digits.length <= exponent + 1) return digits + '0'.repeat(exponent + 1 - digits.length);
  return digits.slice(0, exponent + 1) + '.' + digits.slice(exponent + 1);
}

/** Go encoding/json float format: shortest digits, exponent form only below 1e-6 or from 1e21. */
export function goJsonFloat(x: number): string {
  if (!Number.isFinite(x)) throw panic(`json: unsupported value: ${goFloatString(x)}`);
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const abs = Math.abs(x);
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = shortestDigits(x);
  if (abs < 1e-6 || abs >= 1e21) {
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    // Go writes e+21 but cleans e-07 up to e-7.
    const expAbs = Math.abs(exponent);
    return (
      sign + mantissa + (exponent < 0 ? 'e-' + expAbs : 'e+' + (expAbs < 10 ? '0' + expAbs : String(expAbs)))
    );
  }
  return sign + plainFromDigits(digits, exponent);
}

/** `%.Nf` with Go's round-half-to-even on the exact binary value. */
export function goFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const p = Math.min(precision, 100);
  let text = x.toFixed(p);
  if (p + 25 <= 100 && Math.abs(x) < 1e21) {
    // JS rounds exact ties away from zero, Go to even: detect an exact tie and round down when the kept digit is even.
    const exact = x.toFixed(Math.min(100, p + 25));
    const rest = exact.slice(exact.length - 25);
    if (/^50*$/.test(rest)) {
      const truncated = exact.slice(0, exact.length - 25).replace(/\.$/, '');
      const lastDigit = Number(truncated[truncated.length - 1]);
      if (lastDigit % 2 === 0) text = truncated;
    }
  }
  return text;
}

function goExpString(x: number, precision: number, upper = false): string {
  if (!Number.isFinite(x) || Number.isNaN(x)) return goFloatString(x);
  const text = x.toExponential(Math.min(precision, 100));
  const [mantissa, exp] = text.split('e');
  const out = mantissa + formatExponent(Number(exp));
  return upper ? out.toUpperCase() : out;
}

/** Go `%v` of a contract value (the text `Str` and `Sprintf("%v")` produce). */
export function goString(value: Value): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
      return value.toString();
    case 'number':
      return goFloatString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return goCompositeString(value, goString);
  }
}

function goCompositeString(value: Value, element: (v: Value) => string): string {
  if (value === null) return '<nil>';
  if (isMoney(value)) return moneyToString(value);
  if (value instanceof Uint8Array) return '[' + Array.from(value).join(' ') + ']';
  if (Array.isArray(value)) return '[' + value.map(element).join(' ') + ']';
  if (value instanceof Map) {
    const parts: string[] = [];
    for (const [key, item] of value) parts.push(key + ':' + element(item));
    return 'map[' + parts.join(' ') + ']';
  }
  return String(value);
}

const GO_QUOTE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** Go `strconv.Quote`. */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const escape = GO_QUOTE_ESCAPES[char];
    if (escape) {
      out += escape;
      continue;
    }
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else out += char;
  }
  return out + '"';
}

function hexOfBytes(bytes: Uint8Array, upper: boolean): string {
  const text = Buffer.from(bytes).toString('hex');
  return upper ? text.toUpperCase() : text;
}

interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  space: boolean;
  sharp: boolean;
  width: number | null;
  precision: number | null;
  verb: string;
}

function pad(text: string, spec: Spec, numeric: boolean): string {
  if (spec.width === null) return text;
  const length = [...text].length;
  if (length >= spec.width) return text;
  const fill = spec.width - length;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero && numeric) {
    const signed = text[0] === '-' || text[0] === '+';
    return (signed ? text[0] : '') + '0'.repeat(fill) + (signed ? text.slice(1) : text);
  }
  return ' '.repeat(fill) + text;
}

function badVerb(spec: Spec, value: Value): string {
  if (value === null) return `%!${spec.verb}(<nil>)`;
  return `%!${spec.verb}(${goTypeName(value)}=${goString(value)})`;
}

function withSign(text: string, spec: Spec, negative: boolean): string {
  if (negative) return '-' + text;
  if (spec.plus) return '+' + text;
  if (spec.space) return ' ' + text;
  return text;
}

function formatOne(spec: Spec, value: Value): string {
  const verb = spec.verb;
  const kind = kindOf(value);
  if (verb === 'v') {
    if (kind === 'float' && spec.precision !== null)
      return pad(goFloatG(value as number, spec.precision), spec, true);
    if (kind === 'int' || kind === 'float') {
      const text = goString(value);
      return pad(spec.plus && !text.startsWith('-') ? '+' + text : text, spec, true);
    }
    return pad(goString(value), spec, false);
  }
  switch (kind) {
    case 'int': {
      const n = value as bigint;
      const abs = n < 0n ? -n : n;
      let digits: string;
      switch (verb) {
        case 'd':
          digits = abs.toString(10);
          break;
        case 'x':
          digits = abs.toString(16);
          break;
        case 'X':
          digits = abs.toString(16).toUpperCase();
          break;
        case 'o':
          digits = abs.toString(8);
          break;
        case 'b':
          digits = abs.toString(2);
          break;
        case 'c':
          return pad(String.fromCodePoint(Number(n)), spec, false);
        case 'q':
          return pad("'" + String.fromCodePoint(Number(n)) + "'", spec, false);
        default:
          return badVerb(spec, value);
      }
      if (spec.precision !== null && digits.length < spec.precision)
        digits = digits.padStart(spec.precision, '0');
      if (spec.sharp && (verb === 'x' || verb === 'X')) digits = (verb === 'x' ? '0x' : '0X') + digits;
      return pad(withSign(digits, spec, n < 0n), spec, spec.precision === null);
    }
    case 'float': {
      const x = value as number;
      const negative = x < 0 || Object.is(x, -0);
      const abs = Math.abs(x);
      let text: string;
      switch (verb) {
        case 'f':
        case 'F':
          text = goFixed(abs, spec.precision ?? 6);
          break;
        case 'e':
        case 'E':
          text = goExpString(abs, spec.precision ?? 6, verb === 'E');
          break;
        case 'g':
        case 'G':
          text = spec.precision === null ? goFloatString(abs) : goFloatG(abs, spec.precision);
          if (verb === 'G') text = text.toUpperCase();
          break;
        default:
          return badVerb(spec, value);
      }
      if (Number.isNaN(x)) return pad('NaN', spec, false);
      return pad(withSign(text, spec, negative), spec, true);
    }
    case 'string': {
      const s = value as string;
      switch (verb) {
        case 's': {
          const text = spec.precision !== null ? [...s].slice(0, spec.precision).join('') : s;
          return pad(text, spec, false);
        }
        case 'q':
          return pad(goQuote(s), spec, false);
        case 'x':
        case 'X':
          return pad(hexOfBytes(utf8Bytes(s), verb === 'X'), spec, false);
        default:
          return badVerb(spec, value);
      }
    }
    case 'bool':
      return verb === 't' ? pad(value ? 'true' : 'false', spec, false) : badVerb(spec, value);
    case 'bytes': {
      const bytes = value as Uint8Array;
      switch (verb) {
        case 's':
          return pad(Buffer.from(bytes).toString('utf8'), spec, false);
        case 'q':
          return pad(goQuote(Buffer.from(bytes).toString('utf8')), spec, false);
        case 'x':
        case 'X':
          return pad(hexOfBytes(bytes, verb === 'X'), spec, false);
        case 'd':
          return pad('[' + Array.from(bytes).join(' ') + ']', spec, false);
        default:
          return badVerb(spec, value);
      }
    }
    case 'money':
      // decimal.Decimal is a fmt.Stringer, so %s and %q use its text; other verbs see the struct.
      if (verb === 's') return pad(goString(value), spec, false);
      if (verb === 'q') return pad(goQuote(goString(value)), spec, false);
      return badVerb(spec, value);
    case 'array':
      return pad(
        '[' + (value as Value[]).map((item) => formatOne({ ...spec, width: null }, item)).join(' ') + ']',
        spec,
        false,
      );
    case 'map': {
      const parts: string[] = [];
      for (const [key, item] of value as Map<string, Value>) {
        parts.push(
          formatOne({ ...spec, width: null }, key) + ':' + formatOne({ ...spec, width: null }, item),
        );
      }
      return pad('map[' + parts.join(' ') + ']', spec, false);
    }
    default:
      return `%!${verb}(<nil>)`;
  }
}

function goFloatG(x: number, precision: number): string {
  if (!Number.isFinite(x) || Number.isNaN(x)) return goFloatString(x);
  const p = precision === 0 ? 1 : precision;
  const text = x.toExponential(Math.min(p - 1, 100));
  const [mantissa, exp] = text.split('e');
  const exponent = Number(exp);
  const digits = mantissa.replace('.', '').replace('-', '').replace(/0+$/, '') || '0';
  const sign = x < 0 ? '-' : '';
  if (exponent < -4 || exponent >= p) {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return sign + m + formatExponent(exponent);
  }
  return sign + plainFromDigits(digits, exponent);
}

/** Go `fmt.Sprintf` for contract values, including Go's `%!verb(...)`, MISSING and EXTRA markers. */
export function goSprintf(format: string, args: Value[]): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  const n = format.length;
  while (i < n) {
    const percent = format.indexOf('%', i);
    if (percent < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    const spec: Spec = {
      minus: false,
      plus: false,
      zero: false,
      space: false,
      sharp: false,
      width: null,
      precision: null,
      verb: '',
    };
    flags: while (i < n) {
      switch (format[i]) {
        case '-':
          spec.minus = true;
          break;
        case '+':
          spec.plus = true;
          break;
        case '0':
          spec.zero = !spec.minus;
          break;
        case ' ':
          spec.space = true;
          break;
        case '#':
          spec.sharp = true;
          break;
        default:
          break flags;
      }
      i++;
    }
    const readNumber = (): number | null => {
      if (format[i] === '*') {
        i++;
        const arg = args[argIndex++];
        return typeof arg === 'bigint' ? Number(arg) : null;
      }
      let start = i;
      while (i < n && format.charCodeAt(i) >= 48 && format.charCodeAt(i) <= 57) i++;
      return i > start ? Number(format.slice(start, i)) : ((start = i), null);
    };
    spec.width = readNumber();
    if (format[i] === '.') {
      i++;
      spec.precision = readNumber() ?? 0;
    }
    if (i >= n) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    spec.verb = verb;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argIndex >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(spec, args[argIndex++]);
  }
  if (argIndex < args.length) {
    const extra = args
      .slice(argIndex)
      .map((arg) => (arg === null ? '<nil>' : `${goTypeName(arg)}=${goString(arg)}`))
      .join(', ');
    out += `%!(EXTRA ${extra})`;
  }
  return out;
}

const JSON_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x3c: '\\u003c',
  0x3e: '\\u003e',
  0x26: '\\u0026',
  0x2028: '\\u2028',
  0x2029: '\\u2029',
};

/** A JSON string as Go's encoding/json writes it (HTML-safe escaping). */
export function goJsonString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const escape = JSON_ESCAPES[code];
    if (escape === undefined && code >= 0x20 && (code < 0xd800 || code > 0xdfff)) continue;
    if (escape === undefined && code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    out += text.slice(start, i);
    if (escape !== undefined) out += escape;
    else if (code < 0x20) out += '\\u00' + code.toString(16).padStart(2, '0');
    else out += '\\ufffd';
    start = i + 1;
  }
  return out + text.slice(start) + '"';
}

/** Go `json.Marshal` of a contract value: ordered maps keep insertion order, money is a quoted decimal. */
export function goJsonEncode(value: Value): string {
  switch (typeof value) {
    case 'string':
      return goJsonString(value);
    case 'bigint':
      return value.toString();
    case 'number':
      return goJsonFloat(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value === null) return 'null';
      if (isMoney(value)) return '"' + moneyToString(value) + '"';
      if (value instanceof Uint8Array) return '"' + Buffer.from(value).toString('base64') + '"';
      if (Array.isArray(value)) return '[' + value.map(goJsonEncode).join(',') + ']';
      if (value instanceof Map) {
        const parts: string[] = [];
        for (const [key, item] of value) parts.push(goJsonString(key) + ':' + goJsonEncode(item));
        return '{' + parts.join(',') + '}';
      }
      return 'null';
  }
}

/**
 * Like the reference's JSONDecode (Go json.Unmarshal into interface{} then conversion to ordered maps):
 * numbers become float64, objects become maps with keys in sorted order.
 */
export function goJsonDecode(text: string): Value {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw panic(`unmarshalling json: ${(error as Error).message}`);
  }
  const convert = (item: unknown): Value => {
    if (item === null) return null;
    if (typeof item === 'number') return item;
    if (typeof item === 'string' || typeof item === 'boolean') return item;
    if (Array.isArray(item)) return item.map(convert);
    const map = new Map<string, Value>();
    const entries = Object.keys(item as object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of entries) map.set(key, convert((item as Record<string, unknown>)[key]));
    return map;
  };
  return convert(parsed);
}

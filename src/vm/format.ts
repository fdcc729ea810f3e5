import { MAX_ARRAY_LENGTH, MAX_MAP_SIZE, MEMORY_LIMIT_EXCEEDED } from './context';
import { panic } from './errors';
import { goJsonSyntaxError } from './json-syntax';
import { MAX_STRING_LENGTH, type SizeMeasure } from './memory';
import { isMoney, moneyToString, type Value } from './values';

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
  if (value instanceof Map) return mapString(value);
  return String(value);
}

/**
 * The text of a map as the reference's ordered map prints itself: `map[k:v k2:v2]` in insertion order, values
 * with `%v`. Like the reference it trims every trailing space before the `]`, even one that ends the last value.
 */
export function mapString(map: ReadonlyMap<string, Value>): string {
  let text = 'map[';
  for (const [key, item] of map) text += key + ':' + goString(item) + ' ';
  return text.replace(/ +$/, '') + ']';
}

const GO_QUOTE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** One rune inside Go quotes (strconv's appendEscapedRune). */
function escapeRune(char: string, quote: string, asciiOnly: boolean): string {
  if (char === quote || char === '\\') return '\\' + char;
  const code = char.codePointAt(0)!;
  const lone = code >= 0xd800 && code <= 0xdfff;
  if (!lone && GO_PRINTABLE.test(char) && (!asciiOnly || code < 0x80)) return char;
  const escape = GO_QUOTE_ESCAPES[char];
  if (escape) return escape;
  if (code < 0x20 || code === 0x7f) return '\\x' + code.toString(16).padStart(2, '0');
  if (lone) return '\\ufffd';
  if (code < 0x10000) return '\\u' + code.toString(16).padStart(4, '0');
  return '\\U' + code.toString(16).padStart(8, '0');
}

/** Go `strconv.Quote`, or `strconv.QuoteToASCII` with `asciiOnly`. */
export function goQuote(text: string, asciiOnly = false): string {
  let out = '"';
  for (const char of text) out += escapeRune(char, '"', asciiOnly);
  return out + '"';
}

/** Go `strconv.QuoteRune` (`%q` of an int), or QuoteRuneToASCII with `asciiOnly`. */
export function quoteRune(code: number, asciiOnly = false): string {
  return "'" + escapeRune(String.fromCodePoint(code), "'", asciiOnly) + "'";
}

/** Go `%.Ng`: N significant digits, exponent form when the exponent is below -4 or at least N. */
export function goFloatG(x: number, precision: number): string {
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

/** Characters JSON.stringify writes otherwise than Go: \b and \f, what Go escapes for HTML, surrogates. */
// eslint-disable-next-line no-control-regex
const NOT_LIKE_STRINGIFY = /[\u0008\u000c<>&\u2028\u2029\ud800-\udfff]/;

/** A JSON string as Go's encoding/json writes it (HTML-safe escaping). */
export function goJsonString(text: string): string {
  // The engine's own encoder where it writes what Go writes: most texts, at the engine's speed.
  if (!NOT_LIKE_STRINGIFY.test(text)) return JSON.stringify(text);
  let out = '"';
  let start = 0;
  JSON_SPECIAL.lastIndex = 0;
  for (let match = JSON_SPECIAL.exec(text); match !== null; match = JSON_SPECIAL.exec(text)) {
    const i = match.index;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      JSON_SPECIAL.lastIndex = i + 2;
      continue;
    }
    const escape = JSON_ESCAPES[code];
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
 * numbers become float64, objects become maps with keys in sorted order; a text that is not one JSON value
 * fails in Go's words ("unexpected end of JSON input", "invalid character 'x' looking for beginning of value").
 */
export function goJsonDecode(text: string): Value {
  const syntaxError = goJsonSyntaxError(text);
  if (syntaxError !== undefined) throw panic(syntaxError);
  const parsed: unknown = JSON.parse(text);
  const convert = (item: unknown): Value => {
    if (item === null) return null;
    if (typeof item === 'number') return item;
    if (typeof item === 'string' || typeof item === 'boolean') return item;
    // Arrays and maps no larger than assignments can make them.
    if (Array.isArray(item)) {
      if (item.length > MAX_ARRAY_LENGTH) throw panic(MEMORY_LIMIT_EXCEEDED);
      return item.map(convert);
    }
    const map = new Map<string, Value>();
    const keys = Object.keys(item as object);
    if (keys.length > MAX_MAP_SIZE) throw panic(MEMORY_LIMIT_EXCEEDED);
    const entries = keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of entries) map.set(key, convert((item as Record<string, unknown>)[key]));
    return map;
  };
  return convert(parsed);
}

/** Characters `goJsonString` writes otherwise than as themselves (surrogates only when alone). */
// eslint-disable-next-line no-control-regex
const JSON_SPECIAL = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/g;

/** How many characters `goJsonString` adds for each UTF-16 unit (surrogates are looked at in pairs). */
const JSON_EXTRA = (() => {
  const extra = new Uint8Array(0x10000);
  for (let code = 0; code < 0x20; code++) extra[code] = 5;
  for (const [code, escape] of Object.entries(JSON_ESCAPES)) extra[Number(code)] = escape.length - 1;
  return extra;
})();

/**
 * The length of a JSON string as `goJsonString` writes it, without writing it; past `limit` it stops and
 * answers more than the limit. A plain loop over the units: texts of JSON in JSON are mostly escapes.
 */
export function jsonStringLength(text: string, limit = Infinity): number {
  let length = text.length + 2;
  if (length > limit) return length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) i++;
      else length += 5;
    } else {
      length += JSON_EXTRA[code];
    }
  }
  return length;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function decimalDigits(byte: number): number {
  return byte < 10 ? 1 : byte < 100 ? 2 : 3;
}

/** The length of `goString(value)` (Go `%v`), measured over a value's parts without building the text. */
export const TEXT_LENGTH: SizeMeasure = {
  leaf(value) {
    switch (typeof value) {
      case 'string':
        return value.length;
      case 'bigint':
        return value.toString().length;
      case 'number':
        return goFloatString(value).length;
      case 'boolean':
        return value ? 4 : 5;
      default:
        if (value === null) return 5;
        if (isMoney(value)) return moneyToString(value).length;
        if (value instanceof Uint8Array) {
          let length = 2 + Math.max(value.length - 1, 0);
          for (const byte of value) length += decimalDigits(byte);
          return length;
        }
        return String(value).length;
    }
  },
  array: (length) => 2 + Math.max(length - 1, 0),
  // `map[` … `]`, a colon and a space per entry (the last spaces are trimmed: this is an upper bound).
  map: (size) => 5 + 2 * size,
  key: (key) => key.length,
};

/** The length of `goJsonEncode(value)`, measured over a value's parts without building the text. */
export const JSON_LENGTH: SizeMeasure = {
  leaf(value) {
    switch (typeof value) {
      case 'string':
        return jsonStringLength(value, MAX_STRING_LENGTH);
      case 'bigint':
        return value.toString().length;
      case 'number':
        return goJsonFloat(value).length;
      case 'boolean':
        return value ? 4 : 5;
      default:
        if (value === null) return 4;
        if (isMoney(value)) return moneyToString(value).length + 2;
        if (value instanceof Uint8Array) return 4 * Math.ceil(value.length / 3) + 2;
        return 4;
    }
  },
  array: (length) => 2 + Math.max(length - 1, 0),
  map: (size) => 2 + Math.max(size - 1, 0) + size,
  key: (key) => jsonStringLength(key, MAX_STRING_LENGTH),
};

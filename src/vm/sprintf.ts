import { MEMORY_LIMIT_EXCEEDED } from './context';
import { panic } from './errors';
import {
  goFixed,
  goFloatG,
  goFloatString,
  goQuote,
  goString,
  mapString,
  quoteRune,
  TEXT_LENGTH,
} from './format';
import { SizeFold } from './memory';
import type Decimal from 'decimal.js';
import { goTypeName, kindOf, moneyToString, utf8Bytes, type Value } from './values';

/**
 * `Sprintf` as Go's fmt.Sprintf prints contract values: flags, widths and precisions (also taken from
 * arguments with `*`), explicit argument indexes (`%[2]v`), `%T`, and Go's error forms `%!d(string=x)`,
 * `%!v(MISSING)`, `%!v(BADINDEX)`, `%!(BADWIDTH)`, `%!(BADPREC)`, `%!(NOVERB)` and `%!(EXTRA …)`.
 */
export function goSprintf(format: string, args: readonly Value[], budget = Infinity): string {
  // An array or a map prints element by element: one whose text alone is past the budget (a structure
  // that shares its parts many times over, say) is refused before any of it is printed.
  if (budget !== Infinity) {
    const fold = new SizeFold(TEXT_LENGTH, budget);
    for (const arg of args) {
      if (typeof arg === 'object' && arg !== null && fold.of(arg) === Infinity) {
        throw panic(MEMORY_LIMIT_EXCEEDED);
      }
    }
  }
  return new Printer(args, budget).print(format);
}

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  /** `%#v`: Go-syntax form. */
  sharpV: boolean;
  width: number;
  widthPresent: boolean;
  precision: number;
  precisionPresent: boolean;
}

function clearedFlags(): Flags {
  return {
    plus: false,
    minus: false,
    sharp: false,
    space: false,
    zero: false,
    sharpV: false,
    width: 0,
    widthPresent: false,
    precision: 0,
    precisionPresent: false,
  };
}

/** Go refuses widths, precisions and argument numbers above a million. */
function tooLarge(n: number): boolean {
  return n > 1e6 || n < -1e6;
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Digits from `start` up to `end`: [number, found, next index]. */
function parseNumber(text: string, start: number, end: number): [number, boolean, number] {
  if (start >= end) return [0, false, end];
  let num = 0;
  let found = false;
  let i = start;
  for (; i < end && isDigitCode(text.charCodeAt(i)); i++) {
    if (tooLarge(num)) return [0, false, end];
    num = num * 10 + (text.charCodeAt(i) - 48);
    found = true;
  }
  return [num, found, i];
}

function runeCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
    count++;
  }
  return count;
}

const MAX_RUNE = 0x10ffff;
const REPLACEMENT_CHARACTER = 0xfffd;

/** Go's rune(c) for %c/%q/%U: out-of-range values and surrogates print as U+FFFD. */
function runeOf(value: bigint): number {
  if (value < 0n || value > BigInt(MAX_RUNE)) return REPLACEMENT_CHARACTER;
  const code = Number(value);
  return code >= 0xd800 && code <= 0xdfff ? REPLACEMENT_CHARACTER : code;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

class Printer {
  private text = '';
  private flags = clearedFlags();
  private reordered = false;
  private goodArgNum = true;

  constructor(
    private readonly args: readonly Value[],
    private readonly budget: number,
  ) {}

  /** The output so far; it may not grow past the budget (widths and repeated arguments can make it huge). */
  private get out(): string {
    return this.text;
  }

  private set out(text: string) {
    if (text.length > this.budget) throw panic(MEMORY_LIMIT_EXCEEDED);
    this.text = text;
  }

  print(format: string): string {
    const args = this.args;
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    let i = 0;
    formatLoop: while (i < end) {
      this.goodArgNum = true;
      const percent = format.indexOf('%', i);
      if (percent < 0) {
        this.out += format.slice(i);
        break;
      }
      this.out += format.slice(i, percent);
      i = percent + 1;
      this.flags = clearedFlags();
      const flags = this.flags;
      simpleFormat: for (; i < end; i++) {
        const c = format[i];
        switch (c) {
          case '#':
            flags.sharp = true;
            break;
          case '0':
            flags.zero = !flags.minus;
            break;
          case '+':
            flags.plus = true;
            break;
          case '-':
            flags.minus = true;
            flags.zero = false;
            break;
          case ' ':
            flags.space = true;
            break;
          default: {
            const code = format.charCodeAt(i);
            // Fast path: a lower-case verb right after the flags.
            if (code >= 97 && code <= 122 && argNum < args.length) {
              if (c === 'v') this.verbV();
              this.printArg(args[argNum], c, 0);
              argNum++;
              i++;
              continue formatLoop;
            }
            break simpleFormat;
          }
        }
      }
      [argNum, i, afterIndex] = this.argNumber(argNum, format, i);
      if (i < end && format[i] === '*') {
        i++;
        [flags.width, flags.widthPresent, argNum] = this.intFromArg(argNum);
        if (!flags.widthPresent) this.out += '%!(BADWIDTH)';
        if (flags.width < 0) {
          flags.width = -flags.width;
          flags.minus = true;
          flags.zero = false;
        }
        afterIndex = false;
      } else {
        [flags.width, flags.widthPresent, i] = parseNumber(format, i, end);
        if (afterIndex && flags.widthPresent) this.goodArgNum = false;
      }
      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) this.goodArgNum = false;
        [argNum, i, afterIndex] = this.argNumber(argNum, format, i);
        if (i < end && format[i] === '*') {
          i++;
          [flags.precision, flags.precisionPresent, argNum] = this.intFromArg(argNum);
          if (flags.precision < 0) {
            flags.precision = 0;
            flags.precisionPresent = false;
          }
          if (!flags.precisionPresent) this.out += '%!(BADPREC)';
          afterIndex = false;
        } else {
          [flags.precision, flags.precisionPresent, i] = parseNumber(format, i, end);
          if (!flags.precisionPresent) {
            flags.precision = 0;
            flags.precisionPresent = true;
          }
        }
      }
      if (!afterIndex) [argNum, i, afterIndex] = this.argNumber(argNum, format, i);
      if (i >= end) {
        this.out += '%!(NOVERB)';
        break;
      }
      const verb = String.fromCodePoint(format.codePointAt(i)!);
      i += verb.length;
      if (verb === '%') {
        // A literal percent takes no argument and ignores width and precision.
        this.out += '%';
      } else if (!this.goodArgNum) {
        this.out += `%!${verb}(BADINDEX)`;
      } else if (argNum >= args.length) {
        this.out += `%!${verb}(MISSING)`;
      } else {
        if (verb === 'v') this.verbV();
        this.printArg(args[argNum], verb, 0);
        argNum++;
      }
    }
    // Go reports unused arguments only when none was picked by index.
    if (!this.reordered && argNum < args.length) {
      this.flags = clearedFlags();
      this.out += '%!(EXTRA ';
      for (let k = argNum; k < args.length; k++) {
        if (k > argNum) this.out += ', ';
        const arg = args[k];
        if (arg === null) this.out += '<nil>';
        else {
          this.out += goTypeName(arg) + '=';
          this.printArg(arg, 'v', 0);
        }
      }
      this.out += ')';
    }
    return this.out;
  }

  /** `%#v` asks for the Go-syntax form; `+` and `#` mean nothing else with `v`. */
  private verbV(): void {
    this.flags.sharpV = this.flags.sharp;
    this.flags.sharp = false;
    this.flags.plus = false;
  }

  private argNumber(argNum: number, format: string, i: number): [number, number, boolean] {
    if (i >= format.length || format[i] !== '[') return [argNum, i, false];
    this.reordered = true;
    const close = format.indexOf(']', i + 1);
    if (format.length - i < 3 || close < 0) {
      this.goodArgNum = false;
      return [argNum, i + 1, false];
    }
    const [index, found, next] = parseNumber(format, i + 1, close);
    if (!found || next !== close) {
      this.goodArgNum = false;
      return [argNum, close + 1, false];
    }
    if (index - 1 >= 0 && index - 1 < this.args.length) return [index - 1, close + 1, true];
    this.goodArgNum = false;
    return [argNum, close + 1, true];
  }

  private intFromArg(argNum: number): [number, boolean, number] {
    if (argNum >= this.args.length) return [0, false, argNum];
    const arg = this.args[argNum];
    if (typeof arg !== 'bigint') return [0, false, argNum + 1];
    const num = Number(arg);
    if (tooLarge(num)) return [0, false, argNum + 1];
    return [num, true, argNum + 1];
  }

  private writePadding(count: number): void {
    if (count <= 0) return;
    this.out += (this.flags.zero && !this.flags.minus ? '0' : ' ').repeat(count);
  }

  private pad(text: string): void {
    const flags = this.flags;
    if (!flags.widthPresent || flags.width === 0) {
      this.out += text;
      return;
    }
    const fill = flags.width - runeCount(text);
    if (!flags.minus) {
      this.writePadding(fill);
      this.out += text;
    } else {
      this.out += text;
      this.writePadding(fill);
    }
  }

  /** Pads without zero-filling, for text that had its zeros placed already (numbers) or must not get any. */
  private padWithSpaces(text: string): void {
    const zero = this.flags.zero;
    this.flags.zero = false;
    this.pad(text);
    this.flags.zero = zero;
  }

  private truncate(text: string): string {
    const flags = this.flags;
    if (!flags.precisionPresent) return text;
    let runes = 0;
    for (let i = 0; i < text.length; i++) {
      if (runes === flags.precision) return text.slice(0, i);
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
      runes++;
    }
    return text;
  }

  private badVerb(value: Value, verb: string): void {
    this.out += `%!${verb}(`;
    if (value === null) this.out += '<nil>';
    else {
      this.out += goTypeName(value) + '=';
      this.printArg(value, 'v', 0);
    }
    this.out += ')';
  }

  /** One argument (depth 0) or an element of an array or map (depth > 0, where nil prints as `<nil>`). */
  private printArg(value: Value, verb: string, depth: number): void {
    if (value === null) {
      if (depth > 0) this.out += '<nil>';
      else if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(value, verb);
      return;
    }
    if (verb === 'T') {
      this.pad(this.truncate(goTypeName(value)));
      return;
    }
    if (this.flags.sharpV && verb === 'v') {
      this.pad(goSyntax(value));
      return;
    }
    switch (kindOf(value)) {
      case 'bool':
        if (verb === 't' || verb === 'v') this.pad(value ? 'true' : 'false');
        else this.badVerb(value, verb);
        return;
      case 'int':
        this.printInteger(value as bigint, true, verb, value);
        return;
      case 'float':
        this.printFloat(value as number, verb);
        return;
      case 'string':
        this.printString(value as string, verb, value);
        return;
      case 'bytes':
        this.printBytes(value as Uint8Array, verb);
        return;
      case 'money':
        // decimal.Decimal prints through its String method for the string verbs.
        if (isStringVerb(verb)) this.printString(moneyToString(value as Decimal), verb, value);
        else this.badVerb(value, verb);
        return;
      case 'map':
        if (isStringVerb(verb)) this.printString(mapString(value as Map<string, Value>), verb, value);
        else this.printMapElements(value as Map<string, Value>, verb, depth);
        return;
      case 'array':
        this.out += '[';
        (value as Value[]).forEach((item, index) => {
          if (index > 0) this.out += ' ';
          this.printArg(item, verb, depth + 1);
        });
        this.out += ']';
        return;
      default:
        this.badVerb(value, verb);
    }
  }

  /** A map with a verb its String method does not serve: each key and value with that verb. */
  private printMapElements(map: Map<string, Value>, verb: string, depth: number): void {
    this.out += 'map[';
    let first = true;
    for (const [key, item] of map) {
      if (!first) this.out += ' ';
      first = false;
      this.printArg(key, verb, depth + 1);
      this.out += ':';
      this.printArg(item, verb, depth + 1);
    }
    this.out += ']';
  }

  private printInteger(n: bigint, signed: boolean, verb: string, original: Value): void {
    switch (verb) {
      case 'v':
      case 'd':
        this.formatInteger(n, 10, signed, verb, false);
        return;
      case 'b':
        this.formatInteger(n, 2, signed, verb, false);
        return;
      case 'o':
      case 'O':
        this.formatInteger(n, 8, signed, verb, false);
        return;
      case 'x':
        this.formatInteger(n, 16, signed, verb, false);
        return;
      case 'X':
        this.formatInteger(n, 16, signed, verb, true);
        return;
      case 'c':
        this.pad(String.fromCodePoint(runeOf(n)));
        return;
      case 'q':
        this.pad(quoteRune(runeOf(n), this.flags.plus));
        return;
      case 'U':
        this.formatUnicode(n);
        return;
      default:
        this.badVerb(original, verb);
    }
  }

  private formatInteger(n: bigint, base: number, signed: boolean, verb: string, upper: boolean): void {
    const flags = this.flags;
    const negative = signed && n < 0n;
    const magnitude = negative ? -n : n;
    let precision = 0;
    if (flags.precisionPresent) {
      precision = flags.precision;
      // Precision 0 and value 0 print nothing but the padding.
      if (precision === 0 && magnitude === 0n) {
        const zero = flags.zero;
        flags.zero = false;
        this.writePadding(flags.widthPresent ? flags.width : 0);
        flags.zero = zero;
        return;
      }
    } else if (flags.zero && !flags.minus && flags.widthPresent) {
      precision = flags.width;
      if (negative || flags.plus || flags.space) precision--;
    }
    let digits = magnitude.toString(base);
    if (upper) digits = digits.toUpperCase();
    if (digits.length < precision) digits = '0'.repeat(precision - digits.length) + digits;
    if (flags.sharp) {
      if (base === 2) digits = '0b' + digits;
      else if (base === 8 && digits[0] !== '0') digits = '0' + digits;
      else if (base === 16) digits = (upper ? '0X' : '0x') + digits;
    }
    if (verb === 'O') digits = '0o' + digits;
    if (negative) digits = '-' + digits;
    else if (flags.plus) digits = '+' + digits;
    else if (flags.space) digits = ' ' + digits;
    this.padWithSpaces(digits);
  }

  private formatUnicode(n: bigint): void {
    const flags = this.flags;
    const minDigits = flags.precisionPresent && flags.precision > 4 ? flags.precision : 4;
    const magnitude = n < 0n ? (1n << 64n) + n : n;
    let text = 'U+' + magnitude.toString(16).toUpperCase().padStart(minDigits, '0');
    if (flags.sharp && n >= 0n && n <= BigInt(MAX_RUNE)) {
      const char = String.fromCodePoint(Number(n));
      if (PRINTABLE.test(char)) text += ` '${char}'`;
    }
    this.padWithSpaces(text);
  }

  private printFloat(x: number, verb: string): void {
    switch (verb) {
      case 'v':
        this.formatFloat(x, 'g', -1);
        return;
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        this.formatFloat(x, verb, -1);
        return;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
        this.formatFloat(x, verb, 6);
        return;
      default:
        this.badVerb(x, verb);
    }
  }

  private formatFloat(x: number, verb: string, defaultPrecision: number): void {
    const flags = this.flags;
    const precision = flags.precisionPresent ? flags.precision : defaultPrecision;
    let num = floatText(x, verb, precision);
    num = num[0] === '-' || num[0] === '+' ? num : '+' + num;
    if (flags.space && num[0] === '+' && !flags.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      // Infinities and NaN are never zero-padded; NaN shows a sign only when asked for.
      if (num[1] === 'N' && !flags.space && !flags.plus) num = num.slice(1);
      this.padWithSpaces(num);
      return;
    }
    if (flags.sharp && verb !== 'b') num = keepDecimalPoint(num, verb, precision);
    if (flags.plus || num[0] !== '+') {
      if (flags.zero && !flags.minus && flags.widthPresent && flags.width > num.length) {
        // Zero padding goes between the sign and the digits.
        this.out += num[0];
        this.writePadding(flags.width - num.length);
        this.out += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  private printString(text: string, verb: string, original: Value): void {
    switch (verb) {
      case 'v':
      case 's':
        this.pad(this.truncate(text));
        return;
      case 'x':
      case 'X':
        this.formatHex(utf8Bytes(text), verb === 'X');
        return;
      case 'q':
        this.formatQuoted(text);
        return;
      default:
        this.badVerb(original, verb);
    }
  }

  private formatQuoted(text: string): void {
    const truncated = this.truncate(text);
    if (this.flags.sharp && canBackquote(truncated)) {
      this.pad('`' + truncated + '`');
      return;
    }
    this.pad(goQuote(truncated, this.flags.plus));
  }

  private formatHex(bytes: Uint8Array, upper: boolean): void {
    const flags = this.flags;
    let length = bytes.length;
    if (flags.precisionPresent && flags.precision < length) length = flags.precision;
    let width = 2 * length;
    if (width === 0) {
      if (flags.widthPresent) this.writePadding(flags.width);
      return;
    }
    if (flags.space) {
      if (flags.sharp) width *= 2;
      width += length - 1;
    } else if (flags.sharp) {
      width += 2;
    }
    if (flags.widthPresent && flags.width > width && !flags.minus) this.writePadding(flags.width - width);
    const prefix = upper ? '0X' : '0x';
    let text = flags.sharp ? prefix : '';
    for (let i = 0; i < length; i++) {
      if (flags.space && i > 0) {
        text += ' ';
        if (flags.sharp) text += prefix;
      }
      const hex = bytes[i].toString(16).padStart(2, '0');
      text += upper ? hex.toUpperCase() : hex;
    }
    this.out += text;
    if (flags.widthPresent && flags.width > width && flags.minus) this.writePadding(flags.width - width);
  }

  private printBytes(bytes: Uint8Array, verb: string): void {
    switch (verb) {
      case 'v':
      case 'd':
        this.out += '[';
        bytes.forEach((byte, index) => {
          if (index > 0) this.out += ' ';
          this.formatInteger(BigInt(byte), 10, false, verb, false);
        });
        this.out += ']';
        return;
      case 's':
        this.pad(this.truncate(Buffer.from(bytes).toString('utf8')));
        return;
      case 'x':
      case 'X':
        this.formatHex(bytes, verb === 'X');
        return;
      case 'q':
        this.formatQuoted(Buffer.from(bytes).toString('utf8'));
        return;
      default:
        // Go prints each byte as a uint8 with the verb.
        this.out += '[';
        bytes.forEach((byte, index) => {
          if (index > 0) this.out += ' ';
          if ('bcoOqxXU'.includes(verb)) this.printInteger(BigInt(byte), false, verb, BigInt(byte));
          else this.out += `%!${verb}(uint8=${byte})`;
        });
        this.out += ']';
    }
  }
}

function isStringVerb(verb: string): boolean {
  return verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q';
}

function canBackquote(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '`' || code === 0xfeff || (code < 0x20 && code !== 0x09) || code === 0x7f) return false;
  }
  return true;
}

function exponentText(exponent: number, letter: string): string {
  const abs = Math.abs(exponent);
  return letter + (exponent < 0 ? '-' : '+') + (abs < 10 ? '0' + abs : String(abs));
}

/** strconv.FormatFloat(x, verb, precision, 64), with the sign of negative numbers. */
function floatText(x: number, verb: string, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const abs = Math.abs(x);
  switch (verb) {
    case 'e':
    case 'E': {
      const text = precision < 0 ? abs.toExponential() : abs.toExponential(Math.min(precision, 100));
      const [mantissa, exp] = text.split('e');
      return sign + mantissa + exponentText(Number(exp), verb);
    }
    case 'f':
    case 'F':
      return sign + (precision < 0 ? goFloatPlain(abs) : goFixed(abs, precision));
    case 'g':
      return sign + (precision < 0 ? goFloatString(abs) : goFloatG(abs, precision));
    case 'G':
      return sign + (precision < 0 ? goFloatString(abs) : goFloatG(abs, precision)).toUpperCase();
    case 'b':
      return sign + binaryFloat(abs);
    default:
      return sign + hexFloat(abs, precision, verb === 'X');
  }
}

/** Shortest digits without an exponent (`%f` with no precision never happens in fmt, but `%.f` is 0 digits). */
function goFloatPlain(abs: number): string {
  if (abs === 0) return '0';
  const [mantissa, exp] = abs.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exp);
  if (exponent < 0) return '0.' + '0'.repeat(-exponent - 1) + digits;
  if (digits.length <= exponent + 1) return digits + '0'.repeat(exponent + 1 - digits.length);
  return digits.slice(0, exponent + 1) + '.' + digits.slice(exponent + 1);
}

function float64Parts(abs: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, abs);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** `%b`: decimal mantissa, `p`, binary exponent. */
function binaryFloat(abs: number): string {
  const { mantissa, exponent } = float64Parts(abs);
  return `${mantissa}p${exponent >= 0 ? '+' : ''}${exponent}`;
}

/** `%x`: `0x1.8p+01` style, shortest unless a precision asks for a number of hex digits. */
function hexFloat(abs: number, precision: number, upper: boolean): string {
  let text: string;
  if (abs === 0) {
    text = '0x0' + (precision > 0 ? '.' + '0'.repeat(precision) : '') + 'p+00';
  } else {
    let { mantissa, exponent } = float64Parts(abs);
    while (mantissa < 1n << 52n) {
      mantissa <<= 1n;
      exponent--;
    }
    exponent += 52;
    let fraction = mantissa & ((1n << 52n) - 1n);
    let lead = 1n;
    let digits = 13;
    if (precision >= 0 && precision < 13) {
      const shift = BigInt(4 * (13 - precision));
      const half = 1n << (shift - 1n);
      const remainder = fraction & ((1n << shift) - 1n);
      fraction >>= shift;
      if (remainder > half || (remainder === half && (fraction & 1n) === 1n)) fraction++;
      if (fraction >> BigInt(4 * precision) > 0n) {
        fraction &= (1n << BigInt(4 * precision)) - 1n;
        lead++;
        if (lead === 2n) {
          lead = 1n;
          exponent++;
        }
      }
      digits = precision;
    }
    let hex = digits > 0 ? fraction.toString(16).padStart(digits, '0') : '';
    if (precision < 0) hex = hex.replace(/0+$/, '');
    else if (precision > 13) hex += '0'.repeat(precision - 13);
    const abse = Math.abs(exponent);
    text =
      `0x${lead}` +
      (hex ? '.' + hex : '') +
      'p' +
      (exponent < 0 ? '-' : '+') +
      (abse < 10 ? '0' + abse : String(abse));
  }
  return upper ? text.toUpperCase() : text;
}

/** The `#` flag: always a decimal point, and `%g` keeps its trailing zeros. */
function keepDecimalPoint(num: string, verb: string, precision: number): string {
  let digits = 0;
  if (verb === 'g' || verb === 'G' || verb === 'x' || verb === 'X') digits = precision < 0 ? 6 : precision;
  let tail = '';
  let body = num;
  let hasPoint = false;
  let sawNonzero = false;
  for (let i = 1; i < body.length; i++) {
    const c = body[i];
    if (c === '.') {
      hasPoint = true;
      continue;
    }
    if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
      tail = body.slice(i);
      body = body.slice(0, i);
      break;
    }
    if (c !== '0') sawNonzero = true;
    if (sawNonzero) digits--;
  }
  if (!hasPoint) {
    if (body.length === 2 && body[1] === '0') digits--;
    body += '.';
  }
  if (digits > 0) body += '0'.repeat(digits);
  return body + tail;
}

/** `%#v`: the Go-syntax form of a value. */
function goSyntax(value: Value): string {
  switch (kindOf(value)) {
    case 'nil':
      return '<nil>';
    case 'string':
      return goQuote(value as string);
    case 'array':
      return '[]interface {}{' + (value as Value[]).map(goSyntax).join(', ') + '}';
    case 'map': {
      const parts: string[] = [];
      for (const [key, item] of value as Map<string, Value>) parts.push(goQuote(key) + ':' + goSyntax(item));
      return 'map[string]interface {}{' + parts.join(', ') + '}';
    }
    case 'bytes':
      return '[]byte{' + Array.from(value as Uint8Array, (b) => '0x' + b.toString(16)).join(', ') + '}';
    default:
      return goString(value);
  }
}

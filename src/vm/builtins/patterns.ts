import type { BuiltinContext } from '../context';
import { panic } from '../errors';
import type { Value } from '../values';
import { RE2JS, RE2JSSyntaxException } from 're2js';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/** CheckNumberChars(text) → whether every byte is an ASCII letter or digit ("" passes). */
function checkNumberChars(_ctx: BuiltinContext, data: Value): Value {
  return /^[0-9A-Za-z]*$/.test(expectString(data, 'CheckNumberChars'));
}

const HEX = /^[0-9a-fA-F]+$/;

/**
 * The reference reads a pattern holding `\u` or `\U` as the body of a Go string literal first (so
 * `\u00e9` means é, which Go's regular expressions have no escape for), and a pattern that is not a valid
 * body then matches nothing. The escapes of a Go string: `\a \b \f \n \r \t \v \\ \"`, `\xHH`, `\ooo`,
 * `\uHHHH`, `\UHHHHHHHH`; a bare `"` or a line break is not allowed.
 */
function goStringBody(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === '\n') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const kind = body[++i];
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      '"': '"',
    };
    if (kind !== undefined && simple[kind] !== undefined) {
      out += simple[kind];
      continue;
    }
    const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
    if (digits > 0) {
      const hex = body.slice(i + 1, i + 1 + digits);
      if (hex.length !== digits || !HEX.test(hex)) return undefined;
      const value = parseInt(hex, 16);
      // A byte past ASCII would make the text invalid UTF-8; surrogates and values past Unicode are refused.
      if (kind === 'x' ? value > 0x7f : value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
        return undefined;
      }
      out += String.fromCodePoint(value);
      i += digits;
      continue;
    }
    const octal = body.slice(i, i + 3);
    if (/^[0-7]{3}$/.test(octal) && parseInt(octal, 8) <= 0x7f) {
      out += String.fromCharCode(parseInt(octal, 8));
      i += 2;
      continue;
    }
    return undefined;
  }
  return out;
}

/** How Go's regexp quotes a pattern in its errors: in backquotes when it can, else as a Go string. */
function quotePattern(pattern: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[`\u0000-\u0008\u000a-\u001f\u007f\ufeff]/.test(pattern)) return `\`${pattern}\``;
  return JSON.stringify(pattern);
}

const compiled = new Map<string, RE2JS>();
const MAX_COMPILED = 64;

/**
 * The pattern compiled by re2js (RE2's engine ported to JavaScript, the engine Go's regexp is modelled on:
 * the same syntax, the same error texts, and matching in time linear in the text, so no pattern can make
 * a contract hang the way JavaScript's backtracking RegExp can with `(a+)+$`).
 */
function program(ctx: BuiltinContext, pattern: string): RE2JS {
  ctx.chargeWork(pattern.length);
  let found = compiled.get(pattern);
  if (!found) {
    try {
      found = RE2JS.compile(pattern);
    } catch (error) {
      if (error instanceof RE2JSSyntaxException) {
        throw panic(`regexp: Compile(${quotePattern(pattern)}): ${error.message}`);
      }
      throw error;
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, found);
  }
  return found;
}

/**
 * Work units a match is charged before it runs: RE2 steps through the text once per position and pattern
 * state, and a match cannot pause, so its whole cost is taken first and a contract out of fuel never starts it.
 */
const matchCost = (text: string, pattern: string) => text.length * (4 + Math.ceil(pattern.length / 4));

/**
 * RegexpMatch(text, pattern) → whether the RE2 pattern (Go's syntax) matches anywhere in the text. An
 * invalid pattern is an error with Go's text, as the reference's MustCompile panics with it.
 */
function regexpMatch(ctx: BuiltinContext, textArg: Value, patternArg: Value): Value {
  const text = expectString(textArg, 'RegexpMatch', 1);
  let pattern = expectString(patternArg, 'RegexpMatch', 2);
  if (pattern.includes('\\u') || pattern.includes('\\U')) {
    const unquoted = goStringBody(pattern);
    if (unquoted === undefined) return false;
    pattern = unquoted;
  }
  const compiledPattern = program(ctx, pattern);
  ctx.chargeWork(matchCost(text, pattern));
  return compiledPattern.matcher(text).find();
}

export const patternBuiltins: BuiltinDef[] = [
  { name: 'CheckNumberChars', fn: checkNumberChars, params: 1, async: false },
  { name: 'RegexpMatch', fn: regexpMatch, params: 2, async: false },
];

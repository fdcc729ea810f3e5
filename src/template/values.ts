import { goFloatString, goQuote } from '../vm/format';
import { dict, type AttrValue, type WhereMap, type WhereValue } from './types';

/**
 * Parsing helpers for parameter values: the lenient object syntax of Where/Order/Columns, `Params` lists,
 * arrays of ArrayToSource, CSV of Data, and Go's `%v` of decoded JSON.
 */

export class ObjectSyntaxError extends Error {}

function trimQuoted(text: string): string {
  const out = text.trim();
  return out.length >= 2 && out.startsWith('"') && out.endsWith('"') ? out.slice(1, -1) : out;
}

/**
 * The lenient `{key: value, …}` / `[a, b]` syntax: keys and scalars are raw text (one pair of double quotes
 * removed), every scalar is a string, a doubled or trailing comma is an error, an empty object or array is "".
 */
export function parseObject(input: string): WhereValue {
  return parseAt(input, 0).value;
}

function parseAt(input: string, start: number): { value: WhereValue; end: number } {
  const mapMode = input[start] === '{';
  const map: WhereMap = dict();
  const list: WhereValue[] = [];
  let key = '';
  let quote = false;
  let from = start + 1;
  let prev = ' ';
  let i = start + 1;
  const addEmptyKey = (): void => {
    if (mapMode) map[key] = '';
    else if (key) list.push({ [key]: '' });
    key = '';
  };
  const add = (value: WhereValue): void => {
    if (mapMode) {
      map[key] = value;
    } else if (key) {
      list.push({ [key]: value });
    } else {
      list.push(value);
    }
    key = '';
  };
  for (; i < input.length; i++) {
    const ch = input[i];
    if (quote && ch !== '"') continue;
    if (ch === ']' && !mapMode) break;
    if (ch === '}' && mapMode) break;
    if (ch === '{' || ch === '[') {
      const inner = parseAt(input, i);
      if (mapMode && !key) {
        if (typeof inner.value === 'object' && !Array.isArray(inner.value)) Object.assign(map, inner.value);
      } else {
        add(inner.value);
      }
      i = inner.end;
      from = i + 1;
    } else if (ch === '"') {
      quote = !quote;
    } else if (ch === ':') {
      if (!key) {
        key = trimQuoted(input.slice(from, i));
        from = i + 1;
      }
    } else if (ch === ',') {
      const value = trimQuoted(input.slice(from, i));
      if (prev === ',') throw new ObjectSyntaxError('unexpected comma');
      if (!value && key) addEmptyKey();
      if (value) add(value);
      from = i + 1;
    }
    if (ch !== ' ') prev = ch;
  }
  if (prev === ',') throw new ObjectSyntaxError('unexpected comma');
  if (from < i) {
    const last = trimQuoted(input.slice(from, i));
    if (last) add(last);
    else if (key) addEmptyKey();
  }
  if (mapMode) return { value: Object.keys(map).length === 0 ? '' : map, end: i };
  return { value: list.length === 0 ? '' : list, end: i };
}

/**
 * `Params`/`PageParams`: `name=value` pairs split at top-level commas; a value `Type(a, b)` becomes
 * `{type, params}`, anything else `{type: "text", text}`; an item without `=` names itself.
 */
export function parseParamList(text: string): Record<string, AttrValue> {
  const items: string[] = [];
  let current = '';
  const stack: string[] = [];
  for (const ch of text) {
    switch (ch) {
      case '"':
        if (stack.length > 0 && stack[stack.length - 1] === '"') stack.pop();
        else stack.push('"');
        break;
      case '(':
        stack.push(')');
        break;
      case '{':
        stack.push('}');
        break;
      case '[':
        stack.push(']');
        break;
      case ')':
      case '}':
      case ']':
        if (stack.length > 0 && stack[stack.length - 1] === ch) stack.pop();
        break;
      case ',':
        if (stack.length === 0) {
          items.push(current);
          current = '';
          continue;
        }
    }
    current += ch;
  }
  if (current) items.push(current);
  const out = dict<AttrValue>();
  for (const raw of items) {
    const item = raw.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 0) {
      out[item] = { type: 'text', text: item };
      continue;
    }
    const value = item.slice(eq + 1).trim();
    const call = /^([\s\S]*)\(([\s\S]*)\)/.exec(value);
    out[item.slice(0, eq).trim()] = call
      ? { type: call[1], params: call[2].split(',').map((part) => part.trim()) }
      : { type: 'text', text: value };
  }
  return out;
}

/** ArrayToSource's list: `[a, "b", {…}]` split at top-level commas, one pair of leading quotes removed. */
export function splitArray(text: string): string[] {
  let input = [...text];
  const out: string[] = [];
  if (input.length === 0) return out;
  if (input[0] === '[' && input[input.length - 1] === ']') input = input.slice(1, -1);
  let quote = '';
  let trim = '';
  let from = 0;
  const braces: string[] = [];
  const push = (end: number): void => {
    let item = input.slice(from, end).join('').trim();
    if (item.length > 0 && item[item.length - 1] === trim) item = item.slice(0, -1);
    out.push(item);
  };
  input.forEach((ch, i) => {
    if (ch === '[') braces.push(']');
    if (ch === '{') braces.push('}');
    if (braces.length > 0) {
      if (ch === braces[braces.length - 1]) braces.pop();
      return;
    }
    if (ch === quote) {
      quote = '';
      return;
    }
    if (quote) return;
    if (ch === ' ' && from === i) {
      from++;
      return;
    }
    if (ch === '"' || ch === '`' || ch === "'") {
      quote = ch;
      if (from === i) {
        trim = ch;
        from++;
      }
    }
    if (ch === ',') {
      push(i);
      from = i + 1;
      trim = '';
    }
  });
  if (from < input.length) push(input.length);
  return out;
}

/** Go's `fmt.Sprint` of a value decoded by encoding/json into interface{}. */
export function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goFloatString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(goSprint).join(' ') + ']';
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return 'map[' + entries.map(([key, item]) => key + ':' + goSprint(item)).join(' ') + ']';
}

/** Go's `%q` of a JSON-decoded value (strings quoted, anything else the `%!q(type=value)` form). */
export function goQuoteValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return `%!q(float64=${goFloatString(value)})`;
  if (typeof value === 'boolean') return `%!q(bool=${value})`;
  if (value === null || value === undefined) return '%!q(<nil>)';
  return goSprint(value);
}

export class CsvError extends Error {}

/**
 * Go's encoding/csv ReadAll with its defaults: `,` separator, `"` quoting with `""` escapes, empty lines skipped,
 * every record as long as the first. Errors carry Go's text (`record on line 2: wrong number of fields`).
 */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  const input = text.replace(/\r\n/g, '\n');
  let line = 1;
  let i = 0;
  let fieldsPerRecord = 0;
  while (i < input.length) {
    if (input[i] === '\n') {
      line++;
      i++;
      continue;
    }
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (input[i] === '"') {
        const quoteLine = line;
        const quoteColumn = columnOf(input, i);
        i++;
        for (;;) {
          if (i >= input.length) {
            throw parseError(recordLine, quoteLine, quoteColumn, 'extraneous or missing " in quoted-field');
          }
          const ch = input[i];
          if (ch === '"') {
            if (input[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            if (i < input.length && input[i] !== ',' && input[i] !== '\n') {
              throw parseError(
                recordLine,
                line,
                columnOf(input, i),
                'extraneous or missing " in quoted-field',
              );
            }
            break;
          }
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
      } else {
        while (i < input.length && input[i] !== ',' && input[i] !== '\n') {
          if (input[i] === '"')
            throw parseError(recordLine, line, columnOf(input, i), 'bare " in non-quoted field');
          field += input[i];
          i++;
        }
      }
      fields.push(field);
      if (input[i] === ',') {
        i++;
        continue;
      }
      if (input[i] === '\n') {
        line++;
        i++;
      }
      break;
    }
    if (fieldsPerRecord === 0) fieldsPerRecord = fields.length;
    else if (fields.length !== fieldsPerRecord) {
      throw new CsvError(`record on line ${recordLine}: wrong number of fields`);
    }
    records.push(fields);
  }
  return records;
}

function columnOf(input: string, index: number): number {
  const lineStart = input.lastIndexOf('\n', index - 1) + 1;
  return Buffer.byteLength(input.slice(lineStart, index)) + 1;
}

function parseError(recordLine: number, line: number, column: number, message: string): CsvError {
  return new CsvError(
    recordLine !== line
      ? `record on line ${recordLine}; parse error on line ${line}, column ${column}: ${message}`
      : `parse error on line ${line}, column ${column}: ${message}`,
  );
}

/** Go's `quoteChar` of encoding/json errors. */
function quoteChar(ch: string): string {
  if (ch === "'") return `'\\''`;
  if (ch === '"') return `'"'`;
  return `'${goQuote(ch).slice(1, -1)}'`;
}

/**
 * The message Go's encoding/json gives for text that is not JSON (`invalid character 'b' looking for beginning of
 * object key string`, `unexpected end of JSON input`); undefined when the text is JSON.
 */
export function goJsonSyntaxError(text: string): string | undefined {
  const chars = [...text];
  let i = 0;
  class Fault extends Error {}
  const fail = (context: string): never => {
    throw new Fault(
      i >= chars.length
        ? 'unexpected end of JSON input'
        : `invalid character ${quoteChar(chars[i])} ${context}`,
    );
  };
  const space = (): void => {
    while (i < chars.length && ' \t\r\n'.includes(chars[i])) i++;
  };
  const digits = (context: string): void => {
    if (!(chars[i] >= '0' && chars[i] <= '9')) fail(context);
    while (chars[i] >= '0' && chars[i] <= '9') i++;
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= chars.length) fail('in string literal');
      const ch = chars[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch < ' ') fail('in string literal');
      if (ch === '\\') {
        i++;
        if (chars[i] === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(chars[i] ?? '')) fail('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(chars[i] ?? 'x') || i >= chars.length) {
          fail('in string escape code');
        }
      }
      i++;
    }
  };
  const value = (): void => {
    space();
    const ch = chars[i];
    if (ch === '{') {
      i++;
      space();
      if (chars[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        if (chars[i] !== '"') fail('looking for beginning of object key string');
        string();
        space();
        if (chars[i] !== ':') fail('after object key');
        i++;
        value();
        space();
        if (chars[i] === '}') {
          i++;
          return;
        }
        if (chars[i] !== ',') fail('after object key:value pair');
        i++;
        space();
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (chars[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (chars[i] === ']') {
          i++;
          return;
        }
        if (chars[i] !== ',') fail('after array element');
        i++;
      }
    }
    if (ch === '"') return string();
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      if (ch === '-') i++;
      if (chars[i] === '0') i++;
      else digits('in numeric literal');
      if (chars[i] === '.') {
        i++;
        digits('after decimal point in numeric literal');
      }
      if (chars[i] === 'e' || chars[i] === 'E') {
        i++;
        if (chars[i] === '+' || chars[i] === '-') i++;
        digits('in exponent of numeric literal');
      }
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (ch !== literal[0]) continue;
      for (let k = 1; k < literal.length; k++) {
        i++;
        if (chars[i] !== literal[k]) fail(`in literal ${literal} (expecting ${quoteChar(literal[k])})`);
      }
      i++;
      return;
    }
    fail('looking for beginning of value');
  };
  try {
    value();
    space();
    if (i < chars.length) fail('after top-level value');
    return undefined;
  } catch (error) {
    if (error instanceof Fault) return error.message;
    throw error;
  }
}

import { isLosslessNumber } from 'lossless-json';
import type { Value } from '../vm';
import { TableError } from './catalog';
import { WHERE_LIMITS } from './where';

/**
 * Reads the where-object text of the list endpoints (rest-api.md §8.4): the template object syntax, not
 * JSON. `{…}` maps keep their order, `[…]` lists; keys and scalars are the raw text between delimiters,
 * trimmed, with one pair of surrounding double quotes removed; inside double quotes `, : { } [ ]` are
 * literal and there are no escapes; every scalar is a string; an empty `{}`/`[]` value is "".
 */
class WhereTextReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  read(): Map<string, Value> {
    const where = this.object(0);
    this.skipSpace();
    if (this.pos < this.text.length) this.fail();
    return where;
  }

  private fail(): never {
    throw new TableError('where parse object failed');
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  /** Steps into `{` or `[`; true when it closes at once. */
  private enter(depth: number, close: string): boolean {
    if (depth > WHERE_LIMITS.depth) throw new TableError(`where: nested deeper than ${WHERE_LIMITS.depth}`);
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  private object(depth: number): Map<string, Value> {
    const map = new Map<string, Value>();
    if (this.enter(depth, '}')) return map;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === ',') throw new TableError('unexpected comma');
      const key = this.scalar(':,{}[]');
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      map.set(key, this.value('}', depth));
      if (this.next('}')) return map;
    }
  }

  private list(depth: number): Value[] {
    const items: Value[] = [];
    if (this.enter(depth, ']')) return items;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === ',') throw new TableError('unexpected comma');
      items.push(this.value(']', depth));
      if (this.next(']')) return items;
    }
  }

  /** After a member: `,` and more (a trailing comma is refused), or the closing bracket. */
  private next(close: string): boolean {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === close) {
      this.pos++;
      return true;
    }
    if (ch !== ',') this.fail();
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === close || this.text[this.pos] === ',')
      throw new TableError('unexpected comma');
    return false;
  }

  private value(close: string, depth: number): Value {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === '{') {
      const map = this.object(depth + 1);
      return map.size === 0 ? '' : map;
    }
    if (ch === '[') {
      const items = this.list(depth + 1);
      return items.length === 0 ? '' : items;
    }
    return this.scalar(`,${close}{}[]`);
  }

  private scalar(stops: string): string {
    const start = this.pos;
    let quoted = false;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === '"') quoted = !quoted;
      else if (!quoted && stops.includes(ch)) break;
      this.pos++;
    }
    if (quoted || this.pos >= this.text.length) this.fail();
    const raw = this.text.slice(start, this.pos).trim();
    return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  }
}

/**
 * The `where` form value of listWhere, nodelistWhere and sumWhere: `undefined` for no filter (absent or
 * empty), else the where-map. Anything but an object is refused as the reference words it.
 */
export function parseWhereText(text: string | undefined): Map<string, Value> | undefined {
  if (text === undefined || text === '') return undefined;
  if (!text.startsWith('{')) throw new TableError('Where has wrong format');
  return new WhereTextReader(text).read();
}

/**
 * A where-map given as JSON (JSON-RPC getList may pass the object itself): maps keep their order, and
 * every scalar becomes its text, as in the object syntax.
 */
export function whereFromJson(value: unknown, depth = 0): Value {
  if (depth > WHERE_LIMITS.depth + 1) throw new TableError(`where: nested deeper than ${WHERE_LIMITS.depth}`);
  if (Array.isArray(value)) return value.map((item) => whereFromJson(item, depth + 1));
  if (isLosslessNumber(value)) return value.value;
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value).map(([key, item]) => [key, whereFromJson(item, depth + 1)]));
  }
  return String(value);
}

/**
 * The `order` of the list endpoints: JSON (a column name, `{"col": -1}`, or a list of those), or, when it
 * is not JSON, the text itself as a column list (`name desc, id`).
 */
export function parseOrderText(text: string | undefined): Value {
  if (text === undefined || text.trim() === '') return null;
  if (!mayBeJson(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return whereFromJson(parsed);
}

/** JSON's own whitespace: space, tab, line feed, carriage return. */
const isJsonSpace = (char: string | undefined) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\r';

/**
 * Whether `JSON.parse` could read the text: false for what it would certainly refuse, such as a column
 * list (`qty`, `name desc, id`), the usual order. Its refusal throws, and a thrown error (its stack) cost
 * a sixteenth of a `listWhere` request. Scanned by index: the text is the caller's, and a regular
 * expression for "whitespace at the end" backtracks quadratically on a long run of spaces.
 */
function mayBeJson(text: string): boolean {
  let start = 0;
  while (isJsonSpace(text[start])) start++;
  if (/[{["\d-]/.test(text[start] ?? '')) return true;
  let end = text.length;
  while (end > start && isJsonSpace(text[end - 1])) end--;
  const value = text.slice(start, end);
  return value === 'true' || value === 'false' || value === 'null';
}

import { FUNCTIONS, TAILS, type FuncSpec } from './catalog';

/**
 * Splits template text into text runs and calls. Parameters stay raw text: macros, language labels and nested
 * calls inside them are resolved only when the call runs, because a `SetVar` earlier on the page can change
 * what they mean. Bodies are scanned again (through the cache) when they are rendered.
 */
export interface TailCall {
  spec: FuncSpec;
  params: string[];
}

export interface CallSegment {
  kind: 'call';
  spec: FuncSpec;
  params: string[];
  tails: TailCall[];
}

export interface TextSegment {
  kind: 'text';
  text: string;
  /** Text before a call is macro-expanded at once; the text after the last call is expanded by its owner. */
  expandNow: boolean;
}

export type Segment = CallSegment | TextSegment;

function isLatinLetter(ch: string): boolean {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

const CACHE_LIMIT = 4096;
const cache = new Map<string, Segment[]>();

/** Scans a template (cached: pages, snippets and bodies are scanned once per text). */
export function scan(input: string): Segment[] {
  let segments = cache.get(input);
  if (!segments) {
    segments = scanText(input);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(input, segments);
  }
  return segments;
}

function scanText(input: string): Segment[] {
  const segments: Segment[] = [];
  let textStart = 0;
  // Where the run of Latin letters just before the current position starts: only that run names a function.
  let nameStart = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '(') {
      const spec = FUNCTIONS.get(input.slice(nameStart, i));
      if (spec) {
        const text = input.slice(textStart, nameStart);
        if (text.trim() !== '') segments.push({ kind: 'text', text, expandNow: true });
        let call = scanCall(input, i, spec);
        segments.push({ kind: 'call', spec, params: call.params, tails: call.tails });
        let end = call.end;
        // `Name(a).(b)` calls the same function again with new parameters.
        while (end + 3 < input.length && input[end + 1] === '.' && input[end + 2] === '(') {
          call = scanCall(input, end + 2, spec);
          segments.push({ kind: 'call', spec, params: call.params, tails: call.tails });
          end = call.end;
        }
        i = end;
        textStart = nameStart = end + 1;
        continue;
      }
    }
    if (!isLatinLetter(ch)) nameStart = i + 1;
  }
  const rest = input.slice(textStart);
  if (rest.trim() !== '') segments.push({ kind: 'text', text: rest, expandNow: false });
  return segments;
}

interface ScannedCall {
  params: string[];
  tails: TailCall[];
  /** Index of the closing `)` or `}` (the last index when the call is not closed). */
  end: number;
}

/**
 * Reads the parameters of a call whose `(` (or, for a tail, `{`) is at `start`. Commas split parameters only at
 * the outer level and only up to the declared count (the rest stays in the last one); a parameter that starts
 * with a quote is unquoted (a doubled quote is a literal one), one that starts with `[` or `{` is kept verbatim
 * up to its matching bracket. A `{…}` right after `)` becomes the `Body:` (or `Data:`) parameter, and the tails
 * of the function's tag follow.
 */
export function scanCall(input: string, start: number, spec: FuncSpec): ScannedCall {
  const params: string[] = [''];
  const tails: TailCall[] = [];
  const maxParams = spec.params === '*' ? 0xff : spec.paramList.length;
  let current = 0;
  let braces = input[start] === '{';
  let level = 1;
  let objectLevel = 0;
  let objectOpen = '';
  let objectClose = '';
  let pair = '';
  let keepQuote = false;
  for (let i = start + 1; i < input.length; i++) {
    const ch = input[i];
    if (objectLevel > 0) {
      params[current] += ch;
      if (ch === objectOpen) objectLevel++;
      else if (ch === objectClose) objectLevel--;
      continue;
    }
    if (pair) {
      if (ch !== pair) {
        params[current] += ch;
      } else if (input[i + 1] === pair) {
        params[current] += ch;
        i++;
      } else {
        pair = '';
        if (keepQuote) {
          params[current] += ch;
          keepQuote = false;
        }
      }
      continue;
    }
    const open = braces ? '{' : '(';
    const close = braces ? '}' : ')';
    if (params[current].length === 0 && !braces && ch !== close && ch !== ',') {
      if (ch > ' ') {
        if (ch === '"' || ch === '`') {
          pair = ch;
        } else if (ch === '[' || ch === '{') {
          objectOpen = ch;
          objectClose = ch === '[' ? ']' : '}';
          objectLevel = 1;
          params[current] += ch;
        } else {
          if (ch === open) level++;
          params[current] += ch;
        }
      }
      continue;
    }
    if ((ch === '"' || ch === '`') && !braces) {
      pair = ch;
      keepQuote = true;
    } else if (ch === ',') {
      if (!braces && level === 1 && params.length < maxParams) {
        params.push('');
        current++;
        continue;
      }
    } else if (ch === open) {
      level++;
    } else if (ch === close) {
      if (level > 0) level--;
      if (level === 0) {
        if (!braces && (spec.params.includes('Body') || spec.params.includes('Data'))) {
          const next = skipBlanks(input, i + 1);
          if (input[next] === '{') {
            braces = true;
            params.push(spec.params.includes('Body') ? 'Body:' : 'Data:');
            current++;
            i = next;
            level = 1;
            continue;
          }
        }
        return { params, tails, end: scanTails(input, i, spec, tails) };
      }
    }
    params[current] += ch;
  }
  return { params, tails, end: input.length - 1 };
}

function skipBlanks(input: string, from: number): number {
  let next = from;
  while (input[next] === ' ' || input[next] === '\t') next++;
  return next;
}

/** Reads `.Tail(…)` / `.Tail{…}` after the call's closing character at `end`; returns the new end. */
function scanTails(input: string, end: number, spec: FuncSpec, out: TailCall[]): number {
  const table = TAILS.get(spec.tag);
  if (!table) return end;
  let position = end;
  while (position + 2 < input.length && input[position + 1] === '.') {
    let found: FuncSpec | undefined;
    for (const [name, tail] of table) {
      if (!input.startsWith(name, position + 2)) continue;
      const next = skipBlanks(input, position + 2 + name.length);
      if (input[next] !== '(' && input[next] !== '{') continue;
      const call = scanCall(input, next, tail);
      out.push({ spec: tail, params: call.params });
      position = call.end;
      found = tail;
      break;
    }
    if (!found || found.last) break;
  }
  return position;
}

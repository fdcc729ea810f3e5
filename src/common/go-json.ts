/**
 * JSON text as Go's encoding/json writes it, which the reference node's clients (and page hashes) see:
 * BigInt as exact integers, `<` `>` `&` U+2028 U+2029 escaped, lone surrogates as U+FFFD, bytes as
 * standard base64, objects and Maps in insertion order, `undefined` members left out (omitempty is
 * decided by whoever builds the value). JSON.stringify can do none of the first three.
 */
export function goJsonStringify(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

/**
 * Marks an object as never changing again, so that its JSON text is written once and reused: for an answer
 * many requests share until the chain changes (writing a page of rows was a tenth of such a request's
 * CPU). The text is kept on the object, in a hidden `toGoJson`, and goes when the object goes.
 */
export function keepGoJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null || !Object.isExtensible(value)) return value;
  let text: string | undefined;
  Object.defineProperty(value, 'toGoJson', {
    value: () => {
      if (text === undefined) {
        const out: string[] = [];
        writeObject(value, out);
        text = out.join('');
      }
      return text;
    },
  });
  return value;
}

// Characters Go escapes inside strings, besides `"` and `\`.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const ESCAPABLE = /["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

function escapeChar(ch: string): string {
  if (ch.length === 2) return ch; // a valid surrogate pair stays as it is
  switch (ch) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  const code = ch.charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  return '\\u' + code.toString(16).padStart(4, '0');
}

export function goJsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPABLE, escapeChar)}"` : `"${text}"`;
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(goJsonString(value));
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`JSON cannot hold ${value}`);
      out.push(Object.is(value, -0) ? '0' : String(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'undefined':
      out.push('null');
      return;
    case 'object':
      break;
    default:
      throw new TypeError(`JSON cannot hold a ${typeof value}`);
  }
  if (value === null) out.push('null');
  else if (typeof (value as { toGoJson?: unknown }).toGoJson === 'function') {
    out.push((value as { toGoJson(): string }).toGoJson());
  } else writeObject(value, out);
}

function writeObject(value: object, out: string[]): void {
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else if (value instanceof Uint8Array) {
    out.push('"', Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'), '"');
  } else if (value instanceof Map) {
    writeEntries(value.entries(), out);
  } else {
    writeEntries(Object.entries(value), out);
  }
}

function writeEntries(entries: Iterable<[unknown, unknown]>, out: string[]): void {
  out.push('{');
  let first = true;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(goJsonString(String(key)), ':');
    write(item, out);
  }
  out.push('}');
}

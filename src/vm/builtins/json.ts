import { goJsonDecode, goJsonEncode } from '../format';
import type { Value } from '../values';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/**
 * The reference's JSONEncode marshals with Go's encoding/json and then turns `\u003c`, `\u003e`, `\u0026` back
 * into `<`, `>`, `&`; JSONEncodeIndent does the same with indentation.
 */
export function contractJsonEncode(value: Value, indent = ''): string {
  const compact = goJsonEncode(value);
  const text = indent === '' ? compact : indentJson(compact, indent);
  return text
    .replace(/\\u003c/g, '<')
    .replace(/\\u003e/g, '>')
    .replace(/\\u0026/g, '&');
}

/** Go json.MarshalIndent layout (prefix ""): one element per line, `": "` after keys, empty containers kept short. */
function indentJson(compact: string, indent: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const char = compact[i];
    if (inString) {
      out += char;
      if (char === '\\') out += compact[++i];
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        out += char;
        break;
      case '{':
      case '[': {
        const close = char === '{' ? '}' : ']';
        if (compact[i + 1] === close) {
          out += char + close;
          i++;
        } else {
          depth++;
          out += char + '\n' + indent.repeat(depth);
        }
        break;
      }
      case '}':
      case ']':
        depth--;
        out += '\n' + indent.repeat(depth) + char;
        break;
      case ',':
        out += ',\n' + indent.repeat(depth);
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += char;
    }
  }
  return out;
}

export const jsonBuiltins: BuiltinDef[] = [
  { name: 'JSONEncode', async: false, params: 1, fn: (_ctx, value) => contractJsonEncode(value) },
  {
    name: 'JSONEncodeIndent',
    async: false,
    params: 2,
    fn: (_ctx, value, indent) => contractJsonEncode(value, expectString(indent, 'JSONEncodeIndent', 2)),
  },
  {
    name: 'JSONDecode',
    async: false,
    params: 1,
    fn: (_ctx, text) => goJsonDecode(expectString(text, 'JSONDecode')),
  },
];

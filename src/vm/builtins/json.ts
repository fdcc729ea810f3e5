import { goJsonDecode, goJsonEncode } from '../format';
import { arrayCost, isTwoByte, mapCost, stringCostOf, VALUE_COSTS } from '../memory';
import type { Value } from '../values';
import { jsonOf, reserveText } from './budget';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/**
 * The reference's JSONEncode marshals with Go's encoding/json and then turns `\u003c`, `\u003e`, `\u0026` back
 * into `<`, `>`, `&`; JSONEncodeIndent does the same with indentation.
 */
export function contractJsonEncode(value: Value, indent = ''): string {
  return unescapeHtml(indent === '' ? goJsonEncode(value) : indentJson(goJsonEncode(value), indent));
}

function unescapeHtml(text: string): string {
  return text.includes('\\u00') ? text.replace(HTML_ESCAPES, (escape) => HTML_CHARACTERS[escape]) : text;
}

const HTML_ESCAPES = /\\u003c|\\u003e|\\u0026/g;
const HTML_CHARACTERS: Record<string, string> = { '\\u003c': '<', '\\u003e': '>', '\\u0026': '&' };

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

/** The length `indentJson` gives a compact text, worked out before it is built. */
function indentedLength(compact: string, indent: string): number {
  let length = compact.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const char = compact[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        break;
      case '{':
      case '[':
        if (compact[i + 1] === (char === '{' ? '}' : ']')) i++;
        else length += 1 + ++depth * indent.length;
        break;
      case '}':
      case ']':
        length += 1 + --depth * indent.length;
        break;
      case ',':
        length += 1 + depth * indent.length;
        break;
      case ':':
        length += 1;
        break;
    }
  }
  return length;
}

/**
 * An upper bound of what JSON.parse and the conversion to maps build from a text, counted before parsing:
 * objects and arrays twice (the parser's and the converted ones), an entry or element with a boxed number
 * per separator, and strings at two bytes a character.
 */
function decodedCost(text: string): number {
  let cost = 0;
  let inString = false;
  let stringLength = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) {
        inString = false;
        cost += stringCostOf(stringLength, true);
      } else stringLength++;
      continue;
    }
    switch (code) {
      case 0x22: // "
        inString = true;
        stringLength = 0;
        break;
      case 0x7b: // {
        cost += 2 * mapCost(0);
        break;
      case 0x5b: // [
        cost += 2 * arrayCost(1);
        break;
      case 0x2c: // ,
      case 0x3a: // :
        cost += VALUE_COSTS.mapEntry + VALUE_COSTS.float;
        break;
    }
  }
  return cost + VALUE_COSTS.mapEntry + VALUE_COSTS.float;
}

export const jsonBuiltins: BuiltinDef[] = [
  {
    name: 'JSONEncode',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, value) => unescapeHtml(jsonOf(ctx, value)),
  },
  {
    name: 'JSONEncodeIndent',
    async: true,
    params: 2,
    reserves: true,
    fn: (ctx, value, indentArg) => {
      const indent = expectString(indentArg, 'JSONEncodeIndent', 2);
      const compact = jsonOf(ctx, value);
      reserveText(ctx, indentedLength(compact, indent), isTwoByte(compact) || isTwoByte(indent));
      return unescapeHtml(indentJson(compact, indent));
    },
  },
  {
    name: 'JSONDecode',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, textArg) => {
      const text = expectString(textArg, 'JSONDecode');
      ctx.reserveMemory(decodedCost(text));
      ctx.chargeWork(text.length);
      return goJsonDecode(text);
    },
  },
];

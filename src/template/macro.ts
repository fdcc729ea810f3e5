/** A template variable; `asIs` values (VarAsIs) are inserted without expanding the macros inside them. */
export interface TemplateVar {
  value: string;
  asIs: boolean;
}

export type VarMap = Map<string, TemplateVar>;

const MAX_DEPTH = 16;
const MAX_NAME = 64;

/**
 * Expands `#name#` macros. An unknown name expands to nothing; a `#` followed by a blank or by more than 64
 * characters stays as written; a value's own macros are expanded up to 16 levels, and a name that would
 * expand into itself stays as `#name#`. `limit` bounds the expanded length (repeated self-concatenation).
 */
export function expandMacros(input: string, vars: VarMap, limit: number): string {
  if (!input.includes('#')) return input;
  return replace(input, [], vars, limit);
}

function replace(input: string, levels: string[], vars: VarMap, limit: number): string {
  let result = '';
  let inName = false;
  let name = '';
  let nameLength = 0;
  for (const ch of input) {
    if (ch !== '#') {
      if (inName) {
        name += ch;
        nameLength++;
        if (nameLength > MAX_NAME || ch <= ' ') {
          result += '#' + name;
          inName = false;
          name = '';
          nameLength = 0;
        }
      } else {
        result += ch;
      }
      continue;
    }
    if (inName) {
      const found = vars.get(name);
      if (found) {
        const loop = levels.length >= MAX_DEPTH || levels.includes(name);
        if (loop) {
          result += '#' + name + '#';
        } else if (found.asIs) {
          result += found.value;
        } else {
          levels.push(name);
          result += replace(found.value, levels, vars, limit);
          levels.pop();
        }
        if (result.length > limit) throw new MacroOverflow();
      }
      inName = false;
      name = '';
      nameLength = 0;
    } else {
      inName = true;
    }
  }
  if (inName) result += '#' + name;
  return result;
}

/** Thrown when an expansion outgrows the render's size limit (the renderer turns it into a heavy page). */
export class MacroOverflow extends Error {
  constructor() {
    super('macro expansion is too long');
  }
}

/**
 * The deepest nesting of arrays and objects in JSON text, found without parsing it. JSON parsers here
 * recurse per level and offer no depth bound, so a hostile body is measured before any parser sees it.
 * Stops counting once `limit` is exceeded (the text beyond that cannot change the verdict).
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, including a quote
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Language resources: `$label$` labels and the choice of a translation. Pure, so that both the page renderer
 * and the node's section titles (src/interface) use the same rules.
 */

/** `$label$` or `$@2label$`: at most 64 characters, no space, no control character, no `$`. */
export const LANGUAGE_LABEL = /\$([^\s$\p{Cc}]{1,64})\$/gu;

/**
 * The language codes to try for an Accept-Language text (or a `lang` value), best first: each listed
 * language as `xx-yy` when it has a region, then its base `xx`; English last. An item shorter than two
 * characters ends the list.
 */
export function languageCandidates(accept: string | undefined): string[] {
  const candidates: string[] = [];
  for (const raw of (accept ?? '').split(',')) {
    const item = raw.trim().toLowerCase();
    if (item.length < 2) break;
    if (/^[a-z]{2}-[a-z]{2}/.test(item)) candidates.push(item.slice(0, 5));
    candidates.push(item.slice(0, 2));
  }
  candidates.push('en');
  return candidates;
}

/**
 * A resource's text (`res`: language code → text) for the first candidate that has a non-empty one, else any
 * non-empty one; undefined when it has none.
 */
export function pickFromCandidates(
  res: Record<string, unknown>,
  candidates: readonly string[],
): string | undefined {
  const texts = nonEmptyTexts(res);
  for (const code of candidates) {
    const text = texts.get(code);
    if (text !== undefined) return text;
  }
  return texts.values().next().value;
}

/** Resources are read-only and kept between renders: each is indexed by lower-cased code once. */
const indexed = new WeakMap<Record<string, unknown>, Map<string, string>>();

function nonEmptyTexts(res: Record<string, unknown>): Map<string, string> {
  let texts = indexed.get(res);
  if (!texts) {
    texts = new Map();
    for (const [code, text] of Object.entries(res)) {
      if (typeof text === 'string' && text !== '') texts.set(code.toLowerCase(), text);
    }
    indexed.set(res, texts);
  }
  return texts;
}

/** {@link pickFromCandidates} for an Accept-Language text. */
export function pickLanguage(res: Record<string, unknown>, accept: string | undefined): string | undefined {
  return pickFromCandidates(res, languageCandidates(accept));
}

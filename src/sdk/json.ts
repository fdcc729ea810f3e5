import { parse as parseLossless } from 'lossless-json';

/** Parses JSON keeping every integer exact: safe integers as numbers, larger ones as BigInt. */
export function parseExactJson(text: string): any {
  return parseLossless(text, undefined, (value) => {
    if (/^-?\d+$/.test(value)) {
      const big = BigInt(value);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(big)
        : big;
    }
    return Number(value);
  });
}

/** JSON text of a value with BigInt written as exact integers. */
export function exactJsonText(value: unknown): string {
  const marker = `@@bigint-${Math.random().toString(36).slice(2)}@@`;
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${marker}${item}` : item,
  );
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}

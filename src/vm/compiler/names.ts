export const DATA_FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;

export function objectKey(ecosystem: number, name: string): string {
  return `@${ecosystem}${name}`;
}

/** `@1Name` → { ecosystem: 1, name: 'Name' }; `@Name` means ecosystem 1. */
export function splitPrefixedName(text: string): { ecosystem: number; name: string } {
  const match = /^(\d*)(.*)$/.exec(text)!;
  return { ecosystem: match[1] === '' ? 1 : Number(match[1]), name: match[2] };
}

/** The key a contract name resolves to from code of `ecosystem`: `@1X` as is, `@X` → `@1X`, `X` → `@<eco>X`. */
export function resolveContractKey(name: string, ecosystem: number): string {
  if (name.startsWith('@')) {
    const parsed = splitPrefixedName(name.slice(1));
    return objectKey(parsed.ecosystem, parsed.name);
  }
  return objectKey(ecosystem, name);
}

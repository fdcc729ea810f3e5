/** Go's converter.StrToInt64/StrToInt: a strict decimal, anything else 0. */
export function strToInt(text: string): bigint {
  const trimmed = text;
  if (!/^[+-]?\d+$/.test(trimmed)) return 0n;
  const value = BigInt(trimmed);
  return value > 0x7fffffffffffffffn || value < -0x8000000000000000n ? 0n : value;
}

export function numberOf(text: string): number {
  return Number(strToInt(text));
}

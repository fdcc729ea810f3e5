/**
 * Byte sizes as the REST/JSON-RPC block views print them (json-rpc.md §6.6): Go's "%.2f" plus a binary
 * unit, each unit used only strictly above its threshold ("1024.00B", "1.53KiB").
 */
const UNITS: ReadonlyArray<readonly [bigint, string]> = [
  [1n << 40n, 'TiB'],
  [1n << 30n, 'GiB'],
  [1n << 20n, 'MiB'],
  [1n << 10n, 'KiB'],
];

/**
 * Exact integer arithmetic with ties rounded to even, as Go's formatting of the exact binary value
 * does (3200 bytes → "3.12KiB", where JS toFixed would say "3.13").
 */
function formatHundredths(numerator: bigint, denominator: bigint): string {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let hundredths = (magnitude * 100n) / denominator;
  const twiceRemainder = ((magnitude * 100n) % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && hundredths % 2n === 1n)) {
    hundredths += 1n;
  }
  const whole = hundredths / 100n;
  const fraction = (hundredths % 100n).toString().padStart(2, '0');
  return `${negative && hundredths !== 0n ? '-' : ''}${whole}.${fraction}`;
}

export function formatSize(bytes: number | bigint): string {
  if (typeof bytes === 'number' && !Number.isSafeInteger(bytes)) {
    throw new RangeError(`size ${bytes} is not an integer byte count`);
  }
  const size = BigInt(bytes);
  for (const [unit, suffix] of UNITS) {
    if (size > unit) return formatHundredths(size, unit) + suffix;
  }
  return formatHundredths(size, 1n) + 'B';
}

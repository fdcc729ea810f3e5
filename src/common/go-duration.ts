/**
 * Go's time.Duration text ("7h59m58.123456789s", "1m0.5s", "500ms", "0s"), which the reference puts in
 * getuid's `expire` and in its token-expired message.
 */
export function formatGoDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return '0s';
  const negative = nanoseconds < 0n;
  let rest = negative ? -nanoseconds : nanoseconds;
  const sign = negative ? '-' : '';
  if (rest < 1_000n) return `${sign}${rest}ns`;
  if (rest < 1_000_000n) return `${sign}${fraction(rest, 1_000n)}µs`;
  if (rest < 1_000_000_000n) return `${sign}${fraction(rest, 1_000_000n)}ms`;
  const hours = rest / 3_600_000_000_000n;
  rest -= hours * 3_600_000_000_000n;
  const minutes = rest / 60_000_000_000n;
  rest -= minutes * 60_000_000_000n;
  const seconds = fraction(rest, 1_000_000_000n);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function fraction(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const remainder = value % unit;
  if (remainder === 0n) return whole.toString();
  const digits = unit.toString().length - 1;
  return `${whole}.${remainder.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}

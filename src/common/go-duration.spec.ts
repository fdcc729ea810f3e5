import { describe, expect, it } from 'vitest';
import { formatGoDuration } from './go-duration';

describe('formatGoDuration', () => {
  it.each([
    [0n, '0s'],
    [500n, '500ns'],
    [1_500n, '1.5µs'],
    [500_000_000n, '500ms'],
    [1_000_000_000n, '1s'],
    [60_500_000_000n, '1m0.5s'],
    [28_798_123_456_789n, '7h59m58.123456789s'],
    [7_200_000_000_000n, '2h0m0s'],
    [-1_500_000_000n, '-1.5s'],
  ])('%s ns is %s', (ns, text) => {
    expect(formatGoDuration(ns)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { formatSize } from './size-string';

describe('formatSize', () => {
  it('prints bytes up to and including 1024 with the B unit', () => {
    expect(formatSize(0)).toBe('0.00B');
    expect(formatSize(250)).toBe('250.00B');
    expect(formatSize(1024)).toBe('1024.00B');
  });

  it('switches unit strictly above each threshold', () => {
    expect(formatSize(1025)).toBe('1.00KiB');
    expect(formatSize(1567)).toBe('1.53KiB');
    expect(formatSize(1731)).toBe('1.69KiB');
    expect(formatSize(1048576)).toBe('1024.00KiB');
    expect(formatSize(1048577)).toBe('1.00MiB');
    expect(formatSize(67108864)).toBe('64.00MiB');
    expect(formatSize(1073741825)).toBe('1.00GiB');
    expect(formatSize(2n ** 40n + 1n)).toBe('1.00TiB');
    expect(formatSize(5n * 2n ** 50n)).toBe('5120.00TiB');
  });

  it('rounds exact ties to even like Go, not up like toFixed', () => {
    expect(formatSize(3200)).toBe('3.12KiB'); // exactly 3.125
    expect(formatSize(3328)).toBe('3.25KiB');
    expect(formatSize(1536 + 10)).toBe('1.51KiB'); // 1.509765625
  });

  it('rejects non-integer sizes', () => {
    expect(() => formatSize(1.5)).toThrow(RangeError);
  });
});

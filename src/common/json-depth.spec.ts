import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-depth';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[1]]]', 2)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[{}]}}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('["[[[[[[", "\\"[[[[["]', 1)).toBe(false);
    expect(jsonDepthExceeds('[1],[2],[3]', 1)).toBe(false);
  });

  it('measures hostile depth at once', () => {
    expect(jsonDepthExceeds('['.repeat(1_000_000), 64)).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(65) + '1' + '}'.repeat(65), 64)).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(64) + '1' + '}'.repeat(64), 64)).toBe(false);
  });
});

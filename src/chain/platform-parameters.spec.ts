import { describe, expect, it } from 'vitest';
import { marksPrivateChain } from './platform-parameters.service';

describe('marksPrivateChain: the platform parameter private_blockchain', () => {
  it('is set by any value but "", "0" and "false" (rest-api.md §8.1)', () => {
    for (const value of ['1', 'true', 'yes', '2', ' TRUE '])
      expect(marksPrivateChain(value), value).toBe(true);
    for (const value of [undefined, '', ' ', '0', 'false', 'FALSE']) {
      expect(marksPrivateChain(value), String(value)).toBe(false);
    }
  });
});

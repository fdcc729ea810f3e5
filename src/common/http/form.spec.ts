import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { FormValues, parseForm } from './form';

describe('form values', () => {
  it('matches names case-insensitively and lets the last value win', () => {
    const form = new FormValues([
      ['Limit', '5'],
      ['limit', '7'],
    ]);
    expect(form.last('LIMIT')).toBe('7');
    expect(form.first('limit')).toBe('5');
  });

  it('converts typed fields and leaves empty ones absent', () => {
    const form = new FormValues([
      ['ecosystem', '2'],
      ['expire', ''],
      ['pubkey', '0aFF'],
      ['flag', 'on'],
      ['key_id', '-12'],
    ]);
    expect(
      parseForm(form, { ecosystem: 'int64', expire: 'int64', pubkey: 'hex', flag: 'bool', key_id: 'string' }),
    ).toEqual({
      ecosystem: 2n,
      pubkey: Buffer.from([0x0a, 0xff]),
      flag: true,
      key_id: '-12',
    });
  });

  it('fails with the reference text for values that do not convert', () => {
    const bad = (fields: [string, string][], spec: Record<string, 'int64' | 'bool' | 'hex'>) => {
      try {
        parseForm(new FormValues(fields), spec);
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('expected a failure');
    };
    const huge = bad([['limit', '99999999999999999999']], { limit: 'int64' });
    expect(huge.code).toBe('E_SERVER');
    expect(huge.status).toBe(400);
    expect(huge.message).toBe('schema: error converting value for "limit"');
    expect(bad([['pubkey', 'zz']], { pubkey: 'hex' }).message).toContain(
      'schema: error converting value for "pubkey". Details',
    );
    expect(
      bad(
        [
          ['a', 'x'],
          ['b', 'y'],
          ['c', 'z'],
        ],
        { a: 'int64', b: 'bool', c: 'int64' },
      ).message,
    ).toBe('schema: error converting value for "a" (and 2 other errors)');
  });
});

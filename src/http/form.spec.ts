import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../common/api-error';
import { Describe, FirstOfRepeated, FromPath } from '../common/dto/dto-fields';
import { IsHexBytes, IsInt64, IsLenientInt64 } from '../common/dto/validators';
import type { ApiRequest } from './api-request';
import { FormValues, readForm } from './form';

class LoginLikeForm {
  @FromPath()
  @IsLenientInt64()
  @Describe('an id in the path')
  id!: bigint;

  @IsOptional()
  @IsInt64()
  @Describe('an ecosystem')
  ecosystem?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe('a lifetime')
  expire?: bigint;

  @IsOptional()
  @IsHexBytes()
  @Describe('a key')
  pubkey?: Buffer;

  @IsOptional()
  @IsBoolean()
  @Describe('a flag')
  flag?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(4)
  @Describe('a key id as text')
  key_id?: string;

  @IsOptional()
  @FirstOfRepeated()
  @IsString()
  @Describe('a value whose first sending counts')
  data?: string;
}

function request(query: Record<string, string | string[]>, params: Record<string, string> = { id: '1' }) {
  return { query, params, body: {} } as unknown as ApiRequest;
}

function refusal(read: () => unknown): ApiError {
  try {
    read();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('form values', () => {
  it('matches names case-insensitively and lets the last value win', () => {
    const form = new FormValues([
      ['Limit', '5'],
      ['limit', '7'],
    ]);
    expect(form.last('LIMIT')).toBe('7');
    expect(form.first('limit')).toBe('5');
  });
});

describe('a form read as its DTO', () => {
  it('converts each field by its type, leaves empty ones absent, and reads the path leniently', () => {
    const form = readForm(
      LoginLikeForm,
      request(
        { Ecosystem: '2', expire: '', pubkey: '0aFF', flag: 'on', key_id: '-12', data: ['first', 'last'] },
        { id: 'abc' },
      ),
    );
    expect({ ...form }).toEqual({
      id: 0n,
      ecosystem: 2n,
      expire: undefined,
      pubkey: Buffer.from([0x0a, 0xff]),
      flag: true,
      key_id: '-12',
      data: 'first',
    });
  });

  it('refuses values that do not convert with the reference text', () => {
    const huge = refusal(() => readForm(LoginLikeForm, request({ ecosystem: '99999999999999999999' })));
    expect([huge.code, huge.status, huge.message]).toEqual([
      'E_SERVER',
      400,
      'schema: error converting value for "ecosystem"',
    ]);
    expect(refusal(() => readForm(LoginLikeForm, request({ pubkey: 'zz' }))).message).toBe(
      'schema: error converting value for "pubkey". Details: encoding/hex: invalid hex text',
    );
    expect(
      refusal(() => readForm(LoginLikeForm, request({ ecosystem: 'x', flag: 'y', expire: 'z' }))).message,
    ).toBe('schema: error converting value for "ecosystem" (and 2 other errors)');
  });

  it('refuses a broken constraint with its message', () => {
    const long = refusal(() => readForm(LoginLikeForm, request({ key_id: '123456' })));
    expect([long.code, long.message]).toEqual([
      'E_SERVER',
      'key_id must be shorter than or equal to 4 characters',
    ]);
  });
});

import { IsOptional, IsString } from 'class-validator';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { Describe } from '../common/dto/dto-fields';
import { IsInt64, IsSafeInt, MinInt64 } from '../common/dto/validators';
import { RPC_CODE } from '../common/error-codes';
import { RpcError } from './rpc-error';
import { decodeDtoParams, NoParams } from './rpc-params';

class RangeParams {
  @IsInt64()
  @MinInt64(0n)
  @Describe('first block')
  blockId!: bigint;

  @IsOptional()
  @IsString()
  @Describe('names')
  names?: string;

  @IsOptional()
  @IsSafeInt()
  @Describe('how many')
  limit?: number;
}

function decode(json: string, single = false) {
  return { ...decodeDtoParams(RangeParams, parse(json), single) };
}

function failure(json: string, single = false): RpcError {
  try {
    decode(json, single);
  } catch (error) {
    return error as RpcError;
  }
  throw new Error('expected a failure');
}

describe('params read as the method DTO', () => {
  it('reads positional params exactly', () => {
    expect(decode('[9223372036854775807, "a", 5]')).toEqual({
      blockId: 9223372036854775807n,
      names: 'a',
      limit: 5,
    });
    expect(decode('[1]')).toEqual({ blockId: 1n, names: undefined, limit: undefined });
    expect(decode('[1, null, 3]')).toEqual({ blockId: 1n, names: undefined, limit: 3 });
  });

  it('accepts named params (JSON-RPC 2.0) case-insensitively', () => {
    expect(decode('{"BlockId": 12, "limit": 3}')).toEqual({ blockId: 12n, names: undefined, limit: 3 });
  });

  it('gives required nulls their zero value', () => {
    expect(decode('[null]')).toEqual({ blockId: 0n, names: undefined, limit: undefined });
  });

  it('reports invalid params with -32602 and the argument position', () => {
    expect(failure('[]')).toMatchObject({
      code: RPC_CODE.invalidParams,
      message: 'missing value for required argument 1',
    });
    expect(failure('[1, "a", 2, 4]').message).toBe('too many arguments, want 3');
    expect(failure('["1"]').message).toBe(
      'invalid argument 1: json: cannot unmarshal string into Go value of type int64',
    );
    expect(failure('[5.5]').message).toBe(
      'invalid argument 1: json: cannot unmarshal number 5.5 into Go value of type int64',
    );
    expect(failure('[9223372036854775808]').message).toBe(
      'invalid argument 1: json: cannot unmarshal number 9223372036854775808 into Go value of type int64',
    );
    expect(failure('[1, 2]').message).toBe(
      'invalid argument 2: json: cannot unmarshal number 2 into Go value of type string',
    );
    expect(failure('[-1]').message).toBe('invalid argument 1: blockId must not be less than 0');
    expect(failure('{"nope": 1}').message).toBe('unknown parameter "nope"');
  });

  it('hands a single-object method the members of its object, either way it is sent', () => {
    expect(decode('{"blockid": 1, "names": "a"}', true)).toEqual({
      blockId: 1n,
      names: 'a',
      limit: undefined,
    });
    expect(decode('[{"blockId": 2}]', true)).toEqual({ blockId: 2n, names: undefined, limit: undefined });
    expect(failure('[{"blockId": "x"}]', true).message).toBe(
      'invalid argument 1: blockId: json: cannot unmarshal string into Go value of type int64',
    );
    expect(failure('[{"blockId": 1}, {}]', true).message).toBe('too many arguments, want 1');
  });

  it('takes nothing for a method without params', () => {
    expect(decodeDtoParams(NoParams, parse('[]'), false)).toBeInstanceOf(NoParams);
    expect(() => decodeDtoParams(NoParams, parse('[1]'), false)).toThrow('too many arguments, want 0');
  });
});

import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { RPC_CODE } from '../common/error-codes';
import { RpcError } from './rpc-error';
import { decodeParams, type RpcParamSpec } from './rpc-params';

const specs: RpcParamSpec[] = [
  { name: 'blockId', type: 'int64' },
  { name: 'names', type: 'string', optional: true },
  { name: 'limit', type: 'int', optional: true },
];

function decode(json: string, single = false) {
  return decodeParams(specs, parse(json), single);
}

function failure(json: string): RpcError {
  try {
    decode(json);
  } catch (error) {
    return error as RpcError;
  }
  throw new Error('expected a failure');
}

describe('decodeParams', () => {
  it('decodes positional params exactly', () => {
    expect(decode('[9223372036854775807, "a", 5]')).toEqual([9223372036854775807n, 'a', 5]);
    expect(decode('[1]')).toEqual([1n, undefined, undefined]);
    expect(decode('[1, null, 3]')).toEqual([1n, undefined, 3]);
  });

  it('accepts named params (JSON-RPC 2.0) case-insensitively', () => {
    expect(decode('{"BlockId": 12, "limit": 3}')).toEqual([12n, undefined, 3]);
  });

  it('gives required nulls their zero value', () => {
    expect(decode('[null]')).toEqual([0n, undefined, undefined]);
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
    expect(failure('[9223372036854775808]').message).toContain('invalid argument 1');
    expect(failure('[1, 2]').message).toBe(
      'invalid argument 2: json: cannot unmarshal number 2 into Go value of type string',
    );
    expect(failure('{"nope": 1}').message).toBe('unknown parameter "nope"');
  });

  it('hands a single-object method its object either way', () => {
    const single: RpcParamSpec[] = [{ name: 'form', type: 'object', optional: true }];
    expect(decodeParams(single, parse('{"a": 1}'), true)).toHaveLength(1);
    expect(decodeParams(single, parse('[{"a": 1}]'), true)).toHaveLength(1);
  });
});

import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import type { JsonSchema } from '../api-docs/schema';
import { RpcError } from './rpc-error';

/** Decoders turn one raw JSON value (numbers kept as exact text) into an argument, or throw with a reason. */
export type RpcParamDecoder = (raw: unknown) => unknown;

export type RpcParamType =
  'int64' | 'uint64' | 'int32' | 'int' | 'string' | 'bool' | 'object' | RpcParamDecoder;

export interface RpcParamSpec {
  name: string;
  type: RpcParamType;
  optional?: boolean;
  /** What the value means (OpenRPC, `rpc.discover`). */
  description?: string;
  /** Its JSON Schema; needed for a custom decoder, derived from the type otherwise. */
  schema?: JsonSchema;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** Type names in the messages follow Go's, which the reference's clients already show their users. */
function describe(raw: unknown): string {
  if (raw === null) return 'null';
  if (typeof raw === 'string') return 'string';
  if (typeof raw === 'boolean') return 'bool';
  if (isLosslessNumber(raw)) return 'number';
  if (Array.isArray(raw)) return 'array';
  return 'object';
}

function cannotUnmarshal(raw: unknown, goType: string): Error {
  const what = isLosslessNumber(raw) ? `number ${(raw as LosslessNumber).value}` : describe(raw);
  return new Error(`json: cannot unmarshal ${what} into Go value of type ${goType}`);
}

export function decodeInteger(raw: unknown, goType: string, min: bigint, max: bigint): bigint {
  if (!isLosslessNumber(raw) || !/^-?\d+$/.test(raw.value)) throw cannotUnmarshal(raw, goType);
  const value = BigInt(raw.value);
  if (value < min || value > max) throw cannotUnmarshal(raw, goType);
  return value;
}

const BUILT_IN: Record<Exclude<RpcParamType, RpcParamDecoder>, { decode: RpcParamDecoder; zero: unknown }> = {
  int64: { decode: (raw) => decodeInteger(raw, 'int64', INT64_MIN, INT64_MAX), zero: 0n },
  uint64: { decode: (raw) => decodeInteger(raw, 'uint64', 0n, UINT64_MAX), zero: 0n },
  int32: { decode: (raw) => Number(decodeInteger(raw, 'int32', INT32_MIN, INT32_MAX)), zero: 0 },
  int: {
    decode: (raw) => {
      const value = decodeInteger(raw, 'int', INT64_MIN, INT64_MAX);
      if (value < BigInt(Number.MIN_SAFE_INTEGER) || value > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw cannotUnmarshal(raw, 'int');
      }
      return Number(value);
    },
    zero: 0,
  },
  string: {
    decode: (raw) => {
      if (typeof raw !== 'string') throw cannotUnmarshal(raw, 'string');
      return raw;
    },
    zero: '',
  },
  bool: {
    decode: (raw) => {
      if (typeof raw !== 'boolean') throw cannotUnmarshal(raw, 'bool');
      return raw;
    },
    zero: false,
  },
  object: {
    decode: (raw) => {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw)) {
        throw cannotUnmarshal(raw, 'object');
      }
      return raw;
    },
    zero: null,
  },
};

/**
 * Positional arguments from `params`: an array by position, an object by parameter name (JSON-RPC 2.0
 * named parameters; a single-object method takes the object itself). Missing optional arguments are
 * `undefined`; `null` for a required one means that type's zero value, as the reference does.
 */
export function decodeParams(
  specs: readonly RpcParamSpec[],
  params: unknown,
  singleObject: boolean,
): unknown[] {
  let positional: unknown[];
  if (params === undefined || params === null) {
    positional = [];
  } else if (Array.isArray(params)) {
    positional = params;
  } else if (typeof params === 'object' && !isLosslessNumber(params)) {
    positional = singleObject ? [params] : byName(specs, params as Record<string, unknown>);
  } else {
    throw RpcError.invalidRequest('params must be an array or an object');
  }
  if (positional.length > specs.length)
    throw RpcError.invalidParams(`too many arguments, want ${specs.length}`);
  return specs.map((spec, index) => {
    const raw = positional[index];
    const typeSpec = typeof spec.type === 'function' ? undefined : BUILT_IN[spec.type];
    if (raw === undefined || (raw === null && spec.optional)) {
      if (spec.optional) return undefined;
      throw RpcError.invalidParams(`missing value for required argument ${index + 1}`);
    }
    if (raw === null && typeSpec) return typeSpec.zero;
    try {
      return typeSpec ? typeSpec.decode(raw) : (spec.type as RpcParamDecoder)(raw);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw RpcError.invalidParams(`invalid argument ${index + 1}: ${(error as Error).message}`);
    }
  });
}

function byName(specs: readonly RpcParamSpec[], params: Record<string, unknown>): unknown[] {
  const positional: unknown[] = [];
  const byLowerName = new Map(specs.map((spec, index) => [spec.name.toLowerCase(), index]));
  for (const [key, value] of Object.entries(params)) {
    const index = byLowerName.get(key.toLowerCase());
    if (index === undefined) throw RpcError.invalidParams(`unknown parameter "${key}"`);
    positional[index] = value;
  }
  return positional;
}

/** Plain JS value of a parsed JSON tree: integers that fit stay numbers, larger ones become BigInt. */
export function plainJson(raw: unknown): unknown {
  if (isLosslessNumber(raw)) {
    const text = raw.value;
    if (/^-?\d+$/.test(text)) {
      const big = BigInt(text);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(big)
        : big;
    }
    return Number(text);
  }
  if (Array.isArray(raw)) return raw.map(plainJson);
  if (raw !== null && typeof raw === 'object') {
    return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, plainJson(value)]));
  }
  return raw;
}

/** Reads one member of an object argument, matching the member name case-insensitively (reference rule). */
export function member(object: Record<string, unknown>, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  let found: unknown;
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) found = value;
  return found;
}

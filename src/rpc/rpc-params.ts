import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import {
  dtoFields,
  dtoValidator,
  refusesEmptyObject,
  type DtoClass,
  type DtoValidator,
  type FieldKind,
} from '../common/dto/dto-fields';
import {
  INT32_MAX,
  INT32_MIN,
  INT64_MAX,
  INT64_MIN,
  PARAMS_CAN_NOT_BE_EMPTY,
  UINT64_MAX,
} from '../common/dto/validators';
import { RpcError } from './rpc-error';

/** Turns one raw JSON value (numbers kept as exact text) into a field's value, or throws with a reason. */
export type RpcParamDecoder = (raw: unknown) => unknown;

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

/** Reads one member of an object argument, matching the member name case-insensitively (reference rule). */
export function member(object: Record<string, unknown>, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  let found: unknown;
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) found = value;
  return found;
}

function decodeText(raw: unknown): string {
  if (typeof raw !== 'string') throw cannotUnmarshal(raw, 'string');
  return raw;
}

/** Reads one JSON value of a DTO field's kind; throws with Go's unmarshal text as the reference does. */
const JSON_READERS: Record<FieldKind, RpcParamDecoder> = {
  string: decodeText,
  bool: (raw) => {
    if (typeof raw !== 'boolean') throw cannotUnmarshal(raw, 'bool');
    return raw;
  },
  int64: (raw) => decodeInteger(raw, 'int64', INT64_MIN, INT64_MAX),
  lenientInt64: (raw) => decodeInteger(raw, 'int64', INT64_MIN, INT64_MAX),
  uint64: (raw) => decodeInteger(raw, 'uint64', 0n, UINT64_MAX),
  int32: (raw) => Number(decodeInteger(raw, 'int32', BigInt(INT32_MIN), BigInt(INT32_MAX))),
  int: (raw) =>
    Number(decodeInteger(raw, 'int', BigInt(Number.MIN_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER))),
  object: (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw)) {
      throw cannotUnmarshal(raw, 'object');
    }
    return raw;
  },
  hex: (raw) => {
    const text = decodeText(raw);
    if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
      throw new Error('encoding/hex: invalid hex text');
    return Buffer.from(text, 'hex');
  },
  array: (raw) => {
    if (!Array.isArray(raw)) throw cannotUnmarshal(raw, 'array');
    return raw;
  },
  json: (raw) => raw,
};

/** A required argument sent as `null` is its type's zero value, as Go's decoder leaves it. */
const ZERO_OF_KIND: Record<FieldKind, unknown> = {
  string: '',
  bool: false,
  int64: 0n,
  lenientInt64: 0n,
  uint64: 0n,
  int32: 0,
  int: 0,
  object: null,
  hex: Buffer.alloc(0),
  array: null,
  json: null,
};

/** The params of a method that takes none: an empty list (or object) is all it accepts. */
export class NoParams {}

interface ParamsPlan {
  fields: {
    /** The DTO property the value goes to. */
    name: string;
    /** Its JSON-RPC name (a member of a one-object call, a named parameter). */
    wireName: string;
    lowerName: string;
    /** Absent or null, the argument is left unset (an optional one, or one read as Go's nil pointer). */
    mayBeAbsent: boolean;
    read: RpcParamDecoder;
    zero: unknown;
  }[];
  byLowerName: Map<string, number>;
  validator: DtoValidator;
  /** `NotEmptyObject`: a one-object call naming none of the members is empty params. */
  refusesEmpty: boolean;
}

const plans = new WeakMap<DtoClass, ParamsPlan>();

/** How a DTO is read from a call's `params`, worked out once per class (when the method is declared). */
export function paramsPlan(dto: DtoClass): ParamsPlan {
  let plan = plans.get(dto);
  if (plan) return plan;
  const fields = dtoFields(dto).map((field) => ({
    name: field.name,
    wireName: field.wireName.rpc,
    lowerName: field.wireName.rpc.toLowerCase(),
    mayBeAbsent: field.optional || field.absentAsNil,
    read: JSON_READERS[field.kind],
    zero: ZERO_OF_KIND[field.kind],
  }));
  plan = {
    fields,
    byLowerName: new Map(fields.map((field, index) => [field.lowerName, index])),
    validator: dtoValidator(dto, 'rpc'),
    refusesEmpty: refusesEmptyObject(dto),
  };
  plans.set(dto, plan);
  return plan;
}

/**
 * A call's `params` as the method's DTO, validated. Positional methods take an array (by position) or an
 * object (JSON-RPC 2.0 named parameters, names matched case-insensitively); a single-object method takes
 * `{…}` or `[{…}]`, its members being the DTO's fields. Refusals are -32602 with the reference's texts:
 * "missing value for required argument 2", "invalid argument 1: json: cannot unmarshal …".
 */
export function decodeDtoParams<T extends object>(
  dto: DtoClass<T>,
  params: unknown,
  singleObject: boolean,
): T {
  const plan = paramsPlan(dto);
  const input = new dto() as Record<string, unknown>;
  if (singleObject) {
    readMembers(plan, singleObjectOf(params), input);
    if (plan.refusesEmpty && plan.fields.every((field) => input[field.name] === undefined)) {
      throw RpcError.invalidParams(PARAMS_CAN_NOT_BE_EMPTY);
    }
  } else readPositional(plan, params, input);
  const failure = plan.validator(input);
  if (failure?.answeredWhole) throw RpcError.invalidParams(failure.message);
  if (failure) {
    const argument = singleObject ? 1 : plan.byLowerName.get(failure.property.toLowerCase())! + 1;
    throw RpcError.invalidParams(`invalid argument ${argument}: ${failure.message}`);
  }
  return input as T;
}

function singleObjectOf(params: unknown): Record<string, unknown> | undefined {
  const value = Array.isArray(params) ? (params.length > 1 ? tooMany(1) : params[0]) : params;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) {
    throw RpcError.invalidParams(`invalid argument 1: ${cannotUnmarshal(value, 'object').message}`);
  }
  return value as Record<string, unknown>;
}

function tooMany(want: number): never {
  throw RpcError.invalidParams(`too many arguments, want ${want}`);
}

function readMembers(
  plan: ParamsPlan,
  object: Record<string, unknown> | undefined,
  input: Record<string, unknown>,
) {
  if (!object) return;
  for (const field of plan.fields) {
    const raw = member(object, field.wireName);
    if (raw === undefined || raw === null) continue;
    try {
      input[field.name] = field.read(raw);
    } catch (error) {
      throw RpcError.invalidParams(`invalid argument 1: ${field.wireName}: ${(error as Error).message}`);
    }
  }
}

function readPositional(plan: ParamsPlan, params: unknown, input: Record<string, unknown>) {
  let positional: unknown[];
  if (params === undefined || params === null) {
    positional = [];
  } else if (Array.isArray(params)) {
    positional = params;
  } else if (typeof params === 'object' && !isLosslessNumber(params)) {
    positional = [];
    for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
      const index = plan.byLowerName.get(key.toLowerCase());
      if (index === undefined) throw RpcError.invalidParams(`unknown parameter "${key}"`);
      positional[index] = value;
    }
  } else {
    throw RpcError.invalidRequest('params must be an array or an object');
  }
  if (positional.length > plan.fields.length) tooMany(plan.fields.length);
  plan.fields.forEach((field, index) => {
    const raw = positional[index];
    if (raw === undefined || (raw === null && field.mayBeAbsent)) {
      if (field.mayBeAbsent) return;
      throw RpcError.invalidParams(`missing value for required argument ${index + 1}`);
    }
    if (raw === null) {
      input[field.name] = field.zero;
      return;
    }
    try {
      input[field.name] = field.read(raw);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw RpcError.invalidParams(`invalid argument ${index + 1}: ${(error as Error).message}`);
    }
  });
}

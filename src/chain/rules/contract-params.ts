import { MsgExt, MsgFloat, MsgInt, MsgRaw, msgTypeName, type MsgMap, type MsgValue } from '../codec';
import { uint64ToInt64 } from '../../crypto';
import {
  boundedMoney,
  isDecimalText,
  MONEY_DIGITS,
  MONEY_OVERFLOW,
  MoneyDecimal,
  zeroValue,
  type CompiledContract,
  type FieldInfo,
  type Value,
} from '../../vm';

/** A transaction whose parameters do not fit its contract; the text is what the client is told. */
export class ParamsError extends Error {}

/**
 * The contract arguments of a transaction as contract values, checked against the contract's `data`
 * fields (formats.md §2.6): every key must be a field, every required field present, and each value of
 * the msgpack type its field accepts. Optional fields left out get their zero value.
 *
 * Stricter than the reference in one way only where it is safe: integers of any msgpack width are taken
 * for `int` and `address` (the reference refuses a compact int for `address`); and kinder in one: `map`
 * fields accept a msgpack map (the reference can never decode one).
 */
export function contractArguments(contract: CompiledContract, params: MsgMap): Map<string, Value> {
  const fields = new Map(contract.fields.map((field) => [field.name, field]));
  for (const name of params.keys()) {
    if (!fields.has(name)) throw new ParamsError(`'${name}' parameter is not required`);
  }
  const values = new Map<string, Value>();
  for (const field of contract.fields) {
    const raw = params.get(field.name);
    if (raw === undefined) {
      if (!field.optional) throw new ParamsError(`Parameter ${field.name} has not been found`);
      values.set(field.name, zeroValue(field.type));
      continue;
    }
    try {
      values.set(field.name, convert(field, raw));
    } catch (error) {
      throw new ParamsError(`contract '${contract.key}': ${(error as Error).message}`);
    }
  }
  return values;
}

function mismatch(field: FieldInfo, raw: MsgValue): Error {
  return new Error(`parameter ${field.name} must be ${field.type}, got ${msgTypeName(raw)}`);
}

function integerOf(field: FieldInfo, raw: MsgValue): bigint {
  if (!(raw instanceof MsgInt)) throw mismatch(field, raw);
  return raw.wire === 'uint64' ? uint64ToInt64(raw.value) : raw.value;
}

function convert(field: FieldInfo, raw: MsgValue): Value {
  switch (field.type) {
    case 'bool':
      if (typeof raw !== 'boolean') throw mismatch(field, raw);
      return raw;
    case 'int':
    case 'address':
      return integerOf(field, raw);
    case 'float':
      if (raw instanceof MsgFloat) return raw.value;
      return Number(integerOf(field, raw));
    case 'money':
      return moneyOf(field, raw);
    case 'string':
      if (typeof raw !== 'string') throw mismatch(field, raw);
      return raw;
    case 'bytes':
      if (!(raw instanceof Uint8Array)) throw mismatch(field, raw);
      return raw;
    case 'array':
      if (!Array.isArray(raw)) throw mismatch(field, raw);
      return raw.map(plainValue);
    case 'map':
      if (!(raw instanceof Map)) throw mismatch(field, raw);
      return plainValue(raw);
    case 'file':
      return fileOf(field, raw);
    default:
      throw new Error(`parameter ${field.name} has the unknown type ${String(field.type)}`);
  }
}

function moneyOf(field: FieldInfo, raw: MsgValue): Value {
  if (typeof raw !== 'string') throw mismatch(field, raw);
  const text = raw.trim();
  let amount: InstanceType<typeof MoneyDecimal>;
  try {
    if (!isDecimalText(text)) throw new Error('not a number');
    amount = new MoneyDecimal(text);
  } catch {
    throw new Error(`parameter ${field.name}: ${JSON.stringify(raw)} is not a number`);
  }
  try {
    boundedMoney(amount.trunc());
  } catch {
    throw new Error(`parameter ${field.name}: ${MONEY_OVERFLOW} (more than ${MONEY_DIGITS} digits)`);
  }
  if (!amount.isInteger()) {
    throw new Error(
      `parameter ${field.name}: ${raw} is inconsistent with the smallest reference unit (an integer count of minimal units)`,
    );
  }
  return amount;
}

function fileOf(field: FieldInfo, raw: MsgValue): Value {
  if (!(raw instanceof Map)) throw mismatch(field, raw);
  const name = raw.get('Name');
  const mimeType = raw.get('MimeType');
  const body = raw.get('Body');
  if (typeof name !== 'string' || typeof mimeType !== 'string' || !(body instanceof Uint8Array)) {
    throw new Error(`parameter ${field.name} must be a file {Name, MimeType, Body}`);
  }
  return new Map<string, Value>([
    ['Name', name],
    ['MimeType', mimeType],
    ['Body', body],
  ]);
}

/** Nested values keep their natural types: integers, floats, strings, bytes, arrays and maps. */
function plainValue(raw: MsgValue): Value {
  if (raw === null || typeof raw === 'boolean' || typeof raw === 'string' || raw instanceof Uint8Array)
    return raw;
  if (raw instanceof MsgInt) return raw.wire === 'uint64' ? uint64ToInt64(raw.value) : raw.value;
  if (raw instanceof MsgFloat) return raw.value;
  if (raw instanceof MsgExt || raw instanceof MsgRaw) throw new Error('extension values are not accepted');
  if (Array.isArray(raw)) return raw.map(plainValue);
  return new Map([...raw].map(([key, item]) => [key, plainValue(item)]));
}

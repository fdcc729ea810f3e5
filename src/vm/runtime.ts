import { FUEL_OVERFLOW, MAX_ARRAY_INDEX, MAX_MAP_SIZE, type ExecState } from './context';
import { panic, VmError } from './errors';
import type { FuncResult } from './objects';
import { parseDecimal } from './operators';
import {
  containsValue,
  goTypeName,
  isMoney,
  kindOf,
  kindOfType,
  MoneyDecimal,
  Results,
  zeroValue,
  type Money,
  type TypeName,
  type Value,
} from './values';

/** Statement outcome signals. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;
export type Signal = 0 | 1 | 2 | 3;

/** Local variables of one function activation. */
export class Frame {
  readonly s: Value[];
  ret: FuncResult | undefined = undefined;

  constructor(
    readonly st: ExecState,
    size: number,
  ) {
    this.s = new Array<Value>(size).fill(null);
  }
}

export function fuelOverflow(): never {
  throw new VmError('panic', FUEL_OVERFLOW);
}

export function readExtend(st: ExecState, name: string): Value {
  const value = st.extend.get(name);
  if (value !== undefined) return value;
  const system = st.system.get(name);
  if (system !== undefined) return system;
  throw panic(`unknown extend identifier $${name}`);
}

/**
 * Counts a value stored into a variable or a container towards the memory limit. Only the value's own size is
 * added here (what it holds was counted when it was stored); the full measure runs once enough has piled up.
 */
export function noteStored(st: ExecState, value: Value, extra = 0): void {
  let size = extra;
  if (typeof value === 'string') size += value.length;
  else if (Array.isArray(value)) size += 12 + 8 * value.length;
  else if (value instanceof Map) size += 4 + 16 * value.size;
  else if (value instanceof Uint8Array) size += 12 + value.length;
  if (size > 0 && (st.storedSinceCheck += size) > st.nextMemoryCheck) st.measureMemory();
}

export function writeExtend(st: ExecState, name: string, value: Value): void {
  if (st.isSystemVar(name)) throw panic(`system variable $${name} cannot be changed`);
  const old = st.extend.get(name);
  if (old !== undefined && old !== null && value !== null && kindOf(old) !== kindOf(value)) {
    throw panic(`$${name} (type ${goTypeName(value)}) cannot be represented by the type ${goTypeName(old)}`);
  }
  st.extend.set(name, value);
  noteStored(st, value);
}

export function toMoney(value: Value): Money {
  switch (kindOf(value)) {
    case 'money':
      return value as Money;
    case 'int':
      return new MoneyDecimal((value as bigint).toString());
    case 'float':
      if (!Number.isFinite(value as number)) throw panic(`can't convert ${String(value)} to money`);
      return new MoneyDecimal(value as number);
    case 'string':
      return parseDecimal(value as string);
    default:
      throw panic(`can't convert ${goTypeName(value)} to money`);
  }
}

/**
 * The reference's conversion of a value into money (what `var m money; m = v` and `Money(v)` do): ints exactly,
 * floats and decimal strings rounded toward −∞ to a whole number.
 */
export function toWholeMoney(value: Value): Money {
  const kind = kindOf(value);
  if (kind === 'float' || kind === 'string') return toMoney(value).floor();
  return toMoney(value);
}

/**
 * A checker for assignments to a typed variable: a money variable converts the value (floored), nil always fits,
 * other types must match.
 */
export function assignmentChecker(type: TypeName, name: string): (value: Value) => Value {
  if (type === 'money') return (value) => (value === null ? null : toWholeMoney(value));
  const declared = goTypeName(zeroValue(type));
  const fail = (value: Value): never => {
    throw panic(
      `variable '${name}' (type ${goTypeName(value)}) cannot be represented by the type ${declared}`,
    );
  };
  switch (kindOfType(type)) {
    case 'int':
      return (value) => (typeof value === 'bigint' || value === null ? value : fail(value));
    case 'float':
      return (value) => (typeof value === 'number' || value === null ? value : fail(value));
    case 'string':
      return (value) => (typeof value === 'string' || value === null ? value : fail(value));
    case 'bool':
      return (value) => (typeof value === 'boolean' || value === null ? value : fail(value));
    case 'array':
      return (value) => (Array.isArray(value) || value === null ? value : fail(value));
    case 'map':
      return (value) => (value instanceof Map || value === null ? value : fail(value));
    case 'bytes':
      return (value) => (value instanceof Uint8Array || value === null ? value : fail(value));
    default:
      return (value) => value;
  }
}

export function indexValue(container: Value, key: Value): Value {
  if (Array.isArray(container)) {
    if (typeof key !== 'bigint') throw panic(`index of array cannot be type ${goTypeName(key)}`);
    if (key < 0n || key >= BigInt(container.length)) throw panic('index out of range');
    return container[Number(key)];
  }
  if (container instanceof Map) {
    if (typeof key !== 'string') throw panic(`index of map cannot be type ${goTypeName(key)}`);
    const value = container.get(key);
    return value === undefined ? null : value;
  }
  throw panic(`type ${goTypeName(container)} doesn't support indexing`);
}

export function setIndex(st: ExecState, container: Value, key: Value, value: Value): void {
  // Putting a container into itself, even deep down, would make it endless (the reference refuses it too).
  if (typeof value === 'object' && value !== null && container !== null && containsValue(value, container)) {
    throw panic('self assignment');
  }
  if (container instanceof Map) {
    if (typeof key !== 'string') throw panic(`index of map cannot be type ${goTypeName(key)}`);
    if (container.size >= MAX_MAP_SIZE && !container.has(key)) throw panic('the maxumim length of map');
    container.set(key, value);
    noteStored(st, value, 16 + key.length);
    return;
  }
  if (Array.isArray(container)) {
    if (typeof key !== 'bigint') throw panic(`index of array cannot be type ${goTypeName(key)}`);
    if (key < 0n || key > BigInt(MAX_ARRAY_INDEX)) throw panic('the index is out of range');
    const index = Number(key);
    const grown = Math.max(0, index + 1 - container.length);
    while (container.length < index) container.push(null);
    container[index] = value;
    noteStored(st, value, 8 * grown);
    return;
  }
  throw panic(`type ${goTypeName(container)} doesn't support indexing`);
}

/** A call's value in single-value context. */
export function singleValue(result: FuncResult | undefined): Value {
  if (result === undefined) return null;
  if (result instanceof Results) {
    if (result.values.length === 1) return result.values[0];
    throw panic(`multiple-value function call in single-value context`);
  }
  return result;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

export function expandSpread(value: Value, into: Value[]): void {
  if (!Array.isArray(value)) throw panic(`only an array can be spread with ..., got ${goTypeName(value)}`);
  for (const item of value) into.push(item);
}

export { isMoney };

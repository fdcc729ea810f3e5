import { FUEL_OVERFLOW, MAX_ARRAY_INDEX, MAX_MAP_SIZE, type ExecState } from './context';
import { panic, VmError } from './errors';
import type { FuncResult } from './objects';
import { boundedMoney, parseDecimal } from './operators';
import { arrayCost, containsValue, scalarCost, stringCost, VALUE_COSTS } from './memory';
import {
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
  /** The execution's temporaries below this index belong to the callers' expressions. */
  readonly tempBase: number;

  constructor(
    readonly st: ExecState,
    size: number,
  ) {
    this.s = new Array<Value>(size).fill(null);
    this.tempBase = st.temps.length;
  }
}

/** The frame's expressions so far are done (a statement or a loop turn starts, or the call ends). */
export function dropTemps(fr: Frame): void {
  const temps = fr.st.temps;
  if (temps.length > fr.tempBase) temps.length = fr.tempBase;
}

/** Compiled code returns a promise only where it had to wait: everything else answers directly. */
export function isPromise(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value instanceof Promise;
}

export function fuelOverflow(): never {
  throw new VmError('panic', FUEL_OVERFLOW);
}

export function readExtend(st: ExecState, name: string): Value {
  const value = st.extend.get(name);
  if (value !== undefined) return value;
  const system = st.system.get(name);
  if (system !== undefined) return system;
  // The reference names the variable without its `$`.
  throw panic(`unknown extend identifier ${name}`);
}

export function writeExtend(st: ExecState, name: string, value: Value): void {
  if (st.isSystemVar(name)) throw panic(`system variable $${name} cannot be changed`);
  const old = st.extend.get(name);
  if (old !== undefined && old !== null && value !== null && kindOf(old) !== kindOf(value)) {
    throw panic(`$${name} (type ${goTypeName(value)}) cannot be represented by the type ${goTypeName(old)}`);
  }
  st.extend.set(name, value);
}

export function toMoney(value: Value): Money {
  switch (kindOf(value)) {
    case 'money':
      return value as Money;
    case 'int':
      return new MoneyDecimal((value as bigint).toString());
    case 'float':
      if (!Number.isFinite(value as number)) throw panic(`can't convert ${String(value)} to money`);
      return boundedMoney(new MoneyDecimal(value as number));
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
  // Reading says "Type", writing (setIndex) "type", as in the reference.
  throw panic(`Type ${goTypeName(container)} doesn't support indexing`);
}

/**
 * What storing a value into an array or a map adds beyond the value itself: a container's memory was
 * reserved when it was made (and a shared one costs nothing more to refer to), but ints, floats and money
 * are made by operators that reserve nothing, and a string may be stored many times over.
 */
function storedCost(value: Value): number {
  return typeof value === 'object' && value !== null && !isMoney(value) && !(value instanceof Uint8Array)
    ? 0
    : scalarCost(value);
}

export function setIndex(st: ExecState, container: Value, key: Value, value: Value): void {
  // Putting a container into itself, even deep down, would make it endless (the reference refuses it too).
  if (
    typeof value === 'object' &&
    value !== null &&
    container !== null &&
    containsValue(value, container, (units) => st.chargeWork(units))
  ) {
    throw panic('self assignment');
  }
  if (container instanceof Map) {
    if (typeof key !== 'string') throw panic(`index of map cannot be type ${goTypeName(key)}`);
    // The key is hashed (and first flattened, when it was joined): as long as it is.
    st.chargeWork(key.length);
    if (container.has(key)) {
      st.reserveMemory(storedCost(value));
    } else {
      if (container.size >= MAX_MAP_SIZE) throw panic('the maxumim length of map');
      st.reserveMemory(VALUE_COSTS.mapEntry + stringCost(key) + storedCost(value));
    }
    container.set(key, value);
    return;
  }
  if (Array.isArray(container)) {
    if (typeof key !== 'bigint') throw panic(`index of array cannot be type ${goTypeName(key)}`);
    if (key < 0n || key > BigInt(MAX_ARRAY_INDEX)) throw panic('the index is out of range');
    const index = Number(key);
    const grown = Math.max(0, index + 1 - container.length);
    // What the array takes once grown, less what it took (a growing array has spare room: arrayCost).
    st.reserveMemory(
      storedCost(value) + (grown === 0 ? 0 : arrayCost(index + 1) - arrayCost(container.length)),
    );
    if (grown > 0) {
      st.chargeWork(grown);
      while (container.length < index) container.push(null);
    }
    container[index] = value;
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

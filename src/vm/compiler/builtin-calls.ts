import type { Builtin, BuiltinResult } from '../builtins/registry';
import type { ExecState } from '../context';
import { panic } from '../errors';
import { valueCost } from '../memory';
import { Frame, fuelOverflow, isPromise, isThenable, singleValue } from '../runtime';
import { Results, type Value } from '../values';
import type { CExpr } from './body';

/**
 * A built-in call. Its result stays visible to the memory count while the expression uses it; an async
 * built-in may answer synchronously, and then nothing waits.
 */
export function invokeBuiltin(builtin: Builtin, groups: CExpr[], valueContext: boolean): CExpr {
  const args = groups[0];
  const cost = 1 + args.cost;
  const fn = builtin.fn;
  const priceKey = builtin.priceKey;
  const defaultPrice = builtin.price;
  const name = builtin.name;
  const get = args.fn;
  const charge = (st: ExecState): void => {
    const price = st.prices.get(priceKey);
    if ((st.fuelLeft -= price === undefined ? defaultPrice : price) < 0) fuelOverflow();
  };
  const settles = !builtin.reserves;
  const finish = (st: ExecState, result: BuiltinResult, args: Value[]): Value | Results => {
    if (result === undefined) return null;
    const value = valueContext && result instanceof Results ? singleValue(result) : result;
    if (settles) settleBuiltin(st, args, result);
    if (!(value instanceof Results)) st.keep(value);
    return value;
  };
  if (!builtin.async && !args.isAsync) {
    const getArgs = get as (fr: Frame) => Value[];
    return {
      fn: (fr: Frame) => {
        const values = getArgs(fr);
        const st = fr.st;
        charge(st);
        const result = fn(st, ...values);
        if (isThenable(result))
          throw panic(`built-in ${name} returned a promise but is registered as synchronous`);
        return finish(st, result, values);
      },
      isAsync: false,
      cost,
    };
  }
  const callWith = (st: ExecState, values: Value[]): unknown => {
    charge(st);
    const result = fn(st, ...values);
    if (!isThenable(result)) {
      const value = finish(st, result, values);
      // Work a call charged brings the clock nearer: after a long one, the execution may pause here.
      if (st.countdown < 0) {
        const pause = st.turn();
        if (pause !== undefined) return pause.then(() => value);
      }
      return value;
    }
    if (!builtin.async) throw panic(`built-in ${name} returned a promise but is registered as synchronous`);
    return Promise.resolve(result).then((r) => {
      // It waited (for the database, say): the next loop turn or call looks at the clock.
      st.countdown = 0;
      return finish(st, r, values);
    });
  };
  return {
    fn: (fr: Frame) => {
      const values = get(fr);
      return isPromise(values)
        ? values.then((v) => callWith(fr.st, v as Value[]))
        : callWith(fr.st, values as Value[]);
    },
    isAsync: true,
    cost,
  };
}

/** Work units of a value a built-in was given or gave back: its characters, bytes or elements. */
function workOf(value: Value): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length;
  return value instanceof Map ? value.size : 0;
}

/**
 * A built-in that does not size its own results (host built-ins, small pure ones) is charged for the text,
 * bytes and elements it was given and gave back, and what it returned is reserved once it exists.
 */
function settleBuiltin(st: ExecState, args: Value[], result: Value | Results): void {
  let units = 0;
  for (const arg of args) units += workOf(arg);
  for (const value of result instanceof Results ? result.values : [result]) {
    units += workOf(value);
    if (typeof value === 'string' ? value.length > 1 : typeof value === 'object' && value !== null) {
      st.reserveMemory(valueCost(value));
    }
  }
  st.chargeWork(units);
}

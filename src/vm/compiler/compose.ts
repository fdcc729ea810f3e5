import type { ExecState } from '../context';
import type { AnyFn } from '../function';
import { expandSpread, Frame, isPromise } from '../runtime';
import type { Value } from '../values';
import type { CExpr } from './body';

/** Evaluates expressions left to right into an array. */
export function listEvaluator(items: CExpr[], spreads?: boolean[]): CExpr {
  const fns = items.map((i) => i.fn);
  const count = fns.length;
  const isAsync = items.some((i) => i.isAsync);
  const cost = items.reduce((sum, i) => sum + i.cost, 0);
  const hasSpread = spreads?.some(Boolean) ?? false;
  if (!isAsync) {
    const sync = fns as Array<(fr: Frame) => Value>;
    if (!hasSpread) {
      if (count === 0) return { fn: () => [], isAsync, cost };
      if (count === 1) {
        const a = sync[0];
        return { fn: (fr: Frame) => [a(fr)], isAsync, cost };
      }
      if (count === 2) {
        const [a, b] = sync;
        return { fn: (fr: Frame) => [a(fr), b(fr)], isAsync, cost };
      }
      return {
        fn: (fr: Frame) => {
          const out = new Array<Value>(count);
          for (let i = 0; i < count; i++) out[i] = sync[i](fr);
          return out;
        },
        isAsync,
        cost,
      };
    }
    return {
      fn: (fr: Frame) => {
        const out: Value[] = [];
        for (let i = 0; i < count; i++) {
          const value = sync[i](fr);
          if (spreads![i]) expandSpread(value, out);
          else out.push(value);
        }
        return out;
      },
      isAsync,
      cost,
    };
  }
  const spreadAt = spreads ?? [];
  return {
    fn: (fr: Frame) => {
      const out: Value[] = [];
      for (let i = 0; i < count; i++) {
        const value = fns[i](fr);
        if (isPromise(value)) return finishList(fns, spreadAt, i, fr, out, value);
        if (spreadAt[i]) expandSpread(value as Value, out);
        else out.push(value as Value);
      }
      return out;
    },
    isAsync,
    cost,
  };
}

/** The rest of a list once one item returned a promise. */
async function finishList(
  fns: readonly AnyFn[],
  spreads: readonly boolean[],
  at: number,
  fr: Frame,
  out: Value[],
  pending: Promise<unknown>,
): Promise<Value[]> {
  let value = await pending;
  for (let i = at; ;) {
    if (spreads[i]) expandSpread(value as Value, out);
    else out.push(value as Value);
    if (++i >= fns.length) return out;
    value = fns[i](fr);
    if (isPromise(value)) value = await value;
  }
}

export function mapList(list: CExpr, build: (st: ExecState, values: Value[]) => Value): CExpr {
  const cost = 1 + list.cost;
  const get = list.fn;
  if (!list.isAsync) return { fn: (fr: Frame) => build(fr.st, get(fr) as Value[]), isAsync: false, cost };
  return {
    fn: (fr: Frame) => {
      const values = get(fr);
      return isPromise(values)
        ? values.then((v) => build(fr.st, v as Value[]))
        : build(fr.st, values as Value[]);
    },
    isAsync: true,
    cost,
  };
}

export function combine1(op: (a: Value) => Value, operand: CExpr): CExpr {
  const get = operand.fn;
  const cost = 1 + operand.cost;
  if (!operand.isAsync) {
    const a = get as (fr: Frame) => Value;
    return { fn: (fr: Frame) => op(a(fr)), isAsync: false, cost };
  }
  return {
    fn: (fr: Frame) => {
      const a = get(fr);
      return isPromise(a) ? a.then((v) => op(v as Value)) : op(a as Value);
    },
    isAsync: true,
    cost,
  };
}

/** Two operands evaluated left to right, then `op`; only waits where an operand returned a promise. */
export function combine2(
  op: (a: Value, b: Value, fr: Frame) => Value,
  left: CExpr,
  right: CExpr,
  ownCost: number,
): CExpr {
  const cost = ownCost + left.cost + right.cost;
  const l = left.fn;
  const r = right.fn;
  if (!left.isAsync && !right.isAsync) {
    const a = l as (fr: Frame) => Value;
    const b = r as (fr: Frame) => Value;
    return { fn: (fr: Frame) => op(a(fr), b(fr), fr), isAsync: false, cost };
  }
  const withLeft = (fr: Frame, a: Value): unknown => {
    const b = r(fr);
    return isPromise(b) ? b.then((v) => op(a, v as Value, fr)) : op(a, b as Value, fr);
  };
  return {
    fn: (fr: Frame) => {
      const a = l(fr);
      return isPromise(a) ? a.then((v) => withLeft(fr, v as Value)) : withLeft(fr, a as Value);
    },
    isAsync: true,
    cost,
  };
}

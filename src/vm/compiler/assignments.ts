import type { AssignStmt } from '../ast';
import { SYSTEM_VAR_NAMES } from '../context';
import { panic } from '../errors';
import {
  dropTemps,
  Frame,
  fuelOverflow,
  isPromise,
  NORMAL,
  readExtend,
  setIndex,
  writeExtend,
  type Signal,
} from '../runtime';
import { Results, type Value } from '../values';
import type { BodyContext, CExpr, CStmt, MaybeSignal } from './body';
import { listEvaluator } from './compose';
import { fail, failBare } from './fail';
import { hasCall, targetHasCall } from './syntax-queries';

/** Stands for the index of a target that has none, so index lists line up with targets. */
const NO_INDEX: CExpr = { fn: () => null, isAsync: false, cost: 0 };

/** A setter for one assignment target, plus the static cost of evaluating its index. */
function compileTarget(
  cx: BodyContext,
  target: AssignStmt['targets'][number],
): {
  set: (fr: Frame, value: Value) => void;
  index: CExpr | null;
  setIndexed: ((fr: Frame, key: Value, value: Value) => void) | null;
} {
  if (target.kind === 'var') {
    const slot = cx.scope.lookup(target.name, target);
    const index = slot.slot;
    const check = slot.check;
    return {
      set: (fr, value) => {
        fr.s[index] = check(value);
      },
      index: null,
      setIndexed: null,
    };
  }
  if (target.kind === 'extend') {
    const name = target.name;
    if (SYSTEM_VAR_NAMES.has(name)) failBare(`system variable $${name} cannot be changed`, target);
    return { set: (fr, value) => writeExtend(fr.st, name, value), index: null, setIndexed: null };
  }
  const container = target.target;
  const key = cx.compileExpr(target.index);
  if (container.kind === 'var') {
    const slot = cx.scope.lookup(container.name, container).slot;
    return {
      set: () => undefined,
      index: key,
      setIndexed: (fr, k, value) => setIndex(fr.st, fr.s[slot], k, value),
    };
  }
  const name = container.name;
  // Only the whole of a system variable is read-only, as in the reference: `$data[i] = row` changes the
  // value it holds in place (what a contract can reach of the $ variables the VM itself keeps, such as
  // $stack, is a copy made for each call).
  return {
    set: () => undefined,
    index: key,
    setIndexed: (fr, k, value) => setIndex(fr.st, readExtend(fr.st, name), k, value),
  };
}

/** `a, b = x, y`: every value is computed first (left to right), then the targets are set in order. */
function compileTupleAssign(cx: BodyContext, stmt: AssignStmt): CStmt {
  if (stmt.values.length !== stmt.targets.length) {
    fail(`assignment mismatch: ${stmt.targets.length} variables but ${stmt.values.length} values`, stmt);
  }
  const values = listEvaluator(stmt.values.map((v) => cx.compileExpr(v)));
  const targets = stmt.targets.map((t) => compileTarget(cx, t));
  const keys = listEvaluator(targets.map((t) => t.index ?? NO_INDEX));
  const cost = 1 + values.cost + keys.cost + targets.length;
  const drop = stmt.values.some(hasCall) || stmt.targets.some(targetHasCall);
  const assign = (fr: Frame, keyList: Value[], valueList: Value[]): Signal => {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[i];
      if (target.setIndexed) target.setIndexed(fr, keyList[i], valueList[i]);
      else target.set(fr, valueList[i]);
    }
    return NORMAL;
  };
  const getKeys = keys.fn;
  const getValues = values.fn;
  const withKeys = (fr: Frame, keyList: Value[]): MaybeSignal => {
    const valueList = getValues(fr);
    return isPromise(valueList)
      ? valueList.then((list) => assign(fr, keyList, list as Value[]))
      : assign(fr, keyList, valueList as Value[]);
  };
  return {
    fn: (fr: Frame): MaybeSignal => {
      if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
      if (drop) dropTemps(fr);
      const keyList = getKeys(fr);
      return isPromise(keyList)
        ? keyList.then((list) => withKeys(fr, list as Value[]))
        : withKeys(fr, keyList as Value[]);
    },
    isAsync: values.isAsync || keys.isAsync,
  };
}

export function compileAssign(cx: BodyContext, stmt: AssignStmt): CStmt {
  if (stmt.values.length > 1) return compileTupleAssign(cx, stmt);
  const source = stmt.values[0];
  const value =
    source.kind === 'call' || source.kind === 'extendCall'
      ? cx.compileCallLike(source, stmt.targets.length === 1)
      : cx.compileExpr(source);
  const targets = stmt.targets.map((t) => compileTarget(cx, t));
  const indexCost = targets.reduce((sum, t) => sum + (t.index ? t.index.cost : 0), 0);
  const cost = 1 + value.cost + indexCost + targets.length;
  const isAsync = value.isAsync || targets.some((t) => t.index?.isAsync);
  const drop = hasCall(source) || stmt.targets.some(targetHasCall);
  const get = value.fn;
  if (targets.length === 1) {
    const target = targets[0];
    if (target.index === null) {
      const set = target.set;
      if (!isAsync) {
        const v = get as (fr: Frame) => Value;
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (drop) dropTemps(fr);
            set(fr, v(fr));
            return NORMAL;
          },
          isAsync: false,
        };
      }
      const setNormal = (fr: Frame, result: unknown): Signal => {
        set(fr, result as Value);
        return NORMAL;
      };
      return {
        fn: (fr: Frame): MaybeSignal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          const result = get(fr);
          return isPromise(result) ? result.then((r) => setNormal(fr, r)) : setNormal(fr, result);
        },
        isAsync: true,
      };
    }
    const k = target.index.fn;
    const setIndexed = target.setIndexed!;
    if (!isAsync) {
      const key = k as (fr: Frame) => Value;
      const v = get as (fr: Frame) => Value;
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          const at = key(fr);
          setIndexed(fr, at, v(fr));
          return NORMAL;
        },
        isAsync: false,
      };
    }
    const storeAt = (fr: Frame, at: Value, result: unknown): Signal => {
      setIndexed(fr, at, result as Value);
      return NORMAL;
    };
    const withKey = (fr: Frame, at: Value): MaybeSignal => {
      const result = get(fr);
      return isPromise(result) ? result.then((r) => storeAt(fr, at, r)) : storeAt(fr, at, result);
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const at = k(fr);
        return isPromise(at) ? at.then((a) => withKey(fr, a as Value)) : withKey(fr, at as Value);
      },
      isAsync: true,
    };
  }
  const count = targets.length;
  const assignAll = (fr: Frame, keys: Value[], result: unknown): Signal => {
    if (!(result instanceof Results) || result.values.length !== count) {
      const got = result instanceof Results ? result.values.length : 1;
      throw panic(`assignment mismatch: ${count} variables but ${got} values`);
    }
    const values = result.values;
    for (let i = 0; i < count; i++) {
      const target = targets[i];
      if (target.setIndexed) target.setIndexed(fr, keys[i], values[i]);
      else target.set(fr, values[i]);
    }
    return NORMAL;
  };
  const keys = listEvaluator(targets.map((t) => t.index ?? NO_INDEX));
  const getKeys = keys.fn;
  const withKeys = (fr: Frame, keyList: Value[]): MaybeSignal => {
    const result = get(fr);
    return isPromise(result) ? result.then((r) => assignAll(fr, keyList, r)) : assignAll(fr, keyList, result);
  };
  return {
    fn: (fr: Frame): MaybeSignal => {
      if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
      if (drop) dropTemps(fr);
      const keyList = getKeys(fr);
      return isPromise(keyList)
        ? keyList.then((list) => withKeys(fr, list as Value[]))
        : withKeys(fr, keyList as Value[]);
    },
    isAsync,
  };
}

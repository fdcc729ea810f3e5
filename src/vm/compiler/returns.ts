import type { CallExpr, Expr, ExtendCallExpr } from '../ast';
import { panic } from '../errors';
import type { FuncResult } from '../objects';
import { dropTemps, Frame, fuelOverflow, isPromise, RETURN, type Signal } from '../runtime';
import { goTypeName, kindOf, kindOfType, Results, zeroValue, type TypeName, type Value } from '../values';
import type { BodyContext, CStmt, MaybeSignal } from './body';
import { listEvaluator } from './compose';
import { hasCall } from './syntax-queries';

/**
 * `return [values]`, as the reference runs it: a function without results evaluates and drops the values;
 * otherwise the last values fill the declared results (fewer is a run-time error) and each must have its
 * declared type (nil fits any). `return f()` may pass on several results of `f`.
 */
export function compileReturn(cx: BodyContext, values: Expr[]): CStmt {
  const decl = cx.unit.decl;
  const results = decl.results;
  const passOn =
    values.length === 1 &&
    results.length > 1 &&
    (values[0].kind === 'call' || values[0].kind === 'extendCall');
  const compiled = passOn
    ? [cx.compileCallLike(values[0] as CallExpr | ExtendCallExpr, false)]
    : values.map((v) => cx.compileExpr(v));
  const cost = 1 + compiled.reduce((sum, c) => sum + c.cost, 0);
  const isAsync = compiled.some((c) => c.isAsync);
  const drop = values.some(hasCall);
  if (compiled.length === 0) {
    return {
      fn: (fr: Frame): Signal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        return RETURN;
      },
      isAsync: false,
    };
  }
  const shape = returnShaper(decl.name, results);
  if (compiled.length === 1 && !passOn && results.length === 1) {
    const check = resultChecker(decl.name, results[0], 0);
    if (!isAsync) {
      const get = compiled[0].fn as (fr: Frame) => Value;
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          fr.ret = check(get(fr));
          return RETURN;
        },
        isAsync: false,
      };
    }
    const get = compiled[0].fn;
    const store = (fr: Frame, value: unknown): Signal => {
      fr.ret = check(value as Value);
      return RETURN;
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const value = get(fr);
        return isPromise(value) ? value.then((v) => store(fr, v)) : store(fr, value);
      },
      isAsync: true,
    };
  }
  const list = listEvaluator(compiled);
  const get = list.fn;
  const store = (fr: Frame, out: Value[]): Signal => {
    const shaped = shape(
      passOn && (out[0] as unknown) instanceof Results ? (out[0] as unknown as Results).values : out,
    );
    if (shaped !== undefined) fr.ret = shaped;
    return RETURN;
  };
  return {
    fn: (fr: Frame): MaybeSignal => {
      if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
      if (drop) dropTemps(fr);
      const out = get(fr);
      return isPromise(out) ? out.then((list) => store(fr, list as Value[])) : store(fr, out as Value[]);
    },
    isAsync,
  };
}

/** A declared result type as Go names it in the reference's messages. */
function goNameOfType(type: TypeName): string {
  return goTypeName(zeroValue(type));
}

/** The reference's run-time check of a returned value against its declared result type. */
function resultChecker(funcName: string, type: TypeName, index: number): (value: Value) => Value {
  const kind = kindOfType(type);
  return (value) => {
    if (value === null || kindOf(value) === kind) return value;
    throw panic(
      `function '${funcName}' return index[${index}] (type ${goTypeName(value)}) cannot be represented by the type ${goNameOfType(type)}`,
    );
  };
}

/**
 * What a `return` with values leaves as the function's result: nothing for a function without results, else the
 * last values (one per declared result), each checked against its type.
 */
function returnShaper(
  funcName: string,
  results: readonly TypeName[],
): (values: Value[]) => FuncResult | undefined {
  if (results.length === 0) return () => undefined;
  const checks = results.map((type, index) => resultChecker(funcName, type, index));
  const needed = results.map(goNameOfType).join('|');
  return (values) => {
    if (values.length < results.length) {
      throw panic(`func '${funcName}' not enough arguments to return, need [${needed}]`);
    }
    const kept = values.slice(values.length - results.length).map((value, i) => checks[i](value));
    return kept.length === 1 ? kept[0] : new Results(kept);
  };
}

import type { CallArg, CallExpr, ExtendCallExpr } from '../ast';
import type { AnyFn } from '../function';
import type { CompiledFunc, FuncResult } from '../objects';
import { Frame, isPromise, singleValue } from '../runtime';
import type { Value } from '../values';
import type { BodyContext, CExpr } from './body';
import { invokeBuiltin } from './builtin-calls';
import { combine2, listEvaluator } from './compose';
import { fail, failBare } from './fail';
import type { ChainStep } from './units';

export function compileCall(cx: BodyContext, expr: CallExpr | ExtendCallExpr, valueContext: boolean): CExpr {
  if (expr.kind === 'extendCall') {
    const builtin = cx.env.builtins.get('$' + expr.name) ?? cx.env.builtins.get(expr.name)!;
    return invokeBuiltin(builtin, [compileArgs(cx, expr.args)], valueContext);
  }
  const steps = cx.chainOf(expr);
  let previous: CExpr | null = null;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const groups = step.groups.map((group, g) => {
      const list = compileArgs(cx, group);
      if (g === 0 && previous) return prepend(previous, list);
      return list;
    });
    const isLast = i === steps.length - 1;
    previous = invoke(cx, step, groups, isLast ? valueContext : true);
  }
  return previous!;
}

function compileArgs(cx: BodyContext, args: CallArg[]): CExpr {
  return listEvaluator(
    args.map((a) => cx.compileExpr(a.expr)),
    args.map((a) => a.spread),
  );
}

function prepend(first: CExpr, rest: CExpr): CExpr {
  return combine2((head, tail) => [head, ...(tail as Value[])], first, rest, 0);
}

function checkArity(expected: readonly [number, number] | null, name: string, step: ChainStep): void {
  if (!expected) return;
  const main = step.groups[0];
  if (main.some((a) => a.spread)) return;
  const count = main.length + (step.chained ? 1 : 0);
  if (count < expected[0] || count > expected[1]) {
    if (expected[0] === expected[1])
      failBare(`function ${name} must have ${expected[0]} parameters`, step.position);
    fail(`wrong count of parameters`, step.position);
  }
}

function invoke(cx: BodyContext, step: ChainStep, groups: CExpr[], valueContext: boolean): CExpr {
  const target = step.target;
  switch (target.kind) {
    case 'builtin':
      if (step.groups.length > 1) fail(`unknown tail for ${target.builtin.name}`, step.position);
      checkArity(target.builtin.params, target.builtin.name, step);
      return invokeBuiltin(target.builtin, groups, valueContext);
    case 'unit':
    case 'func': {
      const declared = target.kind === 'unit' ? target.unit.decl : null;
      const paramCount = declared
        ? declared.params.length
        : target.kind === 'func'
          ? target.func.params.length
          : 0;
      const variadic = declared ? declared.variadic : target.kind === 'func' ? target.func.variadic : false;
      const name = declared ? declared.name : target.kind === 'func' ? target.func.name : '';
      const min = variadic ? paramCount - 1 : paramCount;
      // A function of another source may change under a relinked caller: its counts are checked when it runs.
      const checkedNow = !(target.kind === 'func' && cx.options.relink);
      if (checkedNow) checkArity([min, variadic ? Infinity : paramCount], name, step);
      const results = declared
        ? declared.results.length
        : target.kind === 'func'
          ? target.func.results.length
          : 1;
      if (checkedNow && valueContext && results > 1)
        fail(`multiple-value ${name}() in single-value context`, step.position);
      const unit = target.kind === 'unit' ? target.unit : null;
      const fixedFunc = target.kind === 'func' ? target.func : null;
      const isAsync = unit ? unit.isAsync : fixedFunc!.isAsync;
      const unwrap = valueContext && !checkedNow;
      return invokeUser(() => (unit ? unit.func! : fixedFunc!), isAsync, groups, step, unwrap);
    }
    case 'contract':
    case 'extern': {
      if (step.groups.length > 1) fail(`unexpected tail after a contract call`, step.position);
      const key = target.key;
      const args = groups[0];
      const get = args.fn;
      const env = cx.env;
      const named = target.kind === 'contract';
      return {
        fn: async (fr: Frame) => {
          let values = get(fr);
          if (isPromise(values)) values = await values;
          const value = singleValue(await env.callByKey(fr.st, key, values as Value[], named));
          fr.st.keep(value);
          return value;
        },
        isAsync: true,
        cost: 1 + args.cost,
      };
    }
  }
}

/** `unwrap`: the call is in value context but its result count was not checked at compile time. */
function invokeUser(
  resolve: () => CompiledFunc,
  isAsync: boolean,
  groups: CExpr[],
  step: ChainStep,
  unwrap: boolean,
): CExpr {
  const singleValueOrResults = unwrap ? singleValue : passResults;
  const cost = 1 + groups.reduce((sum, g) => sum + g.cost, 0);
  const argsFn = groups[0].fn;
  const tailFns = groups.slice(1).map((g) => g.fn);
  const tailIndexes = step.tailIndexes;
  const argsAsync = groups.some((g) => g.isAsync);
  if (!isAsync && !argsAsync) {
    const getArgs = argsFn as (fr: Frame) => Value[];
    if (tailFns.length === 0) {
      return {
        fn: (fr: Frame) => singleValueOrResults(resolve().call(fr.st, getArgs(fr), null) as FuncResult),
        isAsync: false,
        cost,
      };
    }
    return {
      fn: (fr: Frame) => {
        const args = getArgs(fr);
        const tailArgs: Array<Value[] | undefined> = [];
        for (let i = 0; i < tailFns.length; i++) tailArgs[tailIndexes[i]] = tailFns[i](fr) as Value[];
        return singleValueOrResults(resolve().call(fr.st, args, tailArgs) as FuncResult);
      },
      isAsync: false,
      cost,
    };
  }
  const finish = (result: unknown): unknown =>
    isPromise(result)
      ? result.then((r) => singleValueOrResults(r as FuncResult))
      : singleValueOrResults(result as FuncResult);
  if (tailFns.length === 0) {
    const call = (fr: Frame, args: Value[]): unknown => finish(resolve().call(fr.st, args, null));
    return {
      fn: (fr: Frame) => {
        const args = argsFn(fr);
        return isPromise(args) ? args.then((a) => call(fr, a as Value[])) : call(fr, args as Value[]);
      },
      isAsync: true,
      cost,
    };
  }
  const callWith = (fr: Frame, lists: Value[][]): unknown => {
    const tailArgs: Array<Value[] | undefined> | null = tailFns.length > 0 ? [] : null;
    for (let i = 0; i < tailFns.length; i++) tailArgs![tailIndexes[i]] = lists[i + 1];
    return finish(resolve().call(fr.st, lists[0], tailArgs));
  };
  const allGroups = [argsFn, ...tailFns];
  return {
    fn: (fr: Frame) => {
      const lists = evaluateGroups(allGroups, fr);
      return isPromise(lists) ? lists.then((l) => callWith(fr, l)) : callWith(fr, lists);
    },
    isAsync: true,
    cost,
  };
}

/** A call's argument groups (main arguments, then each tail's), waiting only where one returns a promise. */
function evaluateGroups(groups: readonly AnyFn[], fr: Frame): Value[][] | Promise<Value[][]> {
  const lists: Value[][] = [];
  for (let i = 0; i < groups.length; i++) {
    const list = groups[i](fr);
    if (isPromise(list)) {
      return (async () => {
        lists.push((await list) as Value[]);
        for (let j = i + 1; j < groups.length; j++) {
          let next = groups[j](fr);
          if (isPromise(next)) next = await next;
          lists.push(next as Value[]);
        }
        return lists;
      })();
    }
    lists.push(list as Value[]);
  }
  return lists;
}

/** Results pass through for multi-assignment; callers in value context are checked at compile time. */
function passResults(result: FuncResult): FuncResult {
  return result;
}

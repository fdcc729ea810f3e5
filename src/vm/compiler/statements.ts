import type { Block, Stmt } from '../ast';
import { VmError } from '../errors';
import { goString } from '../format';
import { valueCost } from '../memory';
import {
  BREAK,
  CONTINUE,
  dropTemps,
  Frame,
  fuelOverflow,
  isPromise,
  NORMAL,
  RETURN,
  type Signal,
} from '../runtime';
import { isTruthy, zeroValue, type Value } from '../values';
import { compileAssign } from './assignments';
import type { BodyContext, CStmt, MaybeSignal } from './body';
import { fail } from './fail';
import { compileReturn } from './returns';
import { hasCall } from './syntax-queries';

export function compileBlock(cx: BodyContext, block: Block, newScope = true): CStmt {
  if (newScope) cx.scope.open();
  const statements = block.statements.map((stmt) => compileStmt(cx, stmt));
  if (newScope) cx.scope.close();
  const isAsync = statements.some((s) => s.isAsync);
  const fns = statements.map((s) => s.fn);
  const count = fns.length;
  if (!isAsync) {
    if (count === 0) return { fn: () => NORMAL, isAsync };
    if (count === 1) return { fn: fns[0], isAsync };
    if (count === 2) {
      const [a, b] = fns as Array<(fr: Frame) => Signal>;
      return { fn: (fr: Frame) => a(fr) || b(fr), isAsync };
    }
    const syncFns = fns as Array<(fr: Frame) => Signal>;
    return {
      fn: (fr: Frame): Signal => {
        for (let i = 0; i < count; i++) {
          const signal = syncFns[i](fr);
          if (signal !== NORMAL) return signal;
        }
        return NORMAL;
      },
      isAsync,
    };
  }
  const steps = fns as Array<(fr: Frame) => MaybeSignal>;
  return {
    fn: (fr: Frame): MaybeSignal => {
      for (let i = 0; i < count; i++) {
        const signal = steps[i](fr);
        if (signal !== NORMAL) {
          return isPromise(signal) ? finishBlock(steps, i + 1, fr, signal as Promise<Signal>) : signal;
        }
      }
      return NORMAL;
    },
    isAsync,
  };
}

function compileStmt(cx: BodyContext, stmt: Stmt): CStmt {
  switch (stmt.kind) {
    case 'varDecl': {
      const slots = stmt.vars.map((v) => cx.scope.declare(v.name, v.type, v));
      const cost = 1 + slots.length;
      const inits = slots.map((s) => ({ slot: s.slot, type: s.type }));
      const bytes = inits.reduce((sum, init) => sum + valueCost(zeroValue(init.type)), 0);
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (bytes > 0) fr.st.reserveMemory(bytes);
          for (const init of inits) fr.s[init.slot] = zeroValue(init.type);
          return NORMAL;
        },
        isAsync: false,
      };
    }
    case 'assign':
      return compileAssign(cx, stmt);
    case 'expr': {
      const expr = cx.compileCallLike(stmt.expr, false);
      const cost = 1 + expr.cost;
      const run = expr.fn;
      if (!expr.isAsync) {
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            dropTemps(fr);
            run(fr);
            return NORMAL;
          },
          isAsync: false,
        };
      }
      return {
        fn: (fr: Frame): MaybeSignal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          dropTemps(fr);
          const done = run(fr);
          return isPromise(done) ? done.then(toNormal) : NORMAL;
        },
        isAsync: true,
      };
    }
    case 'if':
      return compileIf(cx, stmt);
    case 'while':
      return compileWhile(cx, stmt);
    case 'break':
    case 'continue': {
      if (cx.loopDepth === 0) fail(`${stmt.kind} outside of a loop`, stmt);
      const signal: Signal = stmt.kind === 'break' ? BREAK : CONTINUE;
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= 1) < 0) fuelOverflow();
          return signal;
        },
        isAsync: false,
      };
    }
    case 'return':
      return compileReturn(cx, stmt.values);
    case 'throw': {
      const value = cx.compileExpr(stmt.value);
      const cost = 1 + value.cost;
      const level = stmt.level;
      const drop = hasCall(stmt.value);
      const get = value.fn;
      const raise = (text: unknown): never => {
        throw new VmError(level, goString(text as Value));
      };
      return {
        fn: (fr: Frame): MaybeSignal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          const text = get(fr);
          return isPromise(text) ? text.then(raise) : raise(text);
        },
        isAsync: value.isAsync,
      };
    }
  }
}

function compileIf(cx: BodyContext, stmt: Extract<Stmt, { kind: 'if' }>): CStmt {
  const condition = cx.compileExpr(stmt.condition);
  const then = compileBlock(cx, stmt.then);
  const otherwise = stmt.otherwise ? compileBlock(cx, stmt.otherwise) : null;
  const cost = 1 + condition.cost;
  const isAsync = condition.isAsync || then.isAsync || (otherwise?.isAsync ?? false);
  const drop = hasCall(stmt.condition);
  const cond = condition.fn as (fr: Frame) => Value;
  const thenFn = then.fn as (fr: Frame) => MaybeSignal;
  const elseFn = (otherwise?.fn ?? null) as ((fr: Frame) => MaybeSignal) | null;
  if (!isAsync) {
    const t = thenFn as (fr: Frame) => Signal;
    const e = elseFn as ((fr: Frame) => Signal) | null;
    return {
      fn: (fr: Frame): Signal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (isTruthy(cond(fr))) return t(fr);
        return e === null ? NORMAL : e(fr);
      },
      isAsync: false,
    };
  }
  const branch = (fr: Frame, value: Value): MaybeSignal =>
    isTruthy(value) ? thenFn(fr) : elseFn === null ? NORMAL : elseFn(fr);
  return {
    fn: (fr: Frame): MaybeSignal => {
      if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
      if (drop) dropTemps(fr);
      const value = cond(fr);
      return isPromise(value) ? value.then((v) => branch(fr, v as Value)) : branch(fr, value);
    },
    isAsync: true,
  };
}

/**
 * A loop checks the clock at every turn (one load of a shared counter): past the deadline it fails, and
 * after a time slice it pauses, so a loop is the one statement that may suspend without calling anything
 * that does. Its turns run synchronously until something returns a promise; from there an async copy of
 * the loop goes on.
 */
function compileWhile(cx: BodyContext, stmt: Extract<Stmt, { kind: 'while' }>): CStmt {
  const condition = cx.compileExpr(stmt.condition);
  cx.loopDepth++;
  const body = compileBlock(cx, stmt.body);
  cx.loopDepth--;
  const cost = 1 + condition.cost;
  const drop = hasCall(stmt.condition);
  const cond = condition.fn as (fr: Frame) => Value | Promise<Value>;
  const run = body.fn as (fr: Frame) => MaybeSignal;
  /** Goes on after `pending`: a pause before the condition, the condition's value, or the body's signal. */
  const resume = async (fr: Frame, pending: Promise<unknown>, stage: LoopStage): Promise<Signal> => {
    const st = fr.st;
    let value = await pending;
    for (;;) {
      if (stage === LoopStage.Body) {
        if (value === BREAK) return NORMAL;
        if (value === RETURN) return RETURN;
        if ((st.fuelLeft -= cost) < 0) fuelOverflow();
        if (--st.countdown < 0) await st.turn();
        stage = LoopStage.Turn;
      }
      if (stage === LoopStage.Turn) {
        if (drop) dropTemps(fr);
        value = cond(fr);
        if (isPromise(value)) value = await value;
      }
      if (!isTruthy(value as Value)) return NORMAL;
      value = run(fr);
      if (isPromise(value)) value = await value;
      stage = LoopStage.Body;
    }
  };
  return {
    fn: (fr: Frame): MaybeSignal => {
      const st = fr.st;
      for (;;) {
        if ((st.fuelLeft -= cost) < 0) fuelOverflow();
        if (--st.countdown < 0) {
          const pause = st.turn();
          if (pause !== undefined) return resume(fr, pause, LoopStage.Turn);
        }
        if (drop) dropTemps(fr);
        const value = cond(fr);
        if (isPromise(value)) return resume(fr, value, LoopStage.Condition);
        if (!isTruthy(value)) return NORMAL;
        const signal = run(fr);
        if (signal !== NORMAL) {
          if (isPromise(signal)) return resume(fr, signal, LoopStage.Body);
          if (signal === BREAK) return NORMAL;
          if (signal === RETURN) return RETURN;
        }
      }
    },
    isAsync: true,
  };
}

const toNormal = (): Signal => NORMAL;

const enum LoopStage {
  /** Waiting for a pause: the turn's condition comes next. */
  Turn,
  /** Waiting for the condition's value. */
  Condition,
  /** Waiting for the body's signal. */
  Body,
}

/** The rest of a statement list once one statement returned a promise. */
async function finishBlock(
  steps: ReadonlyArray<(fr: Frame) => MaybeSignal>,
  from: number,
  fr: Frame,
  pending: Promise<Signal>,
): Promise<Signal> {
  const first = await pending;
  if (first !== NORMAL) return first;
  for (let i = from; i < steps.length; i++) {
    let signal = steps[i](fr);
    if (isPromise(signal)) signal = await signal;
    if (signal !== NORMAL) return signal;
  }
  return NORMAL;
}

import { MAX_CALL_DEPTH, type ExecState } from './context';
import { panic } from './errors';
import type { CompiledFunc, FuncResult, ParamInfo, SourceOrigin, TailInfo } from './objects';
import { checkInt64 } from './operators';
import { dropTemps, Frame, fuelOverflow, isPromise, NORMAL } from './runtime';
import { Results, zeroValue, type TypeName, type Value } from './values';

export const FUNC_CALL_PRICE = 50;

export type AnyFn = (fr: Frame) => unknown;

/** A compiled user function: the body is a closure tree, synchronous unless some path may suspend. */
export class UserFunc implements CompiledFunc {
  readonly kind = 'func';
  isAsync = false;
  writesDb = false;
  slotCount = 0;
  body: AnyFn = () => NORMAL;
  origin?: SourceOrigin;
  readonly paramCheckers: Array<((value: Value, index: number) => Value) | null>;
  readonly tailSlots: number[][];

  constructor(
    readonly name: string,
    readonly key: string,
    readonly ecosystem: number,
    readonly params: ParamInfo[],
    readonly variadic: boolean,
    readonly tails: Map<string, TailInfo>,
    readonly results: TypeName[],
    readonly line: number,
    readonly column: number,
    readonly chargeCall: boolean,
  ) {
    this.paramCheckers = params.map((param) => paramChecker(param.type));
    this.tailSlots = [];
  }

  /**
   * Runs the function. One that may suspend checks the clock first (a call is, with a loop turn, where a
   * long execution pauses or meets its deadline); its body answers directly unless it had to wait.
   */
  call(
    st: ExecState,
    args: Value[],
    tailArgs: ReadonlyArray<Value[] | undefined> | null,
  ): FuncResult | Promise<FuncResult> {
    if (this.isAsync && --st.countdown < 0) {
      const pause = st.turn();
      if (pause !== undefined) return pause.then(() => this.enter(st, args, tailArgs));
    }
    return this.enter(st, args, tailArgs);
  }

  private enter(
    st: ExecState,
    args: Value[],
    tailArgs: ReadonlyArray<Value[] | undefined> | null,
  ): FuncResult | Promise<FuncResult> {
    if (++st.depth > MAX_CALL_DEPTH) {
      st.depth--;
      throw panic('max call depth');
    }
    let frame: Frame;
    try {
      if ((st.fuelLeft -= (this.chargeCall ? FUNC_CALL_PRICE : 0) + this.params.length) < 0) fuelOverflow();
      frame = this.makeFrame(st, args, tailArgs);
    } catch (error) {
      st.depth--;
      throw error;
    }
    st.frames.push(frame);
    let signal: unknown;
    try {
      signal = this.body(frame);
    } catch (error) {
      leave(st, frame);
      throw error;
    }
    if (!isPromise(signal)) return this.finish(st, frame);
    return signal.then(
      () => this.finish(st, frame),
      (error: unknown) => {
        leave(st, frame);
        throw error;
      },
    );
  }

  /** The call is over: its temporaries go, and its result becomes one of the caller's. */
  private finish(st: ExecState, frame: Frame): FuncResult {
    leave(st, frame);
    const result = this.resultOf(frame);
    if (!(result instanceof Results)) st.keep(result);
    return result;
  }

  private makeFrame(
    st: ExecState,
    args: Value[],
    tailArgs: ReadonlyArray<Value[] | undefined> | null,
  ): Frame {
    const frame = new Frame(st, this.slotCount);
    const slots = frame.s;
    const params = this.params;
    const fixed = this.variadic ? params.length - 1 : params.length;
    if (this.variadic ? args.length < fixed : args.length !== fixed) {
      throw panic(`function ${this.name} must have ${fixed} parameters`);
    }
    for (let i = 0; i < fixed; i++) {
      const check = this.paramCheckers[i];
      slots[i] = check === null ? args[i] : check(args[i], i);
    }
    if (this.variadic) slots[fixed] = args.slice(fixed);
    if (this.tailSlots.length > 0) {
      let index = 0;
      for (const tail of this.tails.values()) {
        const given = tailArgs?.[index];
        const slotsOfTail = this.tailSlots[index];
        const tailFixed = tail.variadic ? tail.params.length - 1 : tail.params.length;
        if (given !== undefined && (tail.variadic ? given.length < tailFixed : given.length !== tailFixed)) {
          throw panic(`function ${tail.name} must have ${tailFixed} parameters`);
        }
        for (let p = 0; p < slotsOfTail.length; p++) {
          const type = tail.params[p].type;
          if (given === undefined) {
            slots[slotsOfTail[p]] = type === null ? [] : zeroValue(type);
          } else if (tail.variadic && p === tailFixed) {
            slots[slotsOfTail[p]] = given.slice(tailFixed);
          } else {
            const check = paramChecker(type);
            slots[slotsOfTail[p]] = check === null ? given[p] : check(given[p], p);
          }
        }
        index++;
      }
    }
    return frame;
  }

  private resultOf(frame: Frame): FuncResult {
    if (frame.ret !== undefined) return frame.ret;
    const results = this.results;
    if (results.length === 0) return null;
    if (results.length === 1) return zeroValue(results[0]);
    return new Results(results.map(zeroValue));
  }
}

/** Parameters are checked only for string and int; a float passed as int is truncated. */
export function paramChecker(type: TypeName | null): ((value: Value, index: number) => Value) | null {
  if (type === 'string') {
    return (value, index) => {
      if (typeof value !== 'string') throw panic(`parameter ${index + 1} has wrong type`);
      return value;
    };
  }
  if (type === 'int') {
    return (value, index) => {
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return checkInt64(BigInt(Math.trunc(value)));
      throw panic(`parameter ${index + 1} has wrong type`);
    };
  }
  return null;
}

function leave(st: ExecState, frame: Frame): void {
  st.depth--;
  st.frames.pop();
  dropTemps(frame);
}

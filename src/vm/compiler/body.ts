import type { CallExpr, Expr, ExtendCallExpr } from '../ast';
import type { AnyFn } from '../function';
import type { Signal } from '../runtime';
import type { CompileEnv, CompileOptions } from './environment';
import type { Scope } from './scope';
import type { ChainStep, Unit } from './units';

export interface CExpr {
  fn: AnyFn;
  isAsync: boolean;
  cost: number;
}
export interface CStmt {
  fn: AnyFn;
  isAsync: boolean;
}

export type MaybeSignal = Signal | Promise<Signal>;

/**
 * One function body being compiled, as the statement, expression and call compilers see it. Expressions and
 * calls nest in each other: they reach one another through this, so neither module imports the other.
 */
export interface BodyContext {
  readonly unit: Unit;
  readonly scope: Scope;
  readonly env: CompileEnv;
  readonly options: CompileOptions;
  /** `break` and `continue` are errors outside a loop. */
  loopDepth: number;
  chainOf(call: CallExpr): ChainStep[];
  compileExpr(expr: Expr): CExpr;
  compileCallLike(expr: CallExpr | ExtendCallExpr, valueContext: boolean): CExpr;
}

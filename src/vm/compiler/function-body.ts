import type { CallExpr, Expr, ExtendCallExpr } from '../ast';
import type { UserFunc } from '../function';
import type { BodyContext, CExpr } from './body';
import { compileCall } from './calls';
import type { CompileEnv, CompileOptions } from './environment';
import { compileExpression } from './expressions';
import { Scope } from './scope';
import { compileBlock } from './statements';
import type { ChainStep, Unit } from './units';

/** What a function body needs of the source it belongs to: the calls resolved while declaring it. */
export interface DeclaredSource {
  chainOf(call: CallExpr, unit: Unit): ChainStep[];
  readonly compileEnv: CompileEnv;
  readonly compileOptions: CompileOptions;
}

export class FunctionCompiler implements BodyContext {
  readonly scope = new Scope();
  loopDepth = 0;

  constructor(
    private readonly source: DeclaredSource,
    readonly unit: Unit,
  ) {}

  get env(): CompileEnv {
    return this.source.compileEnv;
  }

  get options(): CompileOptions {
    return this.source.compileOptions;
  }

  chainOf(call: CallExpr): ChainStep[] {
    return this.source.chainOf(call, this.unit);
  }

  compileBody(): void {
    const func = this.unit.func as UserFunc;
    const decl = this.unit.decl;
    this.scope.open();
    for (const param of decl.params) {
      this.scope.declare(param.name, param.type ?? 'array', param);
    }
    decl.tails.forEach((tail, index) => {
      func.tailSlots[index] = tail.params.map(
        (param) => this.scope.declare(param.name, param.type ?? 'array', param).slot,
      );
    });
    const body = compileBlock(this, decl.body, false);
    func.body = body.fn;
    func.slotCount = this.scope.slotCount;
    if (body.isAsync && !func.isAsync) throw new Error('internal: async body in a synchronous function');
  }

  compileExpr(expr: Expr): CExpr {
    return compileExpression(this, expr);
  }

  compileCallLike(expr: CallExpr | ExtendCallExpr, valueContext: boolean): CExpr {
    return compileCall(this, expr, valueContext);
  }
}

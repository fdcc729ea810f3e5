import type { AssignStmt, Block, CallExpr, Expr, ExtendCallExpr, Stmt } from '../ast';

export function forEachCall(block: Block, visit: (call: CallExpr | ExtendCallExpr) => void): void {
  const visitExpr = (expr: Expr): void => {
    switch (expr.kind) {
      case 'call':
        visit(expr);
        for (const arg of expr.args) visitExpr(arg.expr);
        for (const tail of expr.tails) for (const arg of tail.args) visitExpr(arg.expr);
        break;
      case 'extendCall':
        visit(expr);
        for (const arg of expr.args) visitExpr(arg.expr);
        break;
      case 'index':
        visitExpr(expr.index);
        break;
      case 'unary':
        visitExpr(expr.operand);
        break;
      case 'binary':
        visitExpr(expr.left);
        visitExpr(expr.right);
        break;
      case 'map':
        for (const [, value] of expr.entries) visitExpr(value);
        break;
      case 'array':
        for (const item of expr.items) visitExpr(item);
        break;
      default:
        break;
    }
  };
  const visitBlock = (b: Block): void => {
    for (const stmt of b.statements) visitStmt(stmt);
  };
  const visitStmt = (stmt: Stmt): void => {
    switch (stmt.kind) {
      case 'assign':
        for (const target of stmt.targets) if (target.kind === 'index') visitExpr(target.index);
        for (const value of stmt.values) visitExpr(value);
        break;
      case 'expr':
        visitExpr(stmt.expr);
        break;
      case 'if':
        visitExpr(stmt.condition);
        visitBlock(stmt.then);
        if (stmt.otherwise) visitBlock(stmt.otherwise);
        break;
      case 'while':
        visitExpr(stmt.condition);
        visitBlock(stmt.body);
        break;
      case 'return':
        for (const value of stmt.values) visitExpr(value);
        break;
      case 'throw':
        visitExpr(stmt.value);
        break;
      default:
        break;
    }
  };
  visitBlock(block);
}

export function hasLoop(block: Block): boolean {
  return block.statements.some(
    (stmt) =>
      stmt.kind === 'while' ||
      (stmt.kind === 'if' && (hasLoop(stmt.then) || (stmt.otherwise !== null && hasLoop(stmt.otherwise)))),
  );
}

/** Only calls leave temporaries (`ExecState.temps`): statements without one need not clear them. */
export function hasCall(expr: Expr): boolean {
  switch (expr.kind) {
    case 'call':
    case 'extendCall':
      return true;
    case 'index':
      return hasCall(expr.index) || hasCall(expr.target);
    case 'unary':
      return hasCall(expr.operand);
    case 'binary':
      return hasCall(expr.left) || hasCall(expr.right);
    case 'map':
      return expr.entries.some(([, value]) => hasCall(value));
    case 'array':
      return expr.items.some(hasCall);
    default:
      return false;
  }
}

export function targetHasCall(target: AssignStmt['targets'][number]): boolean {
  return target.kind === 'index' && hasCall(target.index);
}

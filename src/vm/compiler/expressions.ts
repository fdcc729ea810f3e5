import type { Expr } from '../ast';
import type { ExecState } from '../context';
import { arrayCost, mapCost, newStringCost, stringCost } from '../memory';
import * as ops from '../operators';
import { Frame, indexValue, readExtend } from '../runtime';
import { isTruthy, type Value } from '../values';
import type { BodyContext, CExpr } from './body';
import { combine1, combine2, listEvaluator, mapList } from './compose';

export function compileExpression(cx: BodyContext, expr: Expr): CExpr {
  switch (expr.kind) {
    case 'literal': {
      const value = expr.value;
      return { fn: () => value, isAsync: false, cost: 1 };
    }
    case 'var': {
      const slot = cx.scope.lookup(expr.name, expr).slot;
      return { fn: (fr: Frame) => fr.s[slot], isAsync: false, cost: 1 };
    }
    case 'extend': {
      const name = expr.name;
      return { fn: (fr: Frame) => readExtend(fr.st, name), isAsync: false, cost: 10 };
    }
    case 'index': {
      const key = cx.compileExpr(expr.index);
      const container = cx.compileExpr(expr.target);
      return combine2((c, k) => indexValue(c, k), container, key, 1);
    }
    case 'unary': {
      const operand = cx.compileExpr(expr.operand);
      const op = expr.operator === '-' ? ops.negate : ops.not;
      return combine1(op, operand);
    }
    case 'binary': {
      const left = cx.compileExpr(expr.left);
      const right = cx.compileExpr(expr.right);
      return compileBinary(expr.operator, left, right);
    }
    case 'map': {
      const keys = expr.entries.map(([key]) => key);
      const values = listEvaluator(expr.entries.map(([, value]) => cx.compileExpr(value)));
      const bytes = mapCost(keys.length) + keys.reduce((sum, key) => sum + stringCost(key), 0);
      const build = (st: ExecState, list: Value[]): Value => {
        st.reserveMemory(bytes);
        const map = new Map<string, Value>();
        for (let i = 0; i < keys.length; i++) map.set(keys[i], list[i]);
        return map;
      };
      return mapList(values, build);
    }
    case 'array': {
      const values = listEvaluator(expr.items.map((item) => cx.compileExpr(item)));
      const bytes = arrayCost(expr.items.length);
      return mapList(values, (st, list) => {
        st.reserveMemory(bytes);
        return list;
      });
    }
    case 'call':
    case 'extendCall':
      return cx.compileCallLike(expr, true);
  }
}

function compileBinary(operator: string, left: CExpr, right: CExpr): CExpr {
  if (left.isAsync || right.isAsync) {
    const op = BINARY_OPS[operator];
    return combine2(op, left, right, 1);
  }
  const cost = 1 + left.cost + right.cost;
  const l = left.fn as (fr: Frame) => Value;
  const r = right.fn as (fr: Frame) => Value;
  let fn: (fr: Frame) => Value;
  // One closure per operator so V8 can inline the operator function at each site.
  switch (operator) {
    case '+':
      fn = (fr) => {
        const a = l(fr);
        const b = r(fr);
        return typeof a === 'bigint' && typeof b === 'bigint' ? ops.add(a, b) : addValues(a, b, fr);
      };
      break;
    case '-':
      fn = (fr) => ops.sub(l(fr), r(fr));
      break;
    case '*':
      fn = (fr) => ops.mul(l(fr), r(fr));
      break;
    case '/':
      fn = (fr) => ops.div(l(fr), r(fr));
      break;
    case '<':
      fn = (fr) => ops.lt(l(fr), r(fr));
      break;
    case '<=':
      fn = (fr) => ops.le(l(fr), r(fr));
      break;
    case '>':
      fn = (fr) => ops.gt(l(fr), r(fr));
      break;
    case '>=':
      fn = (fr) => ops.ge(l(fr), r(fr));
      break;
    case '==':
      fn = (fr) => ops.eq(l(fr), r(fr));
      break;
    case '!=':
      fn = (fr) => ops.ne(l(fr), r(fr));
      break;
    case '&&':
      // Both sides are always evaluated, as in the reference.
      fn = (fr) => {
        const a = l(fr);
        const b = r(fr);
        return isTruthy(a) && isTruthy(b);
      };
      break;
    default:
      fn = (fr) => {
        const a = l(fr);
        const b = r(fr);
        return isTruthy(a) || isTruthy(b);
      };
      break;
  }
  return { fn, isAsync: false, cost };
}

/** `a + b` for anything but two ints: joined strings reserve their memory first. */
function addValues(a: Value, b: Value, fr: Frame): Value {
  if (typeof a === 'string' && typeof b === 'string') {
    fr.st.reserveMemory(newStringCost(a.length + b.length));
    return a + b;
  }
  return ops.add(a, b);
}

const BINARY_OPS: Record<string, (a: Value, b: Value) => Value> = {
  '+': ops.add,
  '-': ops.sub,
  '*': ops.mul,
  '/': ops.div,
  '<': ops.lt,
  '<=': ops.le,
  '>': ops.gt,
  '>=': ops.ge,
  '==': ops.eq,
  '!=': ops.ne,
  '&&': ops.and,
  '||': ops.or,
};

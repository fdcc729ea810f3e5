import Decimal from 'decimal.js';
import { goFixed } from '../vm/format';

/**
 * Calculate(Exp, Type, Prec): `+ - * /` and parentheses over int (int64, wrapping, division toward zero), float
 * or money (decimal; division to 16 places). Without a type, an expression with a dot is float. Errors are the
 * reference's texts, returned as the result.
 */
export const TemplateDecimal = Decimal.clone({
  precision: 200,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -1e9,
  toExpPos: 1e9,
});
type Dec = InstanceType<typeof TemplateDecimal>;

const WRONG = 'wrong expression';
const DIV_ZERO = 'dividing by zero';

type Kind = 'int' | 'float' | 'money';
type Num = bigint | number | Dec;

interface Token {
  op: '' | '+' | '-' | '*' | '/' | '(' | ')';
  value?: Num;
  priority: number;
}

const PRIORITY: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };

class CalcError extends Error {}

function parseNumber(text: string, kind: Kind): Num {
  switch (kind) {
    case 'int': {
      if (!/^\d+$/.test(text))
        throw new CalcError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
      const value = BigInt(text);
      if (value > 0x7fffffffffffffffn) {
        throw new CalcError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
      }
      return value;
    }
    case 'float':
      if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) {
        throw new CalcError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
      }
      return Number(text);
    case 'money':
      if (!/^(\d+\.?\d*|\.\d+)$/.test(text))
        throw new CalcError(`can't convert ${text} to decimal: too many .s`);
      return new TemplateDecimal(text);
  }
}

function tokenize(input: string, kind: Kind): Token[] {
  const tokens: Token[] = [];
  const prevNumber = (): boolean => tokens.length > 0 && tokens[tokens.length - 1].op === '';
  const prevOperator = (): boolean =>
    tokens.length > 0 && PRIORITY[tokens[tokens.length - 1].op] !== undefined;
  let number = '';
  for (const ch of input + ' ') {
    if ((ch >= '0' && ch <= '9') || ch === '.') {
      number += ch;
      continue;
    }
    if (number) {
      const value = parseNumber(number, kind);
      if (prevNumber()) throw new CalcError(WRONG);
      tokens.push({ op: '', value, priority: 0 });
      number = '';
    }
    if (PRIORITY[ch] !== undefined) {
      if (prevOperator()) throw new CalcError(WRONG);
      tokens.push({ op: ch as Token['op'], priority: PRIORITY[ch] });
      continue;
    }
    switch (ch) {
      case '(':
        if (prevNumber()) throw new CalcError(WRONG);
        tokens.push({ op: '(', priority: 3 });
        break;
      case ')':
        if (prevOperator()) throw new CalcError(WRONG);
        tokens.push({ op: ')', priority: 3 });
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:
        throw new CalcError(WRONG);
    }
  }
  return tokens;
}

/** Reverse Polish order, as the reference builds it (an operator pops at most one waiting operator). */
function toPostfix(tokens: Token[]): Token[] {
  const out: Token[] = [];
  const waiting: Token[] = [];
  for (const token of tokens) {
    if (token.op === '') {
      out.push(token);
    } else if (token.op === '(') {
      waiting.push(token);
    } else if (token.op === ')') {
      let i = waiting.length - 1;
      while (i >= 0 && waiting[i].op !== '(') out.push(waiting[i--]);
      if (i < 0) throw new CalcError(WRONG);
      waiting.length = i;
    } else {
      const last = waiting[waiting.length - 1];
      if (last && last.op !== '(' && last.priority >= token.priority) {
        out.push(last);
        waiting[waiting.length - 1] = token;
        continue;
      }
      waiting.push(token);
    }
  }
  for (let i = waiting.length - 1; i >= 0; i--) {
    if (PRIORITY[waiting[i].op] === undefined) throw new CalcError(WRONG);
    out.push(waiting[i]);
  }
  return out;
}

function isZero(value: Num): boolean {
  if (typeof value === 'bigint') return value === 0n;
  if (typeof value === 'number') return value === 0;
  return value.isZero();
}

function apply(op: string, a: Num, b: Num): Num {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return BigInt.asIntN(64, a + b);
      case '-':
        return BigInt.asIntN(64, a - b);
      case '*':
        return BigInt.asIntN(64, a * b);
      default:
        return BigInt.asIntN(64, a / b);
    }
  }
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      default:
        return a / b;
    }
  }
  const x = a as Dec;
  const y = b as Dec;
  switch (op) {
    case '+':
      return x.plus(y);
    case '-':
      return x.minus(y);
    case '*':
      return x.times(y);
    default:
      return roundDecimal(x.div(y), 16);
  }
}

/** shopspring's Round: half away from zero, to `places` (negative: tens, hundreds …). */
function roundDecimal(value: Dec, places: number): Dec {
  const shift = new TemplateDecimal(10).pow(places);
  const scaled = value.times(shift);
  const rounded = scaled
    .abs()
    .plus(0.5)
    .floor()
    .times(scaled.isNegative() ? -1 : 1);
  return rounded.div(shift);
}

export function decimalText(value: Dec): string {
  return value.isZero() ? '0' : value.toFixed();
}

function evaluate(postfix: Token[], kind: Kind, precText: string): string {
  const stack: Num[] = [];
  for (const token of postfix) {
    if (token.op === '') {
      stack.push(token.value!);
      continue;
    }
    if (stack.length < 2) return WRONG;
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (token.op === '/' && isZero(b)) return DIV_ZERO;
    stack.push(apply(token.op, a, b));
  }
  if (stack.length !== 1) return WRONG;
  const result = stack[0];
  if (precText !== '') {
    const prec = Number.parseInt(precText, 10) || 0;
    if (kind !== 'int' && prec < 0) return 'precision is negative';
    if (kind === 'float') return decimalText(roundDecimal(new TemplateDecimal(result as number), prec));
    if (kind === 'money') return decimalText(roundDecimal(result as Dec, prec));
  }
  if (kind === 'float') return decimalText(new TemplateDecimal(goFixed(result as number, 6)));
  if (kind === 'money') return decimalText(result as Dec);
  return String(result);
}

export function calculate(exp: string, type: string, prec: string): string {
  let kind: Kind = 'int';
  if (type === 'float' || (type === '' && exp.includes('.'))) kind = 'float';
  else if (type === 'money') kind = 'money';
  try {
    return evaluate(toPostfix(tokenize(exp, kind)), kind, prec);
  } catch (error) {
    if (error instanceof CalcError) return error.message;
    throw error;
  }
}

import { TemplateDecimal } from '../calculate';
import type { Call } from '../call';
import { appendNode, setAttr } from './nodes';

function decimalOf(text: string): InstanceType<typeof TemplateDecimal> {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
    ? new TemplateDecimal(text)
    : new TemplateDecimal(0);
}

const COMPARISONS = ['==', '!=', '<=', '>=', '<', '>'];

/** If/ElseIf/And/Or conditions: calls rendered first, then the first operator found splits the text. */
export async function ifValue(c: Call, condition: string): Promise<boolean> {
  const r = c.r;
  const value = await r.parseArg(condition);
  const separator = value.includes(';base64') ? undefined : COMPARISONS.find((op) => value.includes(op));
  if (!separator) {
    const text = r.macro(value);
    return text.length > 0 && text !== '0' && text !== 'false';
  }
  const at = value.indexOf(separator);
  const unquote = (text: string): string => r.macro(text.trim().replace(/^"+|"+$/g, '')).trim();
  const left = unquote(value.slice(0, at));
  const right = unquote(value.slice(at + separator.length));
  switch (separator) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    default: {
      const cmp = decimalOf(left).comparedTo(decimalOf(right));
      if (separator === '>') return cmp > 0;
      if (separator === '<=') return cmp <= 0;
      if (separator === '<') return cmp < 0;
      return cmp >= 0;
    }
  }
}

export async function ifTag(c: Call): Promise<string> {
  const condition = await ifValue(c, c.pars.Condition);
  if (condition) {
    await c.r.process(c.pars.Body, c.node);
    for (const child of c.node.children ?? []) appendNode(c.owner, child);
    return '';
  }
  for (const tail of c.tails ?? []) {
    await c.r.callFunc(tail.spec, c.owner, tail.params);
    if (c.r.getVar('_cond') === '1') {
      c.r.setVar('_cond', '0');
      break;
    }
  }
  return '';
}

export async function ifFull(c: Call): Promise<string> {
  setAttr(c, 'Condition');
  appendNode(c.owner, c.node);
  for (const tail of c.tails ?? []) await c.r.callFunc(tail.spec, c.node, tail.params);
  return '';
}

export async function elseIfTag(c: Call): Promise<string> {
  if (await ifValue(c, c.pars.Condition)) {
    await c.r.process(c.pars.Body, c.node);
    for (const child of c.node.children ?? []) appendNode(c.owner, child);
    c.r.setVar('_cond', '1');
  }
  return '';
}

export function elseIfFull(c: Call): string {
  setAttr(c, 'Condition');
  (c.owner.tail ??= []).push(c.node);
  return '';
}

export function elseTag(c: Call): string {
  for (const child of c.node.children ?? []) appendNode(c.owner, child);
  return '';
}

export function elseFull(c: Call): string {
  (c.owner.tail ??= []).push(c.node);
  return '';
}

export async function andOr(c: Call, wanted: boolean): Promise<string> {
  const count = Object.keys(c.pars).length;
  for (let i = 0; i < count; i++) {
    if ((await ifValue(c, c.pars[String(i)] ?? '')) === wanted) return wanted ? '1' : '0';
  }
  return wanted ? '0' : '1';
}

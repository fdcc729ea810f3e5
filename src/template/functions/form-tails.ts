import type { Call } from '../call';
import { type AttrValue, dict } from '../types';
import { attrText, setAllAttr } from './nodes';

export async function showHide(c: Call, action: 'show' | 'hide'): Promise<string> {
  await setAllAttr(c);
  const condition = attrText(c, 'condition');
  if (condition === undefined) return '';
  const values = dict<AttrValue>();
  for (const item of condition.split(',')) {
    const pair = item.trim();
    const eq = pair.indexOf('=');
    if (eq < 0) values[pair.trim()] = '';
    else values[pair.slice(0, eq).trim()] = c.r.macro(pair.slice(eq + 1).trim());
  }
  ((c.owner.attr[action] ??= []) as AttrValue[]).push(values);
  return '';
}

export async function validateTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.owner.attr.validate = c.node.attr;
  return '';
}

import type { Call } from '../call';
import { type AttrValue, dict } from '../types';
import { goJsonSyntaxError } from '../values';
import { defaultTag, setAllAttr } from './nodes';
import { numberOf } from './numbers';

export async function buttonTag(c: Call): Promise<string> {
  await defaultTag(c);
  await c.r.runTails(c);
  const attr = c.node.attr;
  const names = attr.composites as string[] | undefined;
  const inputs = attr.compositedata as string[] | undefined;
  delete attr.composites;
  delete attr.compositedata;
  if (!names || !inputs) return '';
  const composites: AttrValue[] = [];
  for (let i = 0; i < names.length; i++) {
    let data: AttrValue | undefined;
    if (inputs[i]) {
      const fault = goJsonSyntaxError(inputs[i]);
      if (fault) return fault;
      // A JSON null is Go's nil interface, which omitempty leaves out.
      data = fromJson(JSON.parse(inputs[i])) ?? undefined;
    }
    composites.push(
      new Map<string, AttrValue | undefined>([
        ['name', names[i]],
        ['data', data],
      ]),
    );
  }
  attr.composite = composites;
  return '';
}

/** Decoded JSON as attribute values: objects are Go maps (sorted when written), numbers floats. */
function fromJson(value: unknown): AttrValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value as unknown as AttrValue;
  if (Array.isArray(value)) return value.map(fromJson);
  const out = dict<AttrValue>();
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) out[key] = fromJson(item);
  return out;
}

export async function actionTag(c: Call): Promise<string> {
  await setAllAttr(c);
  if (!c.pars.Name) return '';
  let params: Record<string, AttrValue> | undefined;
  const list = c.node.attr.params;
  if (list && typeof list === 'object' && !Array.isArray(list) && !(list instanceof Map)) {
    params = dict();
    for (const [key, item] of Object.entries(list)) {
      const text = (item as Record<string, AttrValue>).text;
      params[key] = c.r.macro(typeof text === 'string' ? text : '<nil>');
    }
  }
  const actions = (c.owner.attr.action ??= []) as AttrValue[];
  actions.push(
    new Map<string, AttrValue | undefined>([
      ['name', c.r.macro(c.pars.Name)],
      ['params', params],
    ]),
  );
  return '';
}

export async function alertTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.owner.attr.alert = c.node.attr;
  return '';
}

export async function popupTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const width = numberOf(c.pars.Width);
  if (width >= 1 && width <= 100) c.owner.attr.popup = c.node.attr;
  return '';
}

export async function compositeTag(c: Call): Promise<string> {
  await setAllAttr(c);
  if (!c.pars.Name) return '';
  ((c.owner.attr.composites ??= []) as string[]).push(c.r.macro(c.pars.Name));
  ((c.owner.attr.compositedata ??= []) as string[]).push(c.r.macro(c.pars.Data));
  return '';
}

export async function errorRedirectTag(c: Call): Promise<string> {
  await setAllAttr(c);
  if (!c.pars.ErrorID) return '';
  const redirects = (c.owner.attr.errredirect ??= dict<AttrValue>()) as Record<string, AttrValue>;
  redirects[c.pars.ErrorID] = c.node.attr;
  return '';
}

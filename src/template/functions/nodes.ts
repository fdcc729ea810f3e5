import type { Call, DataSource } from '../call';
import type { TemplateNode } from '../types';
import { parseParamList } from '../values';

/**
 * Every non-empty parameter becomes a lower-cased attribute (`Body` never; `Data` only in source mode). An `@Name`
 * parameter renders the calls in the attribute `name`; only then is there something to wait for.
 */
const lowerCased = new Map<string, string>();

/** Parameter names are few and repeat on every page: each is lower-cased once. */
function lowerCase(name: string): string {
  let lower = lowerCased.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerCased.size < 10_000) lowerCased.set(name, lower);
  }
  return lower;
}

export function setAllAttr(c: Call): Promise<void> | undefined {
  const attr = c.node.attr;
  const full = c.r.full;
  let atParams = false;
  for (const key of Object.keys(c.pars)) {
    const value = c.pars[key];
    if (key === 'Params' || key === 'PageParams') {
      const map = parseParamList(value);
      if (Object.keys(map).length > 0) attr[key.toLowerCase()] = map;
    } else if (key !== 'Body' && (key !== 'Data' || full) && value.length > 0) {
      c.r.grow(value.length);
      attr[lowerCase(key)] = value;
    }
    if (key.startsWith('@')) atParams = true;
  }
  return atParams ? renderAtParams(c) : undefined;
}

async function renderAtParams(c: Call): Promise<void> {
  const attr = c.node.attr;
  for (const key of Object.keys(c.pars)) {
    if (!key.startsWith('@')) continue;
    const name = key.slice(1).toLowerCase();
    const value = attr[name];
    if (typeof value === 'string') attr[name] = await c.r.processToText(value);
  }
}

export function setAttr(c: Call, name: string): void {
  if (c.pars[name]) c.node.attr[name.toLowerCase()] = c.pars[name];
}

export function attrText(c: Call, name: string): string | undefined {
  const value = c.node.attr[name];
  return typeof value === 'string' ? value : undefined;
}

export function appendNode(owner: TemplateNode, node: TemplateNode): void {
  (owner.children ??= []).push(node);
}

export function defaultTag(c: Call): string | Promise<string> {
  const pending = setAllAttr(c);
  if (pending) {
    return pending.then(() => {
      appendNode(c.owner, c.node);
      return '';
    });
  }
  appendNode(c.owner, c.node);
  return '';
}

export function defaultTailTag(c: Call): string | Promise<string> {
  const added = defaultTag(c);
  if (!c.tails?.length) return added;
  return (async () => {
    await added;
    await c.r.runTails(c);
    return '';
  })();
}

export async function defaultTailFull(c: Call): Promise<string> {
  await setAllAttr(c);
  (c.owner.tail ??= []).push(c.node);
  return '';
}

/** Tails that only set attributes of their owner (Style, Where, Limit, …). */
export async function tailTag(c: Call): Promise<string> {
  await setAllAttr(c);
  for (const key of Object.keys(c.node.attr)) {
    const value = c.node.attr[key];
    c.owner.attr[key] = typeof value === 'string' ? c.r.macro(value) : value;
  }
  return '';
}

function registerSource(c: Call, source: DataSource): void {
  const name = attrText(c, 'source');
  if (name !== undefined) c.r.sources.set(name, source);
}

export function setTable(c: Call, columns: string[], types: string[] | undefined, data: string[][]): void {
  c.node.attr.columns = columns;
  if (types) c.node.attr.types = types;
  c.node.attr.data = data;
  registerSource(c, { columns, data });
}

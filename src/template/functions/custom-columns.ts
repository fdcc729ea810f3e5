import { treeToJson } from '../json';
import type { VarMap } from '../macro';
import type { Call } from '../call';
import { attrText, setAllAttr } from './nodes';

export async function customTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const column = attrText(c, 'column');
  if (!c.pars.Column || !c.pars.Body || column === undefined) return '';
  ((c.owner.attr.customs ??= []) as string[]).push(column);
  ((c.owner.attr.custombody ??= []) as string[]).push(c.pars.Body);
  return '';
}

export async function customFull(c: Call): Promise<string> {
  await setAllAttr(c);
  await c.r.process(c.pars.Body, c.node);
  (c.owner.tail ??= []).push(c.node);
  return '';
}

/** Renders a custom column's body for one row (the row's columns as variables) into a JSON cell. */
export async function customCell(c: Call, body: string, row: Record<string, string>): Promise<string> {
  const r = c.r;
  const root = r.newNode('');
  for (const key of Object.keys(row)) r.vars.set(key, { value: row[key], asIs: false });
  await r.process(body, root);
  for (const key of Object.keys(row)) r.vars.delete(key);
  const json = root.children && root.children.length > 0 ? treeToJson(root.children) : 'null';
  const rowVars: VarMap = new Map(Object.entries(row).map(([key, value]) => [key, { value, asIs: false }]));
  return r.macroReplace(json, rowVars);
}

export function takeCustoms(c: Call): { names: string[]; bodies: string[] } {
  const names = (c.node.attr.customs as string[] | undefined) ?? [];
  const bodies = (c.node.attr.custombody as string[] | undefined) ?? [];
  delete c.node.attr.customs;
  delete c.node.attr.custombody;
  return { names, bodies };
}

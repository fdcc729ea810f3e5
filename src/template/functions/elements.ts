import type { Call } from '../call';
import { type AttrValue, dict } from '../types';
import { appendNode, defaultTag, defaultTailTag, setAllAttr } from './nodes';

export async function tableTag(c: Call): Promise<string> {
  await defaultTag(c);
  await c.r.runTails(c);
  if (c.pars.Columns) {
    const columns: AttrValue[] = c.pars.Columns.split(',').map((raw) => {
      const item = c.r.macro(raw.trim());
      const eq = item.indexOf('=');
      return eq < 0
        ? { Title: item, Name: item }
        : { Title: item.slice(0, eq).trim(), Name: item.slice(eq + 1).trim() };
    });
    if (columns.length > 0) c.node.attr.columns = columns;
  }
  return '';
}

export async function chartTag(c: Call): Promise<string> {
  await defaultTag(c);
  await c.r.runTails(c);
  if (c.pars.Colors) {
    c.node.attr.colors = c.r
      .macro(c.pars.Colors)
      .split(',')
      .map((color) => color.trim());
  }
  return '';
}

export async function imageTag(c: Call): Promise<string> {
  const pars = Object.assign(dict<string>(), c.pars, { Src: await c.r.parseArg(c.pars.Src) });
  return defaultTailTag({ ...c, pars });
}

export async function menuGroupTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.node.attr.name = c.rawPars?.Title ?? c.pars.Title;
  appendNode(c.owner, c.node);
  return '';
}

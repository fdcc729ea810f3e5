import type { Call } from '../call';
import { dict } from '../types';
import { appendNode, attrText, setAllAttr } from './nodes';
import { numberOf, strToInt } from './numbers';
import { isShown, shown } from './port-errors';

async function paramToSource(c: Call, value: string): Promise<string> {
  const r = c.r;
  const data: string[][] = [];
  const items = value.split(',');
  for (let i = 0; i < items.length; i++) data.push([String(i + 1), (await r.langText(items[i])).text]);
  const node = r.newNode('data');
  const columns = ['id', 'name'];
  node.attr = dict();
  node.attr.columns = columns;
  node.attr.types = ['text', 'text'];
  node.attr.data = data;
  node.attr.source = c.pars.Source;
  appendNode(c.owner, node);
  r.sources.set(c.pars.Source, { columns, data });
  return '';
}

async function paramToIndex(c: Call, value: string): Promise<string> {
  const index = numberOf(c.r.macro(c.pars.Index));
  const items = value.split(',');
  if (index > 0 && items.length >= index) return (await c.r.langText(items[index - 1])).text;
  return '';
}

async function paramResult(c: Call, value: string | undefined | { message: string }): Promise<string> {
  if (isShown(value)) return value.message;
  const text = value ?? '';
  if (c.pars.Source) return paramToSource(c, text);
  if (c.pars.Index) return paramToIndex(c, text);
  return text;
}

function ecosystemOf(c: Call): string {
  return c.pars.Ecosystem ? c.r.macro(c.pars.Ecosystem) : c.r.getVar('ecosystem_id');
}

export async function ecosysParamTag(c: Call): Promise<string> {
  if (!c.pars.Name) return '';
  const ecosystem = ecosystemOf(c);
  const name = c.r.macro(c.pars.Name);
  return paramResult(c, await shown(() => c.r.port.ecosystemParam(ecosystem, name)));
}

export async function appParamTag(c: Call): Promise<string> {
  if (!c.pars.Name || !c.pars.App) return '';
  const ecosystem = ecosystemOf(c);
  const app = strToInt(c.r.macro(c.pars.App)).toString();
  const name = c.r.macro(c.pars.Name);
  return paramResult(c, await shown(() => c.r.port.appParam(ecosystem, app, name)));
}

export async function sysParamTag(c: Call): Promise<string> {
  if (!c.pars.Name) return '';
  const value = await shown(() => c.r.port.systemParam(c.r.macro(c.pars.Name)));
  return isShown(value) ? value.message : (value ?? '');
}

export async function langResTag(c: Call): Promise<string> {
  return (await c.r.langText(c.pars.Name, c.pars.Lang)).text;
}

const INCLUDE_DEPTH = 5;

export async function includeTag(c: Call): Promise<string> {
  const r = c.r;
  const depth = r.getVar('_include');
  if (depth.length >= INCLUDE_DEPTH) return '';
  let name = r.macro(c.pars.Name);
  let ecosystem = r.getVar('ecosystem_id');
  const match = /^@(\d+)(.*)$/.exec(name);
  if (match && BigInt(match[1]) !== 0n) {
    ecosystem = BigInt(match[1]).toString();
    name = match[2];
  }
  const found = await shown(() => r.port.snippet(ecosystem, name));
  if (isShown(found)) return found.message;
  // "Inlcude" is the reference's spelling of this message.
  if (found === undefined) return `Inlcude ${c.pars.Name} has not been found`;
  if (found) {
    const root = r.newNode('');
    r.setVar('_include', depth + '1');
    await r.process(found, root);
    r.setVar('_include', depth);
    for (const child of root.children ?? []) appendNode(c.owner, child);
  }
  return '';
}

export async function binaryTag(c: Call): Promise<string> {
  const r = c.r;
  await r.runTails(c);
  const ecosystem = attrText(c, 'ecosystem') ?? r.getVar('ecosystem_id');
  const id = attrText(c, 'id');
  const query =
    id !== undefined
      ? { ecosystem, id: strToInt(r.macro(id)).toString() }
      : {
          ecosystem,
          appId: strToInt(r.macro(c.pars.AppID)).toString(),
          account: r.macro(c.pars.Account),
          name: r.macro(c.pars.Name),
        };
  const link = await shown(() => r.port.binaryUrl(query));
  return isShown(link) ? link.message : (link ?? '');
}

export async function columnTypeTag(c: Call): Promise<string> {
  if (!c.pars.Table || !c.pars.Column) return '';
  const r = c.r;
  const result = await shown(() =>
    r.port.columnType(r.getVar('ecosystem_id'), r.macro(c.pars.Table), r.macro(c.pars.Column)),
  );
  return isShown(result) ? result.message : result;
}

export async function txInfoTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const hash = attrText(c, 'hash');
  if (hash === undefined) return '';
  const result = await shown(() => c.r.port.txInfo(hash));
  return isShown(result) ? result.message : result;
}

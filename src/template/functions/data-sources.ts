import type { Call } from '../call';
import { dict } from '../types';
import { CsvError, goQuoteValue, goSprint, readCsv, splitArray } from '../values';
import { customCell, takeCustoms } from './custom-columns';
import { appendNode, attrText, setAllAttr, setTable } from './nodes';
import { strToInt } from './numbers';
import { isShown, shown } from './port-errors';

export async function dataTag(c: Call): Promise<string> {
  await setAllAttr(c);
  await c.r.runTails(c);
  const columns = c.pars.Columns.split(',');
  const types = columns.map(() => 'text');
  let records: string[][] = [];
  try {
    records = readCsv(c.pars.Data);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    c.node.attr.error = error.message;
  }
  const customs = takeCustoms(c);
  const declared = columns.length;
  if (records.length > 0) {
    columns.push(...customs.names);
    types.push(...customs.names.map(() => 'tags'));
  }
  const data: string[][] = [];
  for (const record of records) {
    const row: string[] = [];
    const values = dict<string>();
    for (let i = 0; i < declared; i++) {
      values[columns[i]] = row[i] = (record[i] ?? '').trim();
    }
    for (let j = 0; j < customs.names.length; j++) row.push(await customCell(c, customs.bodies[j], values));
    data.push(row);
  }
  await setAllAttr(c);
  setTable(c, columns, types, data);
  appendNode(c.owner, c.node);
  return '';
}

export async function forListTag(c: Call): Promise<string> {
  const r = c.r;
  await setAllAttr(c);
  const name = c.pars.Source ? (attrText(c, 'source') ?? '') : '';
  const indexName = c.pars.Index ? (attrText(c, 'index') ?? '') : name + '_index';
  const source = name ? r.sources.get(name) : undefined;
  if (!source) return '';
  const root = r.newNode('');
  const before = new Set(r.vars.keys());
  for (let index = 0; index < source.data.length; index++) {
    const row = source.data[index];
    const values = new Map<string, string>([[indexName, String(index + 1)]]);
    source.columns.forEach((column, i) => values.set(column, row[i] ?? ''));
    if (index > 0) for (const key of [...r.vars.keys()]) if (!before.has(key)) r.vars.delete(key);
    for (const [key, value] of values) r.setVar(key, value);
    await r.process(c.pars.Data, root);
    for (const child of root.children ?? [])
      if (child.tag === 'text') child.text = r.macroReplace(child.text ?? '');
    for (const key of values.keys()) r.vars.delete(key);
  }
  if (root.children) c.node.children = root.children;
  appendNode(c.owner, c.node);
  return '';
}

function byFirst(a: string[], b: string[]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

export async function jsonToSourceTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const prefixText = attrText(c, 'prefix');
  const prefix = prefixText !== undefined ? prefixText + '_' : '';
  const data: string[][] = [];
  const text = c.r.macro(c.pars.Data);
  let decoded: unknown;
  if (text) {
    try {
      decoded = JSON.parse(text);
    } catch {
      decoded = undefined;
    }
  }
  if (decoded && typeof decoded === 'object' && !Array.isArray(decoded)) {
    for (const [key, raw] of Object.entries(decoded as Record<string, unknown>)) {
      const item = raw ?? '';
      let value: string;
      if (item && typeof item === 'object' && !Array.isArray(item)) {
        const entries = Object.keys(item)
          .sort()
          .map((k) => `${goQuoteValue(k)}:${goQuoteValue((item as Record<string, unknown>)[k])}`);
        value = '{' + entries.join(',\r\n') + '}';
      } else {
        value = goSprint(item);
      }
      data.push([key, value]);
    }
  }
  data.sort(byFirst);
  await setAllAttr(c);
  setTable(c, [prefix + 'key', prefix + 'value'], ['text', 'text'], data);
  appendNode(c.owner, c.node);
  return '';
}

export async function arrayToSourceTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const prefixText = attrText(c, 'prefix');
  const prefix = prefixText !== undefined ? prefixText + '_' : '';
  const data = splitArray(c.r.macro(c.pars.Data)).map((item, index) => [String(index), item]);
  await setAllAttr(c);
  setTable(c, [prefix + 'key', prefix + 'value'], ['text', 'text'], data);
  appendNode(c.owner, c.node);
  return '';
}

export async function rangeTag(c: Call): Promise<string> {
  const r = c.r;
  await setAllAttr(c);
  const from = strToInt(r.macro(c.pars.From));
  const to = strToInt(r.macro(c.pars.To));
  const step = c.pars.Step ? strToInt(r.macro(c.pars.Step)) : 1n;
  const data: string[][] = [];
  if (step > 0n && from < to) {
    for (let i = from; i < to; i += step) {
      data.push([i.toString()]);
      r.grow(8);
    }
  } else if (step < 0n && from > to) {
    for (let i = from; i > to; i += step) {
      data.push([i.toString()]);
      r.grow(8);
    }
  }
  delete c.node.attr.from;
  delete c.node.attr.to;
  delete c.node.attr.step;
  setTable(c, ['id'], undefined, data);
  appendNode(c.owner, c.node);
  return '';
}

export async function getHistoryTag(c: Call): Promise<string> {
  const r = c.r;
  await setAllAttr(c);
  const rollbackId = c.pars.RollbackId ? strToInt(r.macro(c.pars.RollbackId)).toString() : '0';
  if (!c.pars.Name) return '';
  const found = await shown(() =>
    r.port.history({
      ecosystem: r.getVar('ecosystem_id'),
      table: r.macro(c.pars.Name),
      id: strToInt(r.macro(c.pars.Id)).toString(),
      rollbackId,
    }),
  );
  if (isShown(found)) return found.message;
  const data = found.rows.map((row) => found.columns.map((column) => row[column] ?? ''));
  setTable(
    c,
    [...found.columns],
    found.columns.map(() => 'text'),
    data,
  );
  appendNode(c.owner, c.node);
  return '';
}

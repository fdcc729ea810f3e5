import { valueToJson } from '../json';
import type { Call } from '../call';
import { type Cell, dict, type WhereMap, type WhereValue } from '../types';
import { ObjectSyntaxError, parseObject } from '../values';
import { customCell, takeCustoms } from './custom-columns';
import { appendNode, attrText, setAllAttr, setTable } from './nodes';
import { numberOf, strToInt } from './numbers';
import { isShown, shown } from './port-errors';

/** The reference's DBFind row limit. */
const DBFIND_MAX = 10_000;
const DBFIND_DEFAULT = 25;

const WHERE_FORMAT = 'Where has wrong format';

function linkJson(table: string, id: string, column: string, cell: { title: string; hash: string }): string {
  const link = cell.hash ? `/data/${table}/${id}/${column}/${cell.hash}` : '';
  return valueToJson({ title: cell.title, link });
}

function cellText(cell: Cell): string {
  if (cell === null) return '';
  return typeof cell === 'string' ? cell : cell.title;
}

function whereFrom(text: string): WhereMap | undefined | { message: string } {
  if (!text.startsWith('{')) return text.length > 0 ? { message: WHERE_FORMAT } : undefined;
  let parsed: WhereValue;
  try {
    parsed = parseObject(text);
  } catch (error) {
    if (error instanceof ObjectSyntaxError) return { message: error.message };
    throw error;
  }
  if (parsed === '') return undefined;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return { message: WHERE_FORMAT };
  return parsed;
}

export async function dbFindTag(c: Call): Promise<string> {
  const r = c.r;
  if (!c.pars.Name) return '';
  await r.runTails(c);
  const attr = c.node.attr;

  let columns: string[] = [];
  const columnText = attrText(c, 'columns');
  if (columnText !== undefined) {
    if (columnText.startsWith('[')) {
      try {
        const parsed = parseObject(columnText);
        columns = Array.isArray(parsed)
          ? parsed.filter((item): item is string => typeof item === 'string')
          : [];
      } catch (error) {
        if (error instanceof ObjectSyntaxError) return error.message;
        throw error;
      }
    } else {
      columns = columnText.split(',');
    }
  }
  // Lower-cased as the reference reads them, so that `ID` counts as the id column named.
  columns = columns.map((column) => column.trim().toLowerCase()).filter((column) => column !== '');
  if (columns.length === 0) columns = ['*'];
  if (!columns.includes('*') && !columns.includes('id')) columns.push('id');

  let where: WhereMap | undefined;
  const whereText = attrText(c, 'where');
  if (whereText !== undefined) {
    const parsed = whereFrom(r.macro(whereText));
    if (isShown(parsed)) return parsed.message;
    where = parsed;
  }
  const whereId = attrText(c, 'whereid');
  if (whereId !== undefined) where = { id: strToInt(r.macro(whereId)).toString() };

  let limit = DBFIND_DEFAULT;
  const limitText = attrText(c, 'limit');
  if (limitText !== undefined) limit = numberOf(limitText);
  // The reference reads 0 (or a bad number) as "no limit"; here the most is DBFIND_MAX rows.
  if (limit > DBFIND_MAX || limit <= 0) limit = DBFIND_MAX;
  const offset = Math.max(0, numberOf(attrText(c, 'offset') ?? ''));
  const prefix = attrText(c, 'prefix');
  if (prefix !== undefined) limit = 1;
  const cutoff = attrText(c, 'cutoff')?.split(',') ?? [];

  let order: WhereValue | undefined;
  const orderText = attrText(c, 'order');
  if (orderText !== undefined) {
    const text = r.macro(orderText);
    try {
      order = text.startsWith('[') || text.startsWith('{') ? parseObject(text) : text;
    } catch (error) {
      if (error instanceof ObjectSyntaxError) return error.message;
      throw error;
    }
  }
  const countVar = attrText(c, 'countvar');
  const found = await shown(() =>
    r.port.findRows({
      ecosystem: r.getVar('ecosystem_id'),
      table: r.macro(c.pars.Name).replace(/^"+|"+$/g, ''),
      columns,
      where,
      order,
      limit,
      offset,
      count: countVar !== undefined,
      cutoff,
    }),
  );
  if (isShown(found)) return found.message;
  if (countVar !== undefined) {
    const count = found.count ?? '0';
    attr.count = count;
    r.setVar(countVar, count);
    delete attr.countvar;
  }

  const names = [...found.columns];
  const customs = takeCustoms(c);
  let types: string[] = [];
  const declared = names.length;
  if (found.rows.length > 0) {
    types = found.types.slice(0, declared);
    while (types.length < declared) types.push('text');
    names.push(...customs.names);
    types.push(...customs.names.map(() => 'tags'));
  }
  const idColumn = found.columns.indexOf('id');
  const data: string[][] = [];
  for (const cells of found.rows) {
    const id = idColumn >= 0 ? cellText(cells[idColumn]) : '';
    const item = dict<string>();
    const row: string[] = [];
    for (let i = 0; i < declared; i++) {
      const cell = cells[i] ?? null;
      const column = names[i];
      if (cell !== null && typeof cell === 'object') {
        const link = cell.hash ? `/data/${found.table}/${id}/${column}/${cell.hash}` : '';
        row.push(linkJson(found.table, id, column, cell));
        item[column] = found.types[i] === 'blob' ? link : valueToJson([cell.title, cell.hash]);
      } else {
        row.push(cell ?? '');
        item[column] = cell ?? '';
      }
      r.grow(row[i].length);
    }
    for (let j = 0; j < customs.names.length; j++) row.push(await customCell(c, customs.bodies[j], item));
    if (prefix !== undefined) {
      names.forEach((column, i) => r.setVar(prefix + '_' + column.replace(/\./g, '_'), row[i]));
    }
    data.push(row);
  }
  await setAllAttr(c);
  delete attr.prefix;
  setTable(c, names, types, data);
  appendNode(c.owner, c.node);
  return '';
}

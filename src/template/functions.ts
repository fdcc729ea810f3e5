import { addressToId, keyIdToAddress } from '../crypto/address';
import { goTimeFormat, utcMillis, wallClock } from '../vm/builtins/datetime';
import { calculate, decimalText, TemplateDecimal } from './calculate';
import { treeToJson, valueToJson } from './json';
import type { VarMap } from './macro';
import type { Call, DataSource, Handler } from './renderer';
import {
  dict,
  PageDataError,
  type AttrValue,
  type Cell,
  type TemplateNode,
  type WhereMap,
  type WhereValue,
} from './types';
import {
  CsvError,
  goJsonSyntaxError,
  goQuoteValue,
  goSprint,
  ObjectSyntaxError,
  parseObject,
  parseParamList,
  readCsv,
  splitArray,
} from './values';

/** The reference's DBFind row limit. */
const DBFIND_MAX = 10_000;
const DBFIND_DEFAULT = 25;
/** Longest `Money` amount, in characters (the reference's consts.MoneyLength). */
const MONEY_LENGTH = 30;
/** `Money` digits when the ecosystem has no `money_digit` (the reference's consts.MoneyDigits). */
const DEFAULT_MONEY_DIGITS = 12;
const WHERE_FORMAT = 'Where has wrong format';

/** Go's converter.StrToInt64/StrToInt: a strict decimal, anything else 0. */
export function strToInt(text: string): bigint {
  const trimmed = text;
  if (!/^[+-]?\d+$/.test(trimmed)) return 0n;
  const value = BigInt(trimmed);
  return value > 0x7fffffffffffffffn || value < -0x8000000000000000n ? 0n : value;
}

function numberOf(text: string): number {
  return Number(strToInt(text));
}

/** Turns a {@link PageDataError} from the port into the text the page shows. */
async function shown<T>(work: () => Promise<T> | T): Promise<T | { message: string }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PageDataError) return { message: error.message };
    throw error;
  }
}

function isShown(value: unknown): value is { message: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'message' in value;
}

// ---- attributes ----------------------------------------------------------------------------------------------

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

function setAllAttr(c: Call): Promise<void> | undefined {
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

function setAttr(c: Call, name: string): void {
  if (c.pars[name]) c.node.attr[name.toLowerCase()] = c.pars[name];
}

function attrText(c: Call, name: string): string | undefined {
  const value = c.node.attr[name];
  return typeof value === 'string' ? value : undefined;
}

function appendNode(owner: TemplateNode, node: TemplateNode): void {
  (owner.children ??= []).push(node);
}

function defaultTag(c: Call): string | Promise<string> {
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

function defaultTailTag(c: Call): string | Promise<string> {
  const added = defaultTag(c);
  if (!c.tails?.length) return added;
  return (async () => {
    await added;
    await c.r.runTails(c);
    return '';
  })();
}

async function defaultTailFull(c: Call): Promise<string> {
  await setAllAttr(c);
  (c.owner.tail ??= []).push(c.node);
  return '';
}

/** Tails that only set attributes of their owner (Style, Where, Limit, …). */
async function tailTag(c: Call): Promise<string> {
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

function setTable(c: Call, columns: string[], types: string[] | undefined, data: string[][]): void {
  c.node.attr.columns = columns;
  if (types) c.node.attr.types = types;
  c.node.attr.data = data;
  registerSource(c, { columns, data });
}

// ---- conditions ----------------------------------------------------------------------------------------------

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

async function ifTag(c: Call): Promise<string> {
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

async function ifFull(c: Call): Promise<string> {
  setAttr(c, 'Condition');
  appendNode(c.owner, c.node);
  for (const tail of c.tails ?? []) await c.r.callFunc(tail.spec, c.node, tail.params);
  return '';
}

async function elseIfTag(c: Call): Promise<string> {
  if (await ifValue(c, c.pars.Condition)) {
    await c.r.process(c.pars.Body, c.node);
    for (const child of c.node.children ?? []) appendNode(c.owner, child);
    c.r.setVar('_cond', '1');
  }
  return '';
}

function elseIfFull(c: Call): string {
  setAttr(c, 'Condition');
  (c.owner.tail ??= []).push(c.node);
  return '';
}

function elseTag(c: Call): string {
  for (const child of c.node.children ?? []) appendNode(c.owner, child);
  return '';
}

function elseFull(c: Call): string {
  (c.owner.tail ??= []).push(c.node);
  return '';
}

async function andOr(c: Call, wanted: boolean): Promise<string> {
  const count = Object.keys(c.pars).length;
  for (let i = 0; i < count; i++) {
    if ((await ifValue(c, c.pars[String(i)] ?? '')) === wanted) return wanted ? '1' : '0';
  }
  return wanted ? '0' : '1';
}

// ---- variables -----------------------------------------------------------------------------------------------

async function setVarTag(c: Call): Promise<string> {
  const name = c.pars.Name;
  if (name) {
    let value = c.pars.Value;
    if (/[({]/.test(value)) value = await c.r.processToText(value);
    c.r.setVar(name, c.r.macroReplace(value));
  }
  return '';
}

function varAsIsTag(c: Call): string {
  const name = c.pars.Name;
  if (name) {
    let value = c.pars.Value;
    if (value.startsWith('#')) {
      const found = c.r.vars.get(value.replace(/^#+|#+$/g, ''));
      if (found) value = found.value;
    } else {
      const found = c.r.vars.get(value);
      if (found) value = found.value;
    }
    c.r.setVar(name, value, true);
  }
  return '';
}

function getVarTag(c: Call): string {
  return c.pars.Name ? c.r.macro(c.r.getVar(c.pars.Name)) : '';
}

// ---- buttons and their tails ---------------------------------------------------------------------------------

async function buttonTag(c: Call): Promise<string> {
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

async function actionTag(c: Call): Promise<string> {
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

async function alertTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.owner.attr.alert = c.node.attr;
  return '';
}

async function popupTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const width = numberOf(c.pars.Width);
  if (width >= 1 && width <= 100) c.owner.attr.popup = c.node.attr;
  return '';
}

async function compositeTag(c: Call): Promise<string> {
  await setAllAttr(c);
  if (!c.pars.Name) return '';
  ((c.owner.attr.composites ??= []) as string[]).push(c.r.macro(c.pars.Name));
  ((c.owner.attr.compositedata ??= []) as string[]).push(c.r.macro(c.pars.Data));
  return '';
}

async function errorRedirectTag(c: Call): Promise<string> {
  await setAllAttr(c);
  if (!c.pars.ErrorID) return '';
  const redirects = (c.owner.attr.errredirect ??= dict<AttrValue>()) as Record<string, AttrValue>;
  redirects[c.pars.ErrorID] = c.node.attr;
  return '';
}

async function showHide(c: Call, action: 'show' | 'hide'): Promise<string> {
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

async function validateTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.owner.attr.validate = c.node.attr;
  return '';
}

async function customTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const column = attrText(c, 'column');
  if (!c.pars.Column || !c.pars.Body || column === undefined) return '';
  ((c.owner.attr.customs ??= []) as string[]).push(column);
  ((c.owner.attr.custombody ??= []) as string[]).push(c.pars.Body);
  return '';
}

async function customFull(c: Call): Promise<string> {
  await setAllAttr(c);
  await c.r.process(c.pars.Body, c.node);
  (c.owner.tail ??= []).push(c.node);
  return '';
}

// ---- data sources --------------------------------------------------------------------------------------------

/** Renders a custom column's body for one row (the row's columns as variables) into a JSON cell. */
async function customCell(c: Call, body: string, row: Record<string, string>): Promise<string> {
  const r = c.r;
  const root = r.newNode('');
  for (const key of Object.keys(row)) r.vars.set(key, { value: row[key], asIs: false });
  await r.process(body, root);
  for (const key of Object.keys(row)) r.vars.delete(key);
  const json = root.children && root.children.length > 0 ? treeToJson(root.children) : 'null';
  const rowVars: VarMap = new Map(Object.entries(row).map(([key, value]) => [key, { value, asIs: false }]));
  return r.macroReplace(json, rowVars);
}

function takeCustoms(c: Call): { names: string[]; bodies: string[] } {
  const names = (c.node.attr.customs as string[] | undefined) ?? [];
  const bodies = (c.node.attr.custombody as string[] | undefined) ?? [];
  delete c.node.attr.customs;
  delete c.node.attr.custombody;
  return { names, bodies };
}

async function dataTag(c: Call): Promise<string> {
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

async function dbFindTag(c: Call): Promise<string> {
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

async function forListTag(c: Call): Promise<string> {
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

async function jsonToSourceTag(c: Call): Promise<string> {
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

async function arrayToSourceTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const prefixText = attrText(c, 'prefix');
  const prefix = prefixText !== undefined ? prefixText + '_' : '';
  const data = splitArray(c.r.macro(c.pars.Data)).map((item, index) => [String(index), item]);
  await setAllAttr(c);
  setTable(c, [prefix + 'key', prefix + 'value'], ['text', 'text'], data);
  appendNode(c.owner, c.node);
  return '';
}

async function rangeTag(c: Call): Promise<string> {
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

async function getHistoryTag(c: Call): Promise<string> {
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

async function tableTag(c: Call): Promise<string> {
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

async function chartTag(c: Call): Promise<string> {
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

async function imageTag(c: Call): Promise<string> {
  const pars = Object.assign(dict<string>(), c.pars, { Src: await c.r.parseArg(c.pars.Src) });
  return defaultTailTag({ ...c, pars });
}

async function menuGroupTag(c: Call): Promise<string> {
  await setAllAttr(c);
  c.node.attr.name = c.rawPars?.Title ?? c.pars.Title;
  appendNode(c.owner, c.node);
  return '';
}

// ---- parameters, languages and other database reads ---------------------------------------------------------

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

async function ecosysParamTag(c: Call): Promise<string> {
  if (!c.pars.Name) return '';
  const ecosystem = ecosystemOf(c);
  const name = c.r.macro(c.pars.Name);
  return paramResult(c, await shown(() => c.r.port.ecosystemParam(ecosystem, name)));
}

async function appParamTag(c: Call): Promise<string> {
  if (!c.pars.Name || !c.pars.App) return '';
  const ecosystem = ecosystemOf(c);
  const app = strToInt(c.r.macro(c.pars.App)).toString();
  const name = c.r.macro(c.pars.Name);
  return paramResult(c, await shown(() => c.r.port.appParam(ecosystem, app, name)));
}

async function sysParamTag(c: Call): Promise<string> {
  if (!c.pars.Name) return '';
  const value = await shown(() => c.r.port.systemParam(c.r.macro(c.pars.Name)));
  return isShown(value) ? value.message : (value ?? '');
}

async function langResTag(c: Call): Promise<string> {
  return (await c.r.langText(c.pars.Name, c.pars.Lang)).text;
}

const INCLUDE_DEPTH = 5;

async function includeTag(c: Call): Promise<string> {
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

async function binaryTag(c: Call): Promise<string> {
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

async function columnTypeTag(c: Call): Promise<string> {
  if (!c.pars.Table || !c.pars.Column) return '';
  const r = c.r;
  const result = await shown(() =>
    r.port.columnType(r.getVar('ecosystem_id'), r.macro(c.pars.Table), r.macro(c.pars.Column)),
  );
  return isShown(result) ? result.message : result;
}

async function txInfoTag(c: Call): Promise<string> {
  await setAllAttr(c);
  const hash = attrText(c, 'hash');
  if (hash === undefined) return '';
  const result = await shown(() => c.r.port.txInfo(hash));
  return isShown(result) ? result.message : result;
}

// ---- text functions ------------------------------------------------------------------------------------------

function lowerTag(c: Call): string {
  return c.r.macro(c.pars.Text).toLowerCase();
}

async function moneyTag(c: Call): Promise<string> {
  const r = c.r;
  let amount = r.macro(c.pars.Exp);
  if (amount === 'NULL' || amount === '') amount = '0';
  if (amount.includes('.')) return 'wrong money';
  let digits: number;
  if (c.pars.Digit) {
    digits = numberOf(r.macro(c.pars.Digit));
  } else {
    const value = await shown(() => r.port.ecosystemParam(r.getVar('ecosystem_id'), 'money_digit'));
    digits = isShown(value) || value === undefined ? DEFAULT_MONEY_DIGITS : numberOf(value);
  }
  if (amount.length > MONEY_LENGTH) return 'invalid money value';
  if (digits === 0) return amount;
  if (!/^[+-]?\d+$/.test(amount)) return 'wrong money';
  return decimalText(new TemplateDecimal(amount).times(new TemplateDecimal(10).pow(-digits)));
}

function calculateTag(c: Call): string {
  return calculate(c.r.macro(c.pars.Exp), c.pars.Type, c.r.macro(c.pars.Prec));
}

function cmpTimeTag(c: Call): string {
  const prepare = (value: string): string => c.r.macro(value).replace(/T/g, ' ').slice(0, 19);
  const left = prepare(c.pars.Time1);
  const right = prepare(c.pars.Time2);
  return left === right ? '0' : left < right ? '-1' : '1';
}

const TIME_LAYOUT = '2006-01-02T15:04:05';
/** The layout's elements: a number of `width` digits (`min` for the hour, which may have one), or a literal. */
const TIME_ELEMENTS: Array<{ text: string; width?: number; min?: number; max?: number; range?: string }> = [
  { text: '2006', width: 4 },
  { text: '-' },
  { text: '01', width: 2, min: 1, max: 12, range: 'month' },
  { text: '-' },
  { text: '02', width: 2 },
  { text: 'T' },
  { text: '15', width: 2, max: 23, range: 'hour' },
  { text: ':' },
  { text: '04', width: 2, max: 59, range: 'minute' },
  { text: ':' },
  { text: '05', width: 2, max: 59, range: 'second' },
];

/** `2006-01-02T15:04:05` as Unix seconds (UTC), or the error text of Go's time.Parse. */
function parseIsoTime(text: string): bigint | string {
  const quoted = JSON.stringify(text);
  const numbers: number[] = [];
  let rest = text;
  for (const element of TIME_ELEMENTS) {
    const cannot = `parsing time ${quoted} as "${TIME_LAYOUT}": cannot parse ${JSON.stringify(rest)} as "${element.text}"`;
    if (element.width === undefined) {
      if (!rest.startsWith(element.text)) return cannot;
      rest = rest.slice(element.text.length);
      continue;
    }
    // Go reads the hour with one or two digits, every other field with exactly its width.
    const digits = /^\d+/.exec(rest)?.[0] ?? '';
    const width = element.text === '15' && digits.length === 1 ? 1 : element.width;
    if (digits.length < width) return cannot;
    const value = Number(rest.slice(0, width));
    rest = rest.slice(width);
    if (element.range && (value < (element.min ?? 0) || value > element.max!)) {
      return `parsing time ${quoted}: ${element.range} out of range`;
    }
    numbers.push(value);
  }
  if (rest) return `parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`;
  const [year, month, day, hour, minute, second] = numbers;
  const days = (utcMillis(year, month + 1, 1, 0, 0, 0) - utcMillis(year, month, 1, 0, 0, 0)) / 86_400_000;
  if (day < 1 || day > days) return `parsing time ${quoted}: day out of range`;
  return BigInt(utcMillis(year, month, day, hour, minute, second) / 1000);
}

function zoneExists(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const FORMAT_WORDS: Array<[string, string]> = [
  ['YYYY', '2006'],
  ['YY', '06'],
  ['MM', '01'],
  ['DD', '02'],
  ['HH', '15'],
  ['MI', '04'],
  ['SS', '05'],
];

async function dateTimeTag(c: Call): Promise<string> {
  const r = c.r;
  const value = r.macro(c.pars.DateTime);
  if (value.length === 0 || value[0] < '0' || value[0] > '9') return '';
  const base = '1970-01-01T00:00:00';
  const padded = value.length < base.length ? value + base.slice(value.length) : value;
  let unix = parseIsoTime(padded.slice(0, 19).replace(/ /g, 'T'));
  if (typeof unix === 'string') {
    const seconds = strToInt(value);
    if (seconds <= 0n) return unix;
    unix = seconds;
  }
  let format = r.macro(c.pars.Format);
  if (!format) {
    format = (await r.langText('timeformat')).text;
    if (format === 'timeformat') format = '2006-01-02 15:04:05';
  } else {
    format = r.macro(format);
  }
  for (const [word, layout] of FORMAT_WORDS) format = format.split(word).join(layout);
  let zone = 'UTC';
  const location = r.macro(c.pars.Location);
  if (location && location !== 'UTC' && location !== 'Local') {
    if (!zoneExists(location)) return `unknown time zone ${location}`;
    zone = location;
  }
  return goTimeFormat(format, wallClock(unix, zone));
}

async function addressTag(c: Call): Promise<string> {
  const r = c.r;
  const wallet = c.pars.Wallet || r.getVar('key_id');
  const text = await r.processToText(r.macro(wallet));
  const id = /^[+-]?\d+$/.test(text) ? BigInt(text) : 0n;
  if (id === 0n || id > 0x7fffffffffffffffn || id < -0x8000000000000000n) return 'unknown address';
  return keyIdToAddress(id);
}

async function addressToIdTag(c: Call): Promise<string> {
  const r = c.r;
  if (!c.pars.Wallet) return r.getVar('key_id');
  const id = addressToId(await r.processToText(r.macro(c.pars.Wallet)));
  return id.toString();
}

// ---- the table -----------------------------------------------------------------------------------------------

export interface Implementation {
  run: Handler;
  full: Handler;
}

function both(handler: Handler): Implementation {
  return { run: handler, full: handler };
}

function inline(handler: Handler): Implementation {
  return { run: handler, full: defaultTag };
}

function tail(run: Handler, full: Handler = defaultTailFull): Implementation {
  return { run, full };
}

/** Handlers by function (and tail) name: the normal one and the source-mode one. */
/**
 * Whether a function only turns its text into a node (its parameters as attributes, its body as children):
 * such a call, when its text holds no macro and no label, renders the same on every page.
 */
export function isPlainTag(name: string): boolean {
  const impl = IMPLEMENTATIONS.get(name);
  return impl !== undefined && (impl.run === defaultTag || impl.run === defaultTailTag);
}

export const IMPLEMENTATIONS = new Map<string, Implementation>([
  ['AddToolButton', both(defaultTailTag)],
  ['Address', inline(addressTag)],
  ['AddressToId', inline(addressToIdTag)],
  ['And', inline((c) => andOr(c, false))],
  ['AppParam', inline(appParamTag)],
  ['ArrayToSource', inline(arrayToSourceTag)],
  ['Binary', inline(binaryTag)],
  ['Button', both(buttonTag)],
  ['Calculate', inline(calculateTag)],
  ['Chart', { run: chartTag, full: defaultTailTag }],
  ['CmpTime', inline(cmpTimeTag)],
  ['Code', both(defaultTag)],
  ['CodeAsIs', both(defaultTag)],
  ['Data', { run: dataTag, full: defaultTailTag }],
  ['DateTime', inline(dateTimeTag)],
  ['DBFind', { run: dbFindTag, full: defaultTailTag }],
  ['Div', both(defaultTailTag)],
  ['EcosysParam', inline(ecosysParamTag)],
  ['Em', both(defaultTag)],
  ['ForList', inline(forListTag)],
  ['Form', both(defaultTailTag)],
  ['GetColumnType', inline(columnTypeTag)],
  ['GetHistory', inline(getHistoryTag)],
  ['GetVar', inline(getVarTag)],
  ['Hint', both(defaultTag)],
  ['If', { run: ifTag, full: ifFull }],
  ['Image', { run: imageTag, full: defaultTailTag }],
  ['ImageInput', both(defaultTag)],
  ['Include', inline(includeTag)],
  ['Input', both(defaultTailTag)],
  ['InputErr', both(defaultTag)],
  ['InputMap', both(defaultTailTag)],
  ['JsonToSource', inline(jsonToSourceTag)],
  ['Label', both(defaultTailTag)],
  ['LangRes', inline(langResTag)],
  ['LinkPage', both(defaultTailTag)],
  ['Lower', inline(lowerTag)],
  ['Map', both(defaultTag)],
  ['MenuGroup', inline(menuGroupTag)],
  ['MenuItem', both(defaultTag)],
  ['Money', inline(moneyTag)],
  ['Or', inline((c) => andOr(c, true))],
  ['P', both(defaultTailTag)],
  ['QRcode', both(defaultTag)],
  ['RadioGroup', both(defaultTailTag)],
  ['Range', inline(rangeTag)],
  ['Select', both(defaultTailTag)],
  ['SetTitle', both(defaultTag)],
  ['SetVar', inline(setVarTag)],
  ['Span', both(defaultTailTag)],
  ['Strong', both(defaultTag)],
  ['SysParam', inline(sysParamTag)],
  ['Table', { run: tableTag, full: defaultTailTag }],
  ['TransactionInfo', inline(txInfoTag)],
  ['VarAsIs', inline(varAsIsTag)],
  // Tails.
  ['Action', tail(actionTag)],
  ['Alert', tail(alertTag)],
  ['Popup', tail(popupTag)],
  ['Style', tail(tailTag)],
  ['CompositeContract', tail(compositeTag)],
  ['ErrorRedirect', tail(errorRedirectTag)],
  ['Show', tail((c) => showHide(c, 'show'))],
  ['Hide', tail((c) => showHide(c, 'hide'))],
  ['Else', tail(elseTag, elseFull)],
  ['ElseIf', tail(elseIfTag, elseIfFull)],
  ['Validate', tail(validateTag)],
  ['Custom', tail(customTag, customFull)],
  ['Columns', tail(tailTag)],
  ['Count', tail(tailTag)],
  ['Where', tail(tailTag)],
  ['WhereId', tail(tailTag)],
  ['Order', tail(tailTag)],
  ['Limit', tail(tailTag)],
  ['Offset', tail(tailTag)],
  ['Vars', tail(tailTag)],
  ['Cutoff', tail(tailTag)],
  ['ById', tail(tailTag)],
  ['Ecosystem', tail(tailTag)],
]);

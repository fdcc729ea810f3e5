/** A node of the rendered tree. Attribute maps are written with sorted keys; see json.ts. */
export interface TemplateNode {
  tag: string;
  attr: Record<string, AttrValue>;
  text?: string;
  children?: TemplateNode[];
  tail?: TemplateNode[];
}

/**
 * Attribute values: text, lists, Go maps (plain objects, written with sorted keys) and Go structs (`Map`s, written
 * in insertion order: button actions and composites).
 */
export type AttrValue =
  string | number | null | AttrValue[] | Map<string, AttrValue | undefined> | { [key: string]: AttrValue };

/** A where-condition as the lenient object syntax gives it (every scalar a string), in written order. */
export type WhereValue = string | WhereValue[] | WhereMap;
export interface WhereMap {
  [key: string]: WhereValue;
}

export interface FindRowsQuery {
  /** The page's `ecosystem_id` variable (the table prefix), as the reference reads it. */
  ecosystem: string;
  /** Table name as written (unquoted, macros expanded; `@2name` names another ecosystem's table). */
  table: string;
  /** Requested columns (`['*']` for all); JSON paths as `a->b`. `id` is always among them unless `*`. */
  columns: string[];
  /** From `.Where({…})`: the parsed object; from `.WhereId(n)`: `{ id: n }`. Absent: no filter. */
  where?: WhereMap;
  /** From `.Order(…)`: the text as written, or the parsed `[…]`/`{…}` object. Absent: by id. */
  order?: WhereValue;
  /** Row count, 1 … 10,000 (default 25; 1 with `.Vars`). */
  limit: number;
  offset: number;
  /** `.Count(var)`: also count every row that matches the where (ignoring limit and offset). */
  count: boolean;
  /** `.Cutoff(cols)`: text columns to return as `{title, hash}` (first 32 characters and the value's hash). */
  cutoff: string[];
}

/** A long-text or binary cell: the template turns it into `{"link":"/data/<table>/<id>/<column>/<hash>","title":…}`. */
export interface LinkCell {
  title: string;
  hash: string;
}

export type Cell = string | null | LinkCell;

export interface FoundRows {
  /** The table's real name (`1_keys`), used in data links. */
  table: string;
  /** Output column names in order (`a->b` becomes `a.b`); for `*`, every column of the table. */
  columns: string[];
  /** Per column: `text`, or `blob` (bytea: cells are LinkCells of its hash) or `long_text` (cut-off columns). */
  types: string[];
  rows: Cell[][];
  /** With `count`: the number of matching rows. */
  count?: string;
}

export interface BinaryQuery {
  ecosystem: string;
  /** `.ById(n)`; otherwise app id, account and name select the binary. */
  id?: string;
  appId?: string;
  name?: string;
  account?: string;
}

export interface HistoryQuery {
  ecosystem: string;
  table: string;
  id: string;
  rollbackId: string;
}

export interface HistoryRows {
  /** The table's columns in order. */
  columns: string[];
  /** Each a former version of the row: column → value (null as SQL NULL). */
  rows: Array<Record<string, string | null>>;
}

/**
 * What the page language needs from the node. Every method may answer synchronously or with a promise.
 * Throw {@link PageDataError} for a message the page shows in place of the function's output (`Access denied`,
 * a bad column); any other error aborts the render.
 */
export interface TemplatePort {
  /** DBFind. Checks the table's and columns' read permissions and the table's filter condition. */
  findRows(query: FindRowsQuery): Promise<FoundRows> | FoundRows;
  /** EcosysParam: the parameter's value, undefined if there is none. */
  ecosystemParam(ecosystem: string, name: string): Promise<string | undefined> | string | undefined;
  /** AppParam. */
  appParam(ecosystem: string, app: string, name: string): Promise<string | undefined> | string | undefined;
  /** SysParam: a platform parameter. */
  systemParam(name: string): Promise<string | undefined> | string | undefined;
  /** `$label$` and LangRes: the resource's translations (language code, lower case → text), undefined if none. */
  langRes(
    ecosystem: string,
    name: string,
  ): Promise<Record<string, string> | undefined> | Record<string, string> | undefined;
  /** Include: the snippet's template, undefined if there is none. */
  snippet(ecosystem: string, name: string): Promise<string | undefined> | string | undefined;
  /** Binary: the binary's link (`/data/1_binaries/<id>/data/<hash>`), undefined if there is none. */
  binaryUrl(query: BinaryQuery): Promise<string | undefined> | string | undefined;
  /** GetHistory. */
  history(query: HistoryQuery): Promise<HistoryRows> | HistoryRows;
  /** GetColumnType: the column's type name (`text`, `number`, …). */
  columnType(ecosystem: string, table: string, column: string): Promise<string> | string;
  /** TransactionInfo: the transaction's description (JSON text). */
  txInfo(hash: string): Promise<string> | string;
}

/** A failure the page shows as text where the function's output would be (as the reference does). */
export class PageDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageDataError';
  }
}

/** The render went over its time, node or size budget; the HTTP side answers `E_HEAVYPAGE`. */
export class HeavyPageError extends Error {
  constructor(readonly limit: 'time' | 'nodes' | 'size') {
    super('This page is heavy');
    this.name = 'HeavyPageError';
  }
}

export interface RenderLimits {
  /** Wall-clock budget in ms (0 = none). Default 3000, the reference's `mpgt`. */
  timeMs?: number;
  /** Most nodes created (default 100,000). */
  maxNodes?: number;
  /** Most characters of text and attribute values, and of one macro expansion (default 8,000,000). */
  maxSize?: number;
  /** An absolute deadline (ms since epoch) shared by several renders (page and menu); wins over timeMs. */
  deadline?: number;
}

export interface RenderOptions {
  port: TemplatePort;
  /** Request variables (form values, `ecosystem_id`, `key_id`, `lang`, …). `_full = "1"` is source mode. */
  vars?: Record<string, string>;
  /** Source mode (the same as `_full = "1"`). */
  source?: boolean;
  limits?: RenderLimits;
}

/** An object without a prototype: template text may use any key, `__proto__` included. */
export function dict<T>(): Record<string, T> {
  return new NullPrototypeDict() as Record<string, T>;
}

/**
 * Instances have no `Object.prototype` in their chain (a key `__proto__` or `constructor` is an own key like any
 * other), yet stay in V8's fast property mode: `Object.create(null)` makes dictionary-mode objects, whose
 * `Object.keys` and property reads cost several times more (a third of the renderer's time).
 */
const NullPrototypeDict = function () {} as unknown as new () => object;
NullPrototypeDict.prototype = Object.create(null) as object;

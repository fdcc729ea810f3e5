import type { FuncSpec } from './catalog';
import { IMPLEMENTATIONS } from './functions';
import { LANGUAGE_LABEL, pickLanguage } from './language';
import { expandMacros, MacroOverflow, type VarMap } from './macro';
import { scan, type TailCall } from './scanner';
import { dict, HeavyPageError, type RenderLimits, type TemplateNode, type TemplatePort } from './types';

export const DEFAULT_LIMITS = { timeMs: 3000, maxNodes: 100_000, maxSize: 8_000_000 };

/** A data source (DBFind, Data, …) that ForList, Table and friends refer to by name. */
export interface DataSource {
  columns: string[];
  data: string[][];
}

/** One function call being rendered: what a handler works with. */
export interface Call {
  r: Renderer;
  spec: FuncSpec;
  /** Where the node goes (and where inline output is written). */
  owner: TemplateNode;
  node: TemplateNode;
  /** Parameters by declared name (positional `*` ones by index), language labels replaced. */
  pars: Record<string, string>;
  /** Parameters as written, for those whose labels were replaced. */
  rawPars?: Record<string, string>;
  tails?: TailCall[];
}

export type Handler = (call: Call) => string | Promise<string>;

/** Trims blanks and, if `unquote`, the quote character the value starts with (on both ends). */
function trimParam(input: string, unquote: boolean): string {
  let result = input.replace(/^[\t\r\n ]+|[\t\r\n ]+$/g, '');
  if (unquote && result.length > 0 && (result[0] === '"' || result[0] === '`')) {
    const quote = result[0];
    let start = 0;
    let end = result.length;
    while (start < end && result[start] === quote) start++;
    while (end > start && result[end - 1] === quote) end--;
    result = result.slice(start, end);
  }
  return result;
}

const LABEL = LANGUAGE_LABEL;

/**
 * The renderer of one request: its variables, data sources and budgets. Pages are rendered the way the reference
 * does it: text is scanned for calls, each call's parameters are matched, its body rendered into its node, then
 * the function runs, then the node's attributes and texts get their `#var#` macros.
 */
export class Renderer {
  readonly vars: VarMap = new Map();
  readonly sources = new Map<string, DataSource>();
  private readonly deadline: number;
  private readonly maxNodes: number;
  readonly maxSize: number;
  private nodes = 0;
  private size = 0;
  private readonly langCache = new Map<string, Promise<Record<string, string> | undefined>>();

  constructor(
    readonly port: TemplatePort,
    vars: Record<string, string>,
    limits: RenderLimits = {},
  ) {
    for (const [key, value] of Object.entries(vars)) this.vars.set(key, { value, asIs: false });
    const timeMs = limits.timeMs ?? DEFAULT_LIMITS.timeMs;
    this.deadline = limits.deadline ?? (timeMs > 0 ? Date.now() + timeMs : Infinity);
    this.maxNodes = limits.maxNodes ?? DEFAULT_LIMITS.maxNodes;
    this.maxSize = limits.maxSize ?? DEFAULT_LIMITS.maxSize;
  }

  /** Source mode is the variable `_full = "1"`, read each time as the reference does. */
  get full(): boolean {
    return this.vars.get('_full')?.value === '1';
  }

  getVar(name: string): string {
    return this.vars.get(name)?.value ?? '';
  }

  setVar(name: string, value: string, asIs = false): void {
    this.grow(value.length);
    this.vars.set(name, { value, asIs });
  }

  /** `#var#` expansion, none in source mode. */
  macro(text: string): string {
    return this.full ? text : this.macroReplace(text);
  }

  /** `#var#` expansion even in source mode (SetVar and ForList use it). */
  macroReplace(text: string, vars: VarMap = this.vars): string {
    try {
      return expandMacros(text, vars, this.maxSize);
    } catch (error) {
      if (error instanceof MacroOverflow) throw new HeavyPageError('size');
      throw error;
    }
  }

  checkTime(): void {
    if (Date.now() > this.deadline) throw new HeavyPageError('time');
  }

  grow(chars: number): void {
    this.size += chars;
    if (this.size > this.maxSize) throw new HeavyPageError('size');
  }

  newNode(tag: string): TemplateNode {
    if (++this.nodes > this.maxNodes) throw new HeavyPageError('nodes');
    return { tag, attr: dict() };
  }

  appendText(owner: TemplateNode, text: string): void {
    if (text.trim() === '') return;
    const node = this.newNode('text');
    this.grow(text.length);
    node.text = text;
    (owner.children ??= []).push(node);
  }

  async process(input: string, owner: TemplateNode): Promise<void> {
    for (const segment of scan(input)) {
      this.checkTime();
      if (segment.kind === 'text') {
        this.appendText(owner, segment.expandNow ? this.macro(segment.text) : segment.text);
      } else {
        await this.callFunc(segment.spec, owner, segment.params, segment.tails);
      }
    }
  }

  /** Renders text and keeps only its top-level text (parameters that may hold calls). */
  async processToText(input: string): Promise<string> {
    const root = this.newNode('');
    await this.process(input, root);
    let out = '';
    for (const child of root.children ?? []) if (child.tag === 'text') out += child.text ?? '';
    return out;
  }

  /** A parameter that may hold calls: rendered only when it has a `(`. */
  async parseArg(input: string): Promise<string> {
    return input.includes('(') ? this.processToText(input) : input;
  }

  async callFunc(spec: FuncSpec, owner: TemplateNode, params: string[], tails?: TailCall[]): Promise<void> {
    this.checkTime();
    const pars = this.matchParams(spec, params);
    let rawPars: Record<string, string> | undefined;
    if (!this.full) {
      for (const key of Object.keys(pars)) {
        const value = pars[key];
        if (!value.includes('$')) continue;
        const replaced = await this.langMacro(value);
        if (replaced !== value) {
          pars[key] = replaced;
          (rawPars ??= dict())[key] = value;
        }
      }
    }
    const node = this.newNode(spec.tag);
    const full = this.full;
    if (pars.Body && spec.tag !== 'custom' && ((spec.tag !== 'if' && spec.tag !== 'elseif') || full)) {
      await this.process(pars.Body, node);
    }
    const call: Call = { r: this, spec, owner, node, pars, rawPars, tails };
    const impl = IMPLEMENTATIONS.get(spec.name);
    if (!impl) throw new Error(`template function ${spec.name} has no handler`);
    const result = (full ? impl.full : impl.run)(call);
    const out = typeof result === 'string' ? result : await result;
    this.expandNode(node);
    if (out) {
      this.grow(out.length);
      const last = owner.children?.[owner.children.length - 1];
      if (last && last.tag === 'text') last.text = (last.text ?? '') + out;
      else this.appendText(owner, out);
    }
  }

  private matchParams(spec: FuncSpec, params: string[]): Record<string, string> {
    const pars = dict<string>();
    if (spec.params === '*') {
      params.forEach((param, index) => {
        const value = param.trim();
        const colon = value.indexOf(':');
        if (colon >= 0) pars[value.slice(0, colon)] = this.macro(trimParam(value.slice(colon + 1), true));
        else pars[String(index)] = value;
      });
      return pars;
    }
    spec.paramList.forEach((name, index) => {
      if (index < params.length) {
        const value = params[index].trim();
        const colon = value.indexOf(':');
        const key = colon >= 0 ? value.slice(0, colon) : '';
        // The reference matches names by substring of the declared list (so `Span(:x)` sets the attribute "").
        if (colon >= 0 && spec.params.includes('#' + key)) {
          pars['#' + key] = trimParam(value.slice(colon + 1), key !== 'Data');
        } else if (colon >= 0 && spec.params.includes(key)) {
          pars[key] = trimParam(value.slice(colon + 1), key !== 'Data');
        } else {
          pars[name] = value;
        }
      }
    });
    // A declared parameter that was not given reads as empty, as a missing key of a Go map does.
    for (const name of spec.paramList) if (!(name in pars)) pars[name] = '';
    return pars;
  }

  /** After a function ran: macros in its attributes (but `#name` ones), in its text and its children's. */
  private expandNode(node: TemplateNode): void {
    const attr = node.attr;
    for (const key of Object.keys(attr)) {
      const value = attr[key];
      if (typeof value === 'string') {
        if (!key.startsWith('#')) attr[key] = this.macro(value);
      } else if (
        key !== 'errredirect' &&
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        !(value instanceof Map)
      ) {
        for (const inner of Object.values(value)) {
          if (!inner || typeof inner !== 'object' || Array.isArray(inner) || inner instanceof Map) continue;
          for (const textKey of Object.keys(inner)) {
            const text = inner[textKey];
            if (typeof text === 'string') inner[textKey] = this.macro(text);
            else if (Array.isArray(text))
              inner[textKey] = text.map((item) => (typeof item === 'string' ? this.macro(item) : item));
          }
        }
      }
    }
    for (const key of Object.keys(attr)) {
      const value = attr[key];
      if (typeof value === 'string' && key.startsWith('#')) {
        attr[key.slice(1)] = value;
        delete attr[key];
      }
    }
    if (node.text) node.text = this.macro(node.text);
    for (const child of node.children ?? []) if (child.text) child.text = this.macro(child.text);
  }

  /** Runs the tails of a node (`.Style`, `.Where`, …) against it. */
  async runTails(call: Call): Promise<void> {
    for (const tail of call.tails ?? []) await this.callFunc(tail.spec, call.node, tail.params);
  }

  /** The `res` translations of a language resource (`@2name` reads ecosystem 2's), cached per render. */
  private languageResource(name: string): Promise<Record<string, string> | undefined> {
    let ecosystem = this.getVar('ecosystem_id');
    let resource = name;
    const match = /^@(\d+)(.+)$/.exec(name);
    if (match) {
      ecosystem = match[1];
      resource = match[2];
    }
    const key = ecosystem + '\u0000' + resource;
    let found = this.langCache.get(key);
    if (!found) {
      found = Promise.resolve(this.port.langRes(ecosystem, resource));
      this.langCache.set(key, found);
    }
    return found;
  }

  /** A language resource's text for `lang` (the request's when empty); `found` false leaves the name. */
  async langText(name: string, lang = ''): Promise<{ text: string; found: boolean }> {
    const res = await this.languageResource(name);
    if (!res) return { text: name, found: false };
    const text = pickLanguage(res, lang || this.getVar('lang'));
    return text === undefined ? { text: name, found: false } : { text, found: true };
  }

  /** `$label$` in a parameter: the resource's text, or left as written when there is none. */
  async langMacro(text: string): Promise<string> {
    if (!text.includes('$')) return text;
    const names = [...text.matchAll(LABEL)].map((match) => match[1]);
    if (names.length === 0) return text;
    const found = new Map<string, string>();
    for (const name of names) {
      if (found.has(name)) continue;
      const result = await this.langText(name);
      if (result.found) found.set(name, result.text);
    }
    return text.replace(LABEL, (whole, name: string) => found.get(name) ?? whole);
  }
}

import type { Call, DataSource, LangText, RenderContext } from './call';
import type { FuncSpec } from './catalog';
import { IMPLEMENTATIONS, isPlainTag } from './functions';
import { freezeNode } from './json';
import { LANGUAGE_LABEL, languageCandidates, pickFromCandidates } from './language';
import { expandMacros, MacroOverflow, type TemplateVar, type VarMap } from './macro';
import { scan, type Segment, type TailCall } from './scanner';
import { dict, HeavyPageError, type RenderLimits, type TemplateNode, type TemplatePort } from './types';

export const DEFAULT_LIMITS = { timeMs: 3000, maxNodes: 100_000, maxSize: 8_000_000 };

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

/** A static call rendered once: its nodes (frozen, shared by every page that holds the call) and what they count. */
interface Fragment {
  nodes: readonly TemplateNode[];
  nodeCount: number;
  size: number;
}

/** By the scanned call's parameter list: the call's text, which alone decides whether it is static. */
const fragments = new WeakMap<string[], Fragment | null>();

/**
 * A call of a plain tag (Div, P, Span, …) whose text holds no `#macro#`, no `$label$` and nothing but plain
 * tags renders the same whatever the page, the reader and the variables: it is rendered once and its nodes
 * (and their JSON) reused, as template compilers hoist static markup. Most of a page's elements are such.
 */
function fragmentOf(spec: FuncSpec, params: string[]): Fragment | null {
  let fragment = fragments.get(params);
  if (fragment === undefined) {
    const candidate =
      isPlainTag(spec.name) && !params.some((param) => param.includes('#') || param.includes('$'));
    fragment = candidate ? Renderer.renderFragment(spec, params) : null;
    fragments.set(params, fragment);
  }
  return fragment;
}

/** Calls with labels, by their parameters once the labels gave their texts (one entry per language, mostly). */
const labelledFragments = new WeakMap<string[], Map<string, Fragment | null>>();

/**
 * A plain-tag call whose only variable parts are `$label$`s: static for the texts they gave (a menu's items,
 * for each language).
 */
function labelledFragmentOf(
  spec: FuncSpec,
  params: string[],
  pars: Readonly<Record<string, string>>,
): Fragment | null {
  if (!isPlainTag(spec.name) || params.some((param) => param.includes('#'))) return null;
  let key = '';
  for (const name in pars) {
    const value = pars[name];
    // A label text may hold a macro, and a label left as written (no resource) may have one later.
    if (value.includes('#') || value.includes('$')) return null;
    key += name + '\u0001' + value + '\u0000';
  }
  let byTexts = labelledFragments.get(params);
  if (!byTexts) {
    byTexts = new Map();
    labelledFragments.set(params, byTexts);
  }
  let fragment = byTexts.get(key);
  if (fragment === undefined) {
    fragment = Renderer.renderFragment(spec, pars);
    if (byTexts.size >= 64) byTexts.clear();
    byTexts.set(key, fragment);
  }
  return fragment;
}

class NotPlain extends Error {}

type Resource = Record<string, string> | undefined;

/** Parameters with their `$label$`s replaced, and as written for those that changed. */
interface Labelled {
  pars: Readonly<Record<string, string>>;
  rawPars?: Record<string, string>;
}

/** The port of a fragment's render, which reads nothing. */
const NO_DATA = new Proxy({} as TemplatePort, {
  get: () => () => {
    throw new NotPlain();
  },
});

const matchedParams = new WeakMap<string[], Readonly<Record<string, string>>>();

function matchDeclaredParams(spec: FuncSpec, params: string[]): Record<string, string> {
  const pars = dict<string>();
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

/** The request's variables, with source mode (`_full` = "1") kept at hand: every call asks for it. */
class RenderVars extends Map<string, TemplateVar> {
  full = false;

  override set(name: string, variable: TemplateVar): this {
    if (name === '_full') this.full = variable.value === '1';
    return super.set(name, variable);
  }

  override delete(name: string): boolean {
    if (name === '_full') this.full = false;
    return super.delete(name);
  }

  override clear(): void {
    this.full = false;
    super.clear();
  }
}

/** A text with labels: its literal pieces, and between each two the name of a label. */
interface LabelledText {
  names: string[];
  pieces: string[];
}

/** The labels in a text, by text: a page's texts repeat on every render. */
const labelledTexts = new Map<string, LabelledText>();

function labelsIn(text: string): LabelledText {
  let found = labelledTexts.get(text);
  if (!found) {
    found = { names: [], pieces: [] };
    let last = 0;
    for (const match of text.matchAll(LABEL)) {
      found.pieces.push(text.slice(last, match.index));
      found.names.push(match[1]);
      last = match.index + match[0].length;
    }
    found.pieces.push(text.slice(last));
    if (labelledTexts.size >= 10_000) labelledTexts.clear();
    labelledTexts.set(text, found);
  }
  return found;
}

const resourceNames = new Map<string, { ecosystem?: string; resource: string }>();

/** `@2name` names ecosystem 2's resource `name`; a plain name, the page's ecosystem's. */
function resourceName(name: string): { ecosystem?: string; resource: string } {
  let named = resourceNames.get(name);
  if (!named) {
    const match = /^@(\d+)(.+)$/.exec(name);
    named = match ? { ecosystem: match[1], resource: match[2] } : { resource: name };
    if (resourceNames.size >= 10_000) resourceNames.clear();
    resourceNames.set(name, named);
  }
  return named;
}

function mayHoldLabels(pars: Record<string, string>): boolean {
  for (const key in pars) if (pars[key].includes('$')) return true;
  return false;
}

/**
 * The renderer of one request: its variables, data sources and budgets. Pages are rendered the way the reference
 * does it: text is scanned for calls, each call's parameters are matched, its body rendered into its node, then
 * the function runs, then the node's attributes and texts get their `#var#` macros.
 */
export class Renderer implements RenderContext {
  readonly vars: VarMap = new RenderVars();
  readonly sources = new Map<string, DataSource>();
  private readonly deadline: number;
  private readonly maxNodes: number;
  readonly maxSize: number;
  private nodes = 0;
  private size = 0;
  private steps = 0;
  /** Rendering a static fragment: any call but a plain tag ends it. */
  private plainOnly = false;
  private readonly langCache = new Map<string, Promise<Resource>>();
  private readonly langLoaded = new Map<string, Map<string, Resource>>();
  /** The language codes to try, by `lang` value: a menu asks for dozens of labels in the same language. */
  private readonly langCandidates = new Map<string, string[]>();

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
    return (this.vars as RenderVars).full;
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

  /** The clock is read at the first step and every 32nd after: reading it at every call cost 5 % of a render. */
  checkTime(): void {
    if ((this.steps++ & 31) === 0 && Date.now() > this.deadline) throw new HeavyPageError('time');
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

  /**
   * Renders `input` into `owner`. Synchronous until a function has to wait (for data): most calls of a page
   * never do, and a promise per call cost a fifth of a render.
   */
  process(input: string, owner: TemplateNode): Promise<void> | undefined {
    return this.processFrom(scan(input), 0, owner);
  }

  private processFrom(segments: Segment[], start: number, owner: TemplateNode): Promise<void> | undefined {
    for (let index = start; index < segments.length; index++) {
      const segment = segments[index];
      this.checkTime();
      if (segment.kind === 'text') {
        this.appendText(owner, segment.expandNow ? this.macro(segment.text) : segment.text);
        continue;
      }
      const pending = this.callFunc(segment.spec, owner, segment.params, segment.tails);
      if (pending) {
        return pending.then(() => {
          this.steps = 0; // time passed while waiting: the next step reads the clock
          return this.processFrom(segments, index + 1, owner);
        });
      }
    }
    return undefined;
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

  /** Runs one call; a promise only when something in it waits. */
  callFunc(
    spec: FuncSpec,
    owner: TemplateNode,
    params: string[],
    tails?: TailCall[],
  ): Promise<void> | undefined {
    this.checkTime();
    if (!tails?.length && !this.full) {
      const fragment = fragmentOf(spec, params);
      if (fragment) {
        this.place(owner, fragment);
        return undefined;
      }
    }
    return this.callDirect(spec, owner, params, tails);
  }

  private callDirect(
    spec: FuncSpec,
    owner: TemplateNode,
    params: string[],
    tails: TailCall[] | undefined,
  ): Promise<void> | undefined {
    if (this.plainOnly && (tails?.length || !isPlainTag(spec.name))) throw new NotPlain();
    const pars = this.matchParams(spec, params);
    if (!this.full && mayHoldLabels(pars)) {
      const labelled = this.replaceLabels(pars);
      if (labelled instanceof Promise) {
        return labelled.then((ready) => this.callLabelled(spec, owner, params, ready, tails));
      }
      return this.callLabelled(spec, owner, params, labelled, tails);
    }
    return this.callWith(spec, owner, pars, undefined, tails);
  }

  /** A call whose labels are replaced: static like any other when the texts they gave are. */
  private callLabelled(
    spec: FuncSpec,
    owner: TemplateNode,
    params: string[],
    labelled: Labelled,
    tails: TailCall[] | undefined,
  ): Promise<void> | undefined {
    if (!tails?.length) {
      const fragment = labelledFragmentOf(spec, params, labelled.pars);
      if (fragment) {
        this.place(owner, fragment);
        return undefined;
      }
    }
    return this.callWith(spec, owner, labelled.pars, labelled.rawPars, tails);
  }

  /** A static fragment's nodes, counted against the limits as if they had been rendered here. */
  private place(owner: TemplateNode, fragment: Fragment): void {
    this.nodes += fragment.nodeCount;
    if (this.nodes > this.maxNodes) throw new HeavyPageError('nodes');
    this.grow(fragment.size);
    (owner.children ??= []).push(...fragment.nodes);
  }

  /**
   * Renders one call that may be static on its own: no data, no variables, only plain tags inside. Its
   * nodes, or null when it is not static after all.
   */
  static renderFragment(
    spec: FuncSpec,
    params: string[] | Readonly<Record<string, string>>,
  ): Fragment | null {
    const renderer = new Renderer(NO_DATA, {}, { timeMs: 0 });
    renderer.plainOnly = true;
    const root: TemplateNode = { tag: '', attr: dict() };
    try {
      const pending = Array.isArray(params)
        ? renderer.callDirect(spec, root, params, undefined)
        : renderer.callWith(spec, root, params, undefined, undefined);
      if (pending) {
        // Something in it waits (an `@` parameter renders calls): rendered where it is used instead.
        void pending.catch(() => undefined);
        return null;
      }
    } catch (error) {
      if (error instanceof NotPlain || error instanceof HeavyPageError) return null;
      throw error;
    }
    const nodes = (root.children ?? []).map(freezeNode);
    return { nodes, nodeCount: renderer.nodes, size: renderer.size };
  }

  /** `$label$` in the parameters replaced; the parameters as written returned for those that changed. */
  private replaceLabels(matched: Readonly<Record<string, string>>): Labelled | Promise<Labelled> {
    const replaced = dict<string>();
    const loading: Promise<string>[] = [];
    for (const key of Object.keys(matched)) {
      const value = matched[key];
      if (!value.includes('$')) continue;
      const text = this.langMacro(value);
      if (text instanceof Promise) loading.push(text);
      else if (text !== value) replaced[key] = text;
    }
    // Once every resource is here, the second pass runs at once.
    if (loading.length > 0) return Promise.all(loading).then(() => this.replaceLabels(matched));
    const keys = Object.keys(replaced);
    if (keys.length === 0) return { pars: matched };
    const pars = Object.assign(dict<string>(), matched, replaced);
    const rawPars = dict<string>();
    for (const key of keys) rawPars[key] = matched[key];
    return { pars, rawPars };
  }

  private callWith(
    spec: FuncSpec,
    owner: TemplateNode,
    pars: Record<string, string>,
    rawPars: Record<string, string> | undefined,
    tails: TailCall[] | undefined,
  ): Promise<void> | undefined {
    const node = this.newNode(spec.tag);
    const call: Call = { r: this, spec, owner, node, pars, rawPars, tails };
    // Source mode as it was before the body ran (a SetVar of `_full` in the body does not change the call).
    const full = this.full;
    if (pars.Body && spec.tag !== 'custom' && ((spec.tag !== 'if' && spec.tag !== 'elseif') || full)) {
      const body = this.process(pars.Body, node);
      if (body) return body.then(() => this.runHandler(call, full));
    }
    return this.runHandler(call, full);
  }

  private runHandler(call: Call, full: boolean): Promise<void> | undefined {
    const impl = IMPLEMENTATIONS.get(call.spec.name);
    if (!impl) throw new Error(`template function ${call.spec.name} has no handler`);
    const result = (full ? impl.full : impl.run)(call);
    if (typeof result !== 'string') return result.then((out) => this.finishCall(call, out));
    this.finishCall(call, result);
    return undefined;
  }

  private finishCall({ node, owner }: Call, out: string): void {
    this.expandNode(node);
    if (out) {
      this.grow(out.length);
      const last = owner.children?.[owner.children.length - 1];
      if (last && last.tag === 'text') last.text = (last.text ?? '') + out;
      else this.appendText(owner, out);
    }
  }

  /**
   * Parameters by name. Those of a declared list depend on the call's text alone, so they are matched once
   * per scanned call and shared (frozen: whoever changes them works on a copy).
   */
  private matchParams(spec: FuncSpec, params: string[]): Readonly<Record<string, string>> {
    if (spec.params === '*') return this.matchAnyParams(params);
    let pars = matchedParams.get(params);
    if (!pars) {
      pars = Object.freeze(matchDeclaredParams(spec, params));
      matchedParams.set(params, pars);
    }
    return pars;
  }

  /** `*` functions: `Name: value` pairs (macros expanded at once) and positional values by index. */
  private matchAnyParams(params: string[]): Record<string, string> {
    const pars = dict<string>();
    params.forEach((param, index) => {
      const value = param.trim();
      const colon = value.indexOf(':');
      if (colon >= 0) pars[value.slice(0, colon)] = this.macro(trimParam(value.slice(colon + 1), true));
      else pars[String(index)] = value;
    });
    return pars;
  }

  /** After a function ran: macros in its attributes (but `#name` ones), in its text and its children's. */
  private expandNode(node: TemplateNode): void {
    const attr = node.attr;
    let hashKeys: string[] | undefined;
    for (const key of Object.keys(attr)) {
      const value = attr[key];
      if (typeof value === 'string') {
        if (key.startsWith('#')) (hashKeys ??= []).push(key);
        else if (value.includes('#')) attr[key] = this.macro(value);
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
    // `#name` attributes are kept as written, under their name (after the others: they win over `name`).
    for (const key of hashKeys ?? []) {
      attr[key.slice(1)] = attr[key];
      delete attr[key];
    }
    if (node.text?.includes('#')) node.text = this.macro(node.text);
    for (const child of node.children ?? [])
      if (child.text?.includes('#')) child.text = this.macro(child.text);
  }

  /** Runs the tails of a node (`.Style`, `.Where`, …) against it. */
  async runTails(call: Call): Promise<void> {
    for (const tail of call.tails ?? []) await this.callFunc(tail.spec, call.node, tail.params);
  }

  /**
   * The `res` translations of a language resource (`@2name` reads ecosystem 2's), read once per render; at
   * once when this render (or the port) has it already, so that labels cost no wait.
   */
  private languageResource(name: string): Resource | Promise<Resource> {
    const named = resourceName(name);
    const ecosystem = named.ecosystem ?? this.getVar('ecosystem_id');
    const resource = named.resource;
    // By ecosystem, then name: both strings are kept (and their hashes with them), a joined key is not.
    let loaded = this.langLoaded.get(ecosystem);
    if (!loaded) {
      loaded = new Map();
      this.langLoaded.set(ecosystem, loaded);
    }
    if (loaded.has(resource)) return loaded.get(resource);
    const key = ecosystem + '\u0000' + resource;
    let pending = this.langCache.get(key);
    if (!pending) {
      const answer = this.port.langRes(ecosystem, resource);
      const byName = loaded;
      if (!(answer instanceof Promise)) {
        byName.set(resource, answer);
        return answer;
      }
      pending = answer.then((res) => {
        byName.set(resource, res);
        return res;
      });
      this.langCache.set(key, pending);
    }
    return pending;
  }

  /** A language resource's text for `lang` (the request's when empty); `found` false leaves the name. */
  langText(name: string, lang = ''): LangText | Promise<LangText> {
    const res = this.languageResource(name);
    return res instanceof Promise
      ? res.then((loaded) => this.pickText(name, loaded, lang))
      : this.pickText(name, res, lang);
  }

  private pickText(name: string, res: Resource, lang: string): LangText {
    if (!res) return { text: name, found: false };
    const accept = lang || this.getVar('lang');
    let candidates = this.langCandidates.get(accept);
    if (!candidates) {
      candidates = languageCandidates(accept);
      this.langCandidates.set(accept, candidates);
    }
    const text = pickFromCandidates(res, candidates);
    return text === undefined ? { text: name, found: false } : { text, found: true };
  }

  /** `$label$` in a parameter: the resource's text, or left as written when there is none. */
  langMacro(text: string): string | Promise<string> {
    if (!text.includes('$')) return text;
    const { names, pieces } = labelsIn(text);
    if (names.length === 0) return text;
    let loading: Promise<Resource>[] | undefined;
    for (const name of names) {
      const res = this.languageResource(name);
      if (res instanceof Promise) (loading ??= []).push(res);
    }
    // Once every resource is here, the replacement below runs at once.
    if (loading) return Promise.all(loading).then(() => this.langMacro(text));
    let out = pieces[0];
    for (let index = 0; index < names.length; index++) {
      const result = this.langText(names[index]) as LangText;
      out += (result.found ? result.text : `$${names[index]}$`) + pieces[index + 1];
    }
    return out;
  }
}

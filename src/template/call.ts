import type { FuncSpec } from './catalog';
import type { VarMap } from './macro';
import type { TailCall } from './scanner';
import type { TemplatePort, TemplateNode } from './types';

/** A data source (DBFind, Data, …) that ForList, Table and friends refer to by name. */
export interface DataSource {
  columns: string[];
  data: string[][];
}

/** A language resource's text; `found` false when the resource has none and the name stands for it. */
export interface LangText {
  text: string;
  found: boolean;
}

/**
 * What a function's handler may ask of the renderer running it. The renderer implements it; the handlers see
 * only this, so that they need not import the renderer that looks them up.
 */
export interface RenderContext {
  readonly vars: VarMap;
  readonly sources: Map<string, DataSource>;
  readonly port: TemplatePort;
  readonly full: boolean;
  getVar(name: string): string;
  setVar(name: string, value: string, asIs?: boolean): void;
  macro(text: string): string;
  macroReplace(text: string, vars?: VarMap): string;
  grow(chars: number): void;
  newNode(tag: string): TemplateNode;
  process(input: string, owner: TemplateNode): Promise<void> | undefined;
  processToText(input: string): Promise<string>;
  parseArg(input: string): Promise<string>;
  callFunc(
    spec: FuncSpec,
    owner: TemplateNode,
    params: string[],
    tails?: TailCall[],
  ): Promise<void> | undefined;
  runTails(call: Call): Promise<void>;
  langText(name: string, lang?: string): LangText | Promise<LangText>;
}

/** One function call being rendered: what a handler works with. */
export interface Call {
  r: RenderContext;
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

import type { ExecState } from './context';
import type { Results, TypeName, Value } from './values';

export interface ParamInfo {
  name: string;
  /** null: untyped variadic parameter. */
  type: TypeName | null;
}

export interface TailInfo {
  name: string;
  index: number;
  params: ParamInfo[];
  /** The last parameter collects the tail's remaining arguments as an array. */
  variadic: boolean;
}

export type FuncResult = Value | Results;

/** Where a compiled object comes from: enough to compile its whole source again. */
export interface SourceOrigin {
  readonly source: string;
  readonly ecosystem: number;
  /** Prelude source: its functions are keyed by plain name. */
  readonly global: boolean;
  /** Registry keys of functions of other sources that this source's call sites hold directly. */
  readonly dependsOn: ReadonlySet<string>;
}

/** A compiled contract-language function (top-level, contract-local, or a contract's conditions/action). */
export interface CompiledFunc {
  readonly kind: 'func';
  readonly name: string;
  /** Registry key: `@<eco><Name>` for a top-level function, the plain name for a prelude one. */
  readonly key: string;
  readonly ecosystem: number;
  readonly params: readonly ParamInfo[];
  readonly variadic: boolean;
  readonly tails: ReadonlyMap<string, TailInfo>;
  readonly results: readonly TypeName[];
  /** Some path may await (it calls an async built-in, a contract, or such a function). */
  readonly isAsync: boolean;
  readonly writesDb: boolean;
  readonly line: number;
  readonly column: number;
  readonly origin?: SourceOrigin;
  /** Runs the function. Returns a Promise only when `isAsync`. */
  call(
    state: ExecState,
    args: Value[],
    tailArgs: ReadonlyArray<Value[] | undefined> | null,
  ): FuncResult | Promise<FuncResult>;
}

export interface FieldInfo {
  name: string;
  type: TypeName;
  tags: string;
  optional: boolean;
}

/** What the host knows about a contract's row; stored with the compiled object. */
export interface ContractMeta {
  /** Row id in `1_contracts`; the contract id is 5000 + tableId. */
  tableId?: number;
  walletId?: bigint;
  tokenId?: bigint;
  /** The row's edit-permission condition text. */
  conditions?: string;
  appId?: bigint;
  active?: boolean;
  [extra: string]: unknown;
}

export interface CompiledContract {
  readonly kind: 'contract';
  readonly name: string;
  /** `@<eco><Name>`. */
  readonly key: string;
  readonly ecosystem: number;
  readonly fields: readonly FieldInfo[];
  readonly settings: ReadonlyMap<string, Value>;
  readonly funcs: ReadonlyMap<string, CompiledFunc>;
  readonly conditions: CompiledFunc | null;
  readonly action: CompiledFunc | null;
  /** Transitively calls something that writes to the database. */
  readonly writesDb: boolean;
  /** Fuel charged when a transaction starts with this contract: 100 + 50·objects + 50·settings + 10·fields. */
  readonly startCost: number;
  readonly source: string;
  readonly origin?: SourceOrigin;
  meta: ContractMeta;
}

export type CompiledObject = CompiledFunc | CompiledContract;

export const CONTRACT_ID_OFFSET = 5000;

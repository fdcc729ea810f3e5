import { registerPureBuiltins } from './builtins';
import { BuiltinRegistry } from './builtins/registry';
import { clockStart, clockStop } from './clock';
import {
  compileSource,
  CONTRACT_CALL_PRICE,
  resolveContractKey,
  type CompiledSource,
  type CompileEnv,
  type CompileOptions,
} from './compiler';
import { ExecState, MAX_CALL_DEPTH, type TxContext } from './context';
import { CompileError, panic, toVmError, VmError } from './errors';
import { goString } from './format';
import {
  CONTRACT_ID_OFFSET,
  type CompiledContract,
  type CompiledFunc,
  type ContractMeta,
  type FuncResult,
  type SourceOrigin,
} from './objects';
import { parseSource } from './parser';
import { ObjectRegistry } from './registry';
import { isThenable, toMoney } from './runtime';
import { isTruthy, zeroValue, type Value } from './values';

export * from './values';
export * from './errors';
export * from './context';
export * from './objects';
export * from './memory';
export { BuiltinRegistry, snakeCase, type BuiltinDef, type Builtin } from './builtins/registry';
export { sizeJson } from './builtins/budget';
export { boundedMoney, isDecimalText } from './operators';
export { ObjectRegistry } from './registry';
export { goString, goJsonEncode, goJsonDecode, goFloatString } from './format';
export { goJsonSyntaxError } from './json-syntax';
export { goSprintf } from './sprintf';
export { formatMoney } from './builtins/convert';
export { resolveContractKey, objectKey, type CompileOptions, type CompiledSource } from './compiler';
export { tokenize } from './lexer';
export { parseSource, parseExpression } from './parser';

export const DEFAULT_FUEL_LIMIT = 20_000_000;

export interface VmOptions {
  /** Price table: platform parameters `price_exec_<snake_case name>` → fuel. Can be overridden per run. */
  prices?: ReadonlyMap<string, number>;
  /** Fuel for a transaction when the run does not say (platform parameter max_fuel_tx). */
  defaultFuelLimit?: number;
  /** Fuel for each condition evaluation (they run with their own budget). */
  conditionFuelLimit?: number;
  /** Register the pure built-ins (Sprintf, Str, Int, JSONEncode, …). Default true. */
  pureBuiltins?: boolean;
}

export interface RunOptions {
  fuelLimit?: number;
  /** Wall-clock deadline, ms since epoch (e.g. block generation time limit). */
  deadline?: number;
  prices?: ReadonlyMap<string, number>;
  /** Ecosystem used to resolve an unprefixed contract name; default `$ecosystem_id` of the tx, else 1. */
  ecosystem?: number;
}

export interface RunResult {
  /** `$result` as text (Go `%v`), "" when unset. */
  result: string;
  /** `$result` itself. */
  value: Value;
  fuelUsed: number;
}

export interface EvalOptions {
  tx?: TxContext;
  /** Ecosystem the condition belongs to (for unprefixed names). Default `$ecosystem_id` of the tx, else 1. */
  ecosystem?: number;
  fuelLimit?: number;
  deadline?: number;
  prices?: ReadonlyMap<string, number>;
}

export interface RegisterOptions extends CompileOptions {
  /** Row data stored with each contract of the source (tableId, walletId, tokenId, conditions, appId …). */
  meta?: ContractMeta;
}

export interface ContractFieldInfo {
  name: string;
  type: string;
  optional: boolean;
}

export interface ContractInfo {
  name: string;
  key: string;
  /** 5000 + tableId (0 when the contract has no row). */
  id: number;
  tableId: number;
  ecosystem: number;
  fields: ContractFieldInfo[];
  settings: Record<string, Value>;
  meta: ContractMeta;
}

/** A thrown VmError also tells how much fuel was used, and how much memory reserved, before the failure. */
export interface VmFailure extends VmError {
  fuelUsed?: number;
  memoryReserved?: number;
}

/** The contract-language engine: compiled objects of all ecosystems, built-ins, and execution entry points. */
export class Vm {
  readonly builtins = new BuiltinRegistry();
  readonly registry = new ObjectRegistry();
  readonly options: Required<Omit<VmOptions, 'pureBuiltins'>>;
  private readonly evalCache = new Map<
    string,
    { func: CompiledFunc; funcVersion: number; builtinVersion: number }
  >();
  private readonly env: CompileEnv;
  /** Where `Println` writes; unset = discarded. */
  log: ((line: string) => void) | undefined = undefined;
  /**
   * Called each time an execution has made another RELEASE_STEP bytes, most of them garbage by then: the
   * host may ask the engine to collect it (V8 otherwise lets it pile up to hundreds of megabytes).
   */
  releaseMemory: (() => void) | undefined = undefined;

  constructor(options: VmOptions = {}) {
    this.options = {
      prices: options.prices ?? new Map(),
      defaultFuelLimit: options.defaultFuelLimit ?? DEFAULT_FUEL_LIMIT,
      conditionFuelLimit: options.conditionFuelLimit ?? DEFAULT_FUEL_LIMIT,
    };
    if (options.pureBuiltins !== false) registerPureBuiltins(this.builtins);
    this.env = {
      builtins: this.builtins,
      lookup: (key) => this.registry.get(key),
      callByKey: (state, key, args, named) => this.callByKey(state, key, args, named),
    };
  }

  /** Compiles without registering (validation, or to inspect names). Throws CompileError. */
  compile(source: string, options: CompileOptions): CompiledSource {
    return compileSource(source, this.env, options);
  }

  /**
   * Compiles a source and flushes its objects into the registry (inside the current registry transaction, if
   * any). Returns the top-level names (the first one names the contracts-table row) and the objects.
   */
  compileSource(source: string, options: RegisterOptions): CompiledSource {
    const compiled = compileSource(source, this.env, options);
    const replaced = new Set<string>();
    for (const object of compiled.objects) {
      if (object.kind === 'contract') object.meta = { ...(options.meta ?? {}) };
      if (object.kind === 'func' && this.registry.get(object.key)?.kind === 'func') replaced.add(object.key);
      this.registry.set(object);
    }
    if (replaced.size > 0) this.relinkCallers(replaced, new Set([originKey(compiled.origin)]));
    return compiled;
  }

  /**
   * Functions bind early (a call site holds the function compiled at that time), so when a top-level function
   * is replaced, every source whose code calls it is compiled again and re-registered, in the same registry
   * transaction; that may replace further functions, whose callers follow. Each source is compiled once per
   * change. A caller that no longer fits the new function (argument count, results) fails when it runs, as in
   * the reference, instead of blocking the change.
   */
  private relinkCallers(changed: ReadonlySet<string>, done: Set<string>): void {
    const callers = new Map<string, SourceOrigin>();
    for (const key of this.registry.keys()) {
      const origin = this.registry.get(key)?.origin;
      if (!origin || done.has(originKey(origin)) || callers.has(originKey(origin))) continue;
      for (const name of changed) {
        if (origin.dependsOn.has(name)) {
          callers.set(originKey(origin), origin);
          break;
        }
      }
    }
    for (const [identity, origin] of callers) {
      done.add(identity);
      let recompiled: CompiledSource;
      try {
        recompiled = compileSource(origin.source, this.env, {
          ecosystem: origin.ecosystem,
          global: origin.global,
          relink: true,
        });
      } catch {
        // Only callee-dependent checks differ from the first compile and those are off: keep the old code.
        continue;
      }
      const replaced = new Set<string>();
      for (const object of recompiled.objects) {
        const current = this.registry.get(object.key);
        // A later source may have taken the name over: that one stays.
        if (!current || current.origin !== origin) continue;
        if (object.kind === 'contract' && current.kind === 'contract') object.meta = current.meta;
        if (object.kind === 'func') replaced.add(object.key);
        this.registry.set(object);
      }
      if (replaced.size > 0) this.relinkCallers(replaced, done);
    }
  }

  /** Loads the language-level helpers (DBFind, DBRow, …): their functions become global (plain names). */
  loadPrelude(source: string): CompiledSource {
    return this.compileSource(source, { ecosystem: 0, global: true });
  }

  /** Top-level names of a source, in order, without compiling it (for NewContract/EditContract). */
  sourceNames(source: string): string[] {
    return parseSource(source).decls.map((decl) => decl.name);
  }

  /** EditContract's rule: the new source must declare exactly the same set of top-level names. */
  sameNames(oldSource: string, newSource: string): boolean {
    const before = new Set(this.sourceNames(oldSource));
    const after = new Set(this.sourceNames(newSource));
    return before.size === after.size && [...before].every((name) => after.has(name));
  }

  getContract(name: string, ecosystem = 1): CompiledContract | undefined {
    return this.registry.getContract(resolveContractKey(name, ecosystem));
  }

  /** What `GET /contract/{name}` shows about a contract. */
  contractInfo(name: string, ecosystem = 1): ContractInfo | undefined {
    const contract = this.getContract(name, ecosystem);
    if (!contract) return undefined;
    const tableId = contract.meta.tableId ?? 0;
    return {
      name: contract.key,
      key: contract.key,
      id: tableId > 0 ? tableId + CONTRACT_ID_OFFSET : 0,
      tableId,
      ecosystem: contract.ecosystem,
      fields: contract.fields.map((f) => ({ name: f.name, type: f.type, optional: f.optional })),
      settings: Object.fromEntries(contract.settings),
      meta: contract.meta,
    };
  }

  private newState(
    tx: TxContext,
    fuelLimit: number,
    deadline: number | undefined,
    prices: ReadonlyMap<string, number> | undefined,
    ecosystem: number,
  ): ExecState {
    return new ExecState(this, tx, {
      fuelLimit,
      deadline: deadline ?? Infinity,
      prices: prices ?? this.options.prices,
      ecosystem,
    });
  }

  private txEcosystem(tx: TxContext | undefined): number {
    const vars = tx?.vars;
    const value =
      vars instanceof Map
        ? vars.get('ecosystem_id')
        : (vars as Record<string, Value> | undefined)?.ecosystem_id;
    if (typeof value === 'bigint' && value > 0n) return Number(value);
    if (typeof value === 'number' && value > 0) return value;
    return 1;
  }

  /**
   * Runs a contract as a transaction: fuel starts with the contract's start cost, then conditions and action.
   * Throws a VmError (with `fuelUsed`) on failure.
   */
  async runContract(
    name: string,
    params: ReadonlyMap<string, Value>,
    tx: TxContext,
    options: RunOptions = {},
  ): Promise<RunResult> {
    const ecosystem = options.ecosystem ?? this.txEcosystem(tx);
    const contract = this.registry.getContract(resolveContractKey(name, ecosystem));
    if (!contract) throw panic(`unknown contract ${name}`);
    const state = this.newState(
      tx,
      options.fuelLimit ?? this.options.defaultFuelLimit,
      options.deadline,
      options.prices,
      contract.ecosystem,
    );
    clockStart();
    try {
      state.charge(contract.startCost);
      if (!state.system.has('original_contract')) state.system.set('original_contract', contract.name);
      const value = await this.invokeContract(state, contract, params, false);
      return { result: value === null ? '' : goString(value), value, fuelUsed: state.used };
    } catch (thrown) {
      const error = toVmError(thrown) as VmFailure;
      error.fuelUsed = Math.min(state.used, state.limit);
      error.memoryReserved = state.reservedTotal;
      throw error;
    } finally {
      clockStop();
    }
  }

  /**
   * Evaluates a permission/condition expression with its own fuel budget: `"0"`/`"1"`/`true`/`false` directly,
   * anything else compiled once as `func eval bool { return <expr> }` and cached by text.
   */
  async evalCondition(expression: string, options: EvalOptions = {}): Promise<boolean> {
    const text = expression.trim();
    if (text === '' || text === '0' || text === 'false') return false;
    if (text === '1' || text === 'true') return true;
    const tx = options.tx ?? {};
    const ecosystem = options.ecosystem ?? this.txEcosystem(tx);
    const func = this.conditionFunc(text, ecosystem);
    const state = this.newState(
      tx,
      options.fuelLimit ?? this.options.conditionFuelLimit,
      options.deadline,
      options.prices,
      ecosystem,
    );
    clockStart();
    try {
      const result = func.call(state, [], null);
      const value = isThenable(result) ? await result : result;
      return isTruthy(value as Value);
    } catch (thrown) {
      throw toVmError(thrown);
    } finally {
      clockStop();
    }
  }

  private conditionFunc(text: string, ecosystem: number): CompiledFunc {
    const cacheKey = `${ecosystem}\u0000${text}`;
    const cached = this.evalCache.get(cacheKey);
    if (
      cached &&
      cached.funcVersion === this.registry.funcVersion &&
      cached.builtinVersion === this.builtins.version
    ) {
      return cached.func;
    }
    let compiled: CompiledSource;
    try {
      compiled = compileSource(`func eval bool { return ${text}\n}`, this.env, { ecosystem });
    } catch (error) {
      if (error instanceof CompileError) throw panic(error.message);
      throw error;
    }
    const func = compiled.objects[0] as CompiledFunc;
    if (this.evalCache.size > 10_000) this.evalCache.clear();
    this.evalCache.set(cacheKey, {
      func,
      funcVersion: this.registry.funcVersion,
      builtinVersion: this.builtins.version,
    });
    return func;
  }

  /**
   * Runs only the `conditions` of a contract in a fresh state with its own budget (ContractConditions).
   * Resolves when they pass; throws their error otherwise.
   */
  async runConditions(name: string, options: EvalOptions = {}): Promise<void> {
    const tx = options.tx ?? {};
    const ecosystem = options.ecosystem ?? this.txEcosystem(tx);
    const contract = this.registry.getContract(resolveContractKey(name, ecosystem));
    if (!contract) throw panic(`unknown contract ${name}`);
    if (!contract.conditions) return;
    const state = this.newState(
      tx,
      options.fuelLimit ?? this.options.conditionFuelLimit,
      options.deadline,
      options.prices,
      contract.ecosystem,
    );
    state.contracts.push(contract);
    clockStart();
    try {
      const result = contract.conditions.call(state, [], null);
      if (isThenable(result)) await result;
    } catch (thrown) {
      throw toVmError(thrown);
    } finally {
      clockStop();
    }
  }

  /** `CallContract(name, params)` and host built-ins: run a contract nested in the current execution. */
  async callContractFrom(state: ExecState, name: string, params: ReadonlyMap<string, Value>): Promise<Value> {
    const key = resolveContractKey(name, state.ecosystem);
    const contract = this.registry.getContract(key);
    if (!contract) throw panic(`unknown contract ${key}`);
    return this.invokeContract(state, contract, params, true);
  }

  /** A contract call site (`Name(...)`, `@1Name("A,B", a, b)`), or an extern one that turned out to be a function. */
  private async callByKey(state: ExecState, key: string, args: Value[], named: boolean): Promise<FuncResult> {
    const object = this.registry.get(key);
    if (!object) throw panic(`unknown contract ${key}`);
    if (object.kind === 'func' && !named) {
      const result = object.call(state, args, null);
      return isThenable(result) ? await result : result;
    }
    if (object.kind === 'func') throw panic(`unknown contract ${key}`);
    const params = new Map<string, Value>();
    if (args.length > 0) {
      const names = args[0];
      if (typeof names !== 'string') throw panic('wrong contract parameters');
      const list = names === '' ? [] : names.split(',').map((n) => n.trim());
      if (list.length !== args.length - 1) throw panic('wrong contract parameters');
      list.forEach((fieldName, i) => params.set(fieldName, args[i + 1]));
    }
    return this.invokeContract(state, object, params, true, true);
  }

  /**
   * Runs a contract's conditions and action in a fresh `$` scope holding its data fields. A by-name call
   * (`C("A,ext", a, e)`) also sets every listed name that is not a field, as the reference does; a call with a
   * map (CallContract, a transaction) passes only the fields.
   */
  private async invokeContract(
    state: ExecState,
    contract: CompiledContract,
    params: ReadonlyMap<string, Value>,
    nested: boolean,
    setListedNames = false,
  ): Promise<Value> {
    for (const active of state.contracts) {
      if (active.key === contract.key) throw panic(`there is loop in ${contract.key} contract`);
    }
    if (state.depth + 1 > MAX_CALL_DEPTH) throw panic('max call depth');
    if (nested) state.charge(CONTRACT_CALL_PRICE);
    const scope = new Map<string, Value>();
    for (const field of contract.fields) {
      let value = params.get(field.name);
      if (value === undefined) {
        if (!field.optional) throw panic(`Parameter ${field.name} has not been found`);
        value = zeroValue(field.type);
      } else if (field.type === 'money' && value !== null) {
        value = toMoney(value);
      }
      scope.set(field.name, value);
    }
    if (setListedNames) {
      // System names stay read-only: a caller must not be able to hand the callee another $key_id.
      for (const [name, value] of params) {
        if (!scope.has(name) && !state.isSystemVar(name)) scope.set(name, value);
      }
    }
    const savedScope = state.extend;
    const savedEcosystem = state.ecosystem;
    const system = state.system;
    const savedThis = system.get('this_contract');
    const savedParent = system.get('parent');
    const savedStack = system.get('stack');
    // The reference names the calling contract without its ecosystem when it is the callee's, in full otherwise.
    const caller = state.contracts.at(-1);
    const parent = !caller ? '' : caller.ecosystem === contract.ecosystem ? caller.name : caller.key;
    state.outerScopes.push(savedScope);
    state.extend = scope;
    state.ecosystem = contract.ecosystem;
    state.contracts.push(contract);
    state.depth++;
    system.set('parent', parent);
    system.set('this_contract', contract.name);
    system.set(
      'stack',
      state.contracts.map((c) => c.key),
    );
    try {
      for (const section of [contract.conditions, contract.action]) {
        if (!section) continue;
        const result = section.call(state, [], null);
        if (isThenable(result)) await result;
      }
      const value = scope.get('result');
      return value === undefined ? null : value;
    } finally {
      state.depth--;
      state.contracts.pop();
      state.outerScopes.pop();
      state.extend = savedScope;
      state.ecosystem = savedEcosystem;
      restore(system, 'this_contract', savedThis);
      restore(system, 'parent', savedParent);
      restore(system, 'stack', savedStack);
    }
  }
}

/** Sources are the same when their text, ecosystem and prelude mode are. */
function originKey(origin: SourceOrigin): string {
  return `${origin.ecosystem}\u0000${origin.global ? 'g' : ''}\u0000${origin.source}`;
}

function restore(map: Map<string, Value>, key: string, value: Value | undefined): void {
  if (value === undefined) map.delete(key);
  else map.set(key, value);
}

export { VmError, CompileError };

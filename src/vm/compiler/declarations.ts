import type { CallExpr, ContractDecl, FuncDecl, Position, SourceAst } from '../ast';
import { SYSTEM_VAR_NAMES } from '../context';
import { UserFunc } from '../function';
import type {
  CompiledContract,
  CompiledFunc,
  CompiledObject,
  FieldInfo,
  ParamInfo,
  SourceOrigin,
  TailInfo,
} from '../objects';
import { parseSource } from '../parser';
import { checkConditions, propagateEffects } from './effects';
import type { CompileEnv, CompileOptions } from './environment';
import { fail, failBare } from './fail';
import { FunctionCompiler } from './function-body';
import { DATA_FIELD_NAME, objectKey, splitPrefixedName } from './names';
import { forEachCall, hasLoop } from './syntax-queries';
import type { CallTarget, ChainStep, ContractUnit, Unit } from './units';

export interface CompiledSource {
  /** Top-level names in declaration order (the first one names the contracts-table row). */
  names: string[];
  objects: CompiledObject[];
  ast: SourceAst;
  origin: SourceOrigin;
}

/** Compiles one source (one contracts-table row) into contract and function objects. */
export function compileSource(source: string, env: CompileEnv, options: CompileOptions): CompiledSource {
  return new SourceCompiler(source, env, options).compile();
}

export class SourceCompiler {
  private readonly ast: SourceAst;
  private readonly topUnits = new Map<string, Unit | ContractUnit>();
  private readonly units: Unit[] = [];
  private readonly contracts: ContractUnit[] = [];
  private readonly chains = new WeakMap<CallExpr, ChainStep[]>();
  /** Functions of other sources bound at compile time: a change to one of them recompiles this source. */
  private readonly boundFuncs = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly env: CompileEnv,
    private readonly options: CompileOptions,
  ) {
    this.ast = parseSource(source);
  }

  private keyOf(name: string, isContract: boolean): string {
    return this.options.global && !isContract ? name : objectKey(this.options.ecosystem, name);
  }

  compile(): CompiledSource {
    const names: string[] = [];
    for (const decl of this.ast.decls) {
      const key = this.keyOf(decl.name, decl.kind === 'contract');
      if (this.topUnits.has(key)) fail(`${decl.name} has been already declared`, decl);
      names.push(decl.name);
      if (decl.kind === 'contract') {
        const contract = this.declareContract(decl, key);
        this.topUnits.set(key, contract);
      } else {
        const unit = this.newUnit(decl, null, key, false);
        this.topUnits.set(key, unit);
      }
    }
    for (const unit of this.units) this.resolveUnitCalls(unit);
    propagateEffects(this.units, this.contracts);
    if (!this.options.relink) checkConditions(this.contracts);
    for (const unit of this.units) this.generate(unit);
    for (const unit of this.units) new FunctionCompiler(this, unit).compileBody();
    const origin: SourceOrigin = {
      source: this.source,
      ecosystem: this.options.ecosystem,
      global: this.options.global ?? false,
      dependsOn: this.boundFuncs,
    };
    for (const unit of this.units) unit.func!.origin = origin;
    const objects: CompiledObject[] = [];
    for (const decl of this.ast.decls) {
      const entry = this.topUnits.get(this.keyOf(decl.name, decl.kind === 'contract'))!;
      objects.push(
        'decl' in entry && entry.decl.kind === 'contract'
          ? this.buildContract(entry as ContractUnit, origin)
          : (entry as Unit).func!,
      );
    }
    return { names, objects, ast: this.ast, origin };
  }

  private newUnit(decl: FuncDecl, contract: ContractUnit | null, key: string, section: boolean): Unit {
    const unit: Unit = { decl, contract, key, section, calls: [], isAsync: false, writes: false, func: null };
    this.units.push(unit);
    return unit;
  }

  private declareContract(decl: ContractDecl, key: string): ContractUnit {
    const contract: ContractUnit = {
      decl,
      key,
      funcs: new Map(),
      sections: [],
      writes: false,
      compiled: null,
    };
    const fieldNames = new Set<string>();
    for (const field of decl.fields) {
      if (!DATA_FIELD_NAME.test(field.name)) fail(`wrong data field name ${field.name}`, field);
      if (SYSTEM_VAR_NAMES.has(field.name)) {
        failBare(
          `param variable '${field.name}' in the data section of the contract '${key}' collides with the 'builtin' variable`,
          field,
        );
      }
      if (fieldNames.has(field.name)) fail(`data field ${field.name} has been already declared`, field);
      fieldNames.add(field.name);
    }
    const settingNames = new Set<string>();
    for (const setting of decl.settings) {
      if (settingNames.has(setting.name)) fail(`setting ${setting.name} has been already declared`, setting);
      settingNames.add(setting.name);
    }
    for (const func of decl.funcs) {
      if (contract.funcs.has(func.name)) fail(`${func.name} has been already declared`, func);
      contract.funcs.set(func.name, this.newUnit(func, contract, `${key}.${func.name}`, false));
    }
    for (const section of [decl.conditions, decl.action]) {
      if (section) contract.sections.push(this.newUnit(section, contract, `${key}.${section.name}`, true));
    }
    this.contracts.push(contract);
    return contract;
  }

  private resolveName(name: string, prefixed: boolean, from: Unit, at: Position): CallTarget {
    const ecosystem = this.options.ecosystem;
    if (prefixed) {
      const parsed = splitPrefixedName(name);
      const key = objectKey(parsed.ecosystem, parsed.name);
      return (
        this.targetForKey(key, from, at) ??
        (this.options.extern ? { kind: 'extern', key } : failBare(`unknown identifier @${name}`, at))
      );
    }
    const local = from.contract?.funcs.get(name);
    if (local) return { kind: 'unit', unit: local };
    const own = this.targetForKey(objectKey(ecosystem, name), from, at);
    if (own) return own;
    if (this.options.global) {
      const global = this.topUnits.get(name);
      if (global && !('sections' in global)) return { kind: 'unit', unit: global as Unit };
    }
    const builtin = this.env.builtins.get(name);
    if (builtin) return { kind: 'builtin', builtin };
    const globalFunc = this.env.lookup(name);
    if (globalFunc && globalFunc.kind === 'func') {
      this.boundFuncs.add(globalFunc.key);
      return { kind: 'func', func: globalFunc };
    }
    if (this.options.extern) return { kind: 'extern', key: objectKey(ecosystem, name) };
    return failBare(`unknown identifier ${name}`, at);
  }

  private targetForKey(key: string, from: Unit, at: Position): CallTarget | null {
    const inSource = this.topUnits.get(key);
    if (inSource) {
      if ('sections' in inSource) {
        if (from.contract && from.contract.key === key)
          failBare(`the contract can't call itself recursively`, at);
        return { kind: 'contract', key, unit: inSource, writes: false };
      }
      return { kind: 'unit', unit: inSource };
    }
    const existing = this.env.lookup(key);
    if (!existing) return null;
    if (existing.kind === 'contract') {
      if (from.contract && from.contract.key === key)
        failBare(`the contract can't call itself recursively`, at);
      return { kind: 'contract', key, unit: null, writes: existing.writesDb };
    }
    this.boundFuncs.add(existing.key);
    return { kind: 'func', func: existing };
  }

  private tailsOf(target: CallTarget): Array<{ name: string }> | null {
    if (target.kind === 'unit') return target.unit.decl.tails;
    if (target.kind === 'func') return [...target.func.tails.values()];
    return null;
  }

  private resolveChain(call: CallExpr, from: Unit): ChainStep[] {
    const cached = this.chains.get(call);
    if (cached) return cached;
    const steps: ChainStep[] = [];
    let current: ChainStep = {
      target: this.resolveName(call.name, call.prefixed, from, call),
      groups: [call.args],
      tailIndexes: [],
      chained: false,
      position: call,
    };
    for (const tail of call.tails) {
      const declared = this.tailsOf(current.target);
      const tailIndex = declared ? declared.findIndex((t) => t.name === tail.name) : -1;
      if (tailIndex >= 0) {
        if (current.tailIndexes.includes(tailIndex)) fail(`tail ${tail.name} is repeated`, tail);
        current.groups.push(tail.args);
        current.tailIndexes.push(tailIndex);
        continue;
      }
      steps.push(current);
      let target: CallTarget;
      try {
        target = this.resolveName(tail.name, false, from, tail);
      } catch (error) {
        // After a function with tails, a name that is neither its tail nor a function: the reference's words.
        if (declared && declared.length > 0) failBare(`unknown function tail '${tail.name}'`, tail);
        throw error;
      }
      if (target.kind === 'contract' || target.kind === 'extern') {
        if (declared && declared.length > 0) failBare(`unknown function tail '${tail.name}'`, tail);
        fail(`unknown function ${tail.name}`, tail);
      }
      current = { target, groups: [tail.args], tailIndexes: [], chained: true, position: tail };
    }
    steps.push(current);
    this.chains.set(call, steps);
    return steps;
  }

  private resolveUnitCalls(unit: Unit): void {
    if (hasLoop(unit.decl.body)) unit.isAsync = true;
    forEachCall(unit.decl.body, (call) => {
      if (call.kind === 'extendCall') {
        const builtin = this.env.builtins.get('$' + call.name) ?? this.env.builtins.get(call.name);
        if (!builtin) fail(`unknown identifier $${call.name}`, call);
        unit.calls.push({ target: { kind: 'builtin', builtin }, position: call });
        return;
      }
      for (const step of this.resolveChain(call, unit))
        unit.calls.push({ target: step.target, position: step.position });
    });
  }

  private generate(unit: Unit): void {
    const decl = unit.decl;
    const params: ParamInfo[] = decl.params.map((p) => ({ name: p.name, type: p.type }));
    const tails = new Map<string, TailInfo>();
    decl.tails.forEach((tail, index) =>
      tails.set(tail.name, {
        name: tail.name,
        index,
        params: tail.params.map((p) => ({ name: p.name, type: p.type })),
        variadic: tail.variadic,
      }),
    );
    const func = new UserFunc(
      decl.name,
      unit.key,
      this.options.ecosystem,
      params,
      decl.variadic,
      tails,
      decl.results,
      decl.line,
      decl.column,
      !unit.section,
    );
    func.isAsync = unit.isAsync;
    func.writesDb = unit.writes;
    unit.func = func;
  }

  private buildContract(contract: ContractUnit, origin: SourceOrigin): CompiledContract {
    if (contract.compiled) return contract.compiled;
    const decl = contract.decl;
    const fields: FieldInfo[] = decl.fields.map((field) => ({
      name: field.name,
      type: field.type,
      tags: field.tags,
      optional: field.tags.includes('optional'),
    }));
    const funcs = new Map<string, CompiledFunc>();
    for (const [name, unit] of contract.funcs) funcs.set(name, unit.func!);
    const conditions = contract.sections.find((s) => s.decl.name === 'conditions')?.func ?? null;
    const action = contract.sections.find((s) => s.decl.name === 'action')?.func ?? null;
    const objectCount = contract.funcs.size + contract.sections.length;
    contract.compiled = {
      kind: 'contract',
      name: decl.name,
      key: contract.key,
      ecosystem: this.options.ecosystem,
      fields,
      settings: new Map(decl.settings.map((s) => [s.name, s.value])),
      funcs,
      conditions,
      action,
      writesDb: contract.writes,
      startCost: 100 + 50 * objectCount + 50 * decl.settings.length + 10 * decl.fields.length,
      source: this.source,
      origin,
      meta: {},
    };
    return contract.compiled;
  }

  chainOf(call: CallExpr, unit: Unit): ChainStep[] {
    return this.resolveChain(call, unit);
  }

  get compileEnv(): CompileEnv {
    return this.env;
  }

  get compileOptions(): CompileOptions {
    return this.options;
  }
}

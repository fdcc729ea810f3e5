import type {
  AssignStmt,
  Block,
  CallArg,
  CallExpr,
  ContractDecl,
  Expr,
  ExtendCallExpr,
  FuncDecl,
  Position,
  SourceAst,
  Stmt,
} from './ast';
import type { Builtin, BuiltinRegistry, BuiltinResult } from './builtins/registry';
import { SYSTEM_VAR_NAMES, type ExecState } from './context';
import { CompileError, panic, VmError } from './errors';
import type {
  CompiledContract,
  CompiledFunc,
  CompiledObject,
  FieldInfo,
  FuncResult,
  ParamInfo,
  SourceOrigin,
  TailInfo,
} from './objects';
import * as ops from './operators';
import { parseSource } from './parser';
import { arrayCost, mapCost, newStringCost, stringCost, valueCost } from './memory';
import {
  assignmentChecker,
  BREAK,
  CONTINUE,
  dropTemps,
  expandSpread,
  Frame,
  fuelOverflow,
  indexValue,
  isPromise,
  isThenable,
  NORMAL,
  readExtend,
  RETURN,
  setIndex,
  singleValue,
  writeExtend,
  type Signal,
} from './runtime';
import { goString } from './format';
import { UserFunc, type AnyFn } from './function';
export { FUNC_CALL_PRICE } from './function';
import {
  goTypeName,
  isTruthy,
  kindOf,
  kindOfType,
  Results,
  zeroValue,
  type TypeName,
  type Value,
} from './values';

export interface CompileOptions {
  /** Ecosystem that owns the source: its objects are keyed `@<ecosystem><Name>`. */
  ecosystem: number;
  /** Start-up loading: an unknown `Name(` is assumed to be a contract defined later. */
  extern?: boolean;
  /** Prelude mode: top-level functions are global (keyed by plain name), like the language-level built-ins. */
  global?: boolean;
  /**
   * Compiling again the callers of a function that was replaced: the checks that depend on that callee
   * (argument and result counts, conditions that write) are left to run time, as in the reference, whose call
   * sites simply run the new code.
   */
  relink?: boolean;
}

/** What the compiler needs from the VM. */
export interface CompileEnv {
  builtins: BuiltinRegistry;
  lookup(key: string): CompiledObject | undefined;
  /** Called by an extern call site: a contract (or a function loaded later) looked up at run time. */
  callByKey(state: ExecState, key: string, args: Value[], named: boolean): Promise<FuncResult>;
}

export interface CompiledSource {
  /** Top-level names in declaration order (the first one names the contracts-table row). */
  names: string[];
  objects: CompiledObject[];
  ast: SourceAst;
  origin: SourceOrigin;
}

export const DATA_FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
export const CONTRACT_CALL_PRICE = 100;

export function objectKey(ecosystem: number, name: string): string {
  return `@${ecosystem}${name}`;
}

/** `@1Name` → { ecosystem: 1, name: 'Name' }; `@Name` means ecosystem 1. */
export function splitPrefixedName(text: string): { ecosystem: number; name: string } {
  const match = /^(\d*)(.*)$/.exec(text)!;
  return { ecosystem: match[1] === '' ? 1 : Number(match[1]), name: match[2] };
}

/** The key a contract name resolves to from code of `ecosystem`: `@1X` as is, `@X` → `@1X`, `X` → `@<eco>X`. */
export function resolveContractKey(name: string, ecosystem: number): string {
  if (name.startsWith('@')) {
    const parsed = splitPrefixedName(name.slice(1));
    return objectKey(parsed.ecosystem, parsed.name);
  }
  return objectKey(ecosystem, name);
}

type CallTarget =
  | { kind: 'unit'; unit: Unit }
  | { kind: 'func'; func: CompiledFunc }
  | { kind: 'builtin'; builtin: Builtin }
  | { kind: 'contract'; key: string; unit: ContractUnit | null; writes: boolean }
  | { kind: 'extern'; key: string };

interface ChainStep {
  target: CallTarget;
  /** Argument groups in source order: the main arguments, then each tail's. */
  groups: CallArg[][];
  /** For each group after the first, the declared tail index it fills. */
  tailIndexes: number[];
  /** The previous step's value is passed as the first argument. */
  chained: boolean;
  position: Position;
}

interface Unit {
  decl: FuncDecl;
  contract: ContractUnit | null;
  key: string;
  /** Conditions/action sections are not charged as a function call. */
  section: boolean;
  calls: Array<{ target: CallTarget; position: Position }>;
  isAsync: boolean;
  writes: boolean;
  func: UserFunc | null;
}

interface ContractUnit {
  decl: ContractDecl;
  key: string;
  funcs: Map<string, Unit>;
  sections: Unit[];
  writes: boolean;
  compiled: CompiledContract | null;
}

interface CExpr {
  fn: AnyFn;
  isAsync: boolean;
  cost: number;
}
interface CStmt {
  fn: AnyFn;
  isAsync: boolean;
}

function fail(reason: string, at: Position): never {
  throw new CompileError(reason, at.line, at.column);
}

/** An error the reference's compiler reports without the position (its expression compiler's). */
function failBare(reason: string, at: Position): never {
  throw new CompileError(reason, at.line, at.column, false);
}

function forEachCall(block: Block, visit: (call: CallExpr | ExtendCallExpr) => void): void {
  const visitExpr = (expr: Expr): void => {
    switch (expr.kind) {
      case 'call':
        visit(expr);
        for (const arg of expr.args) visitExpr(arg.expr);
        for (const tail of expr.tails) for (const arg of tail.args) visitExpr(arg.expr);
        break;
      case 'extendCall':
        visit(expr);
        for (const arg of expr.args) visitExpr(arg.expr);
        break;
      case 'index':
        visitExpr(expr.index);
        break;
      case 'unary':
        visitExpr(expr.operand);
        break;
      case 'binary':
        visitExpr(expr.left);
        visitExpr(expr.right);
        break;
      case 'map':
        for (const [, value] of expr.entries) visitExpr(value);
        break;
      case 'array':
        for (const item of expr.items) visitExpr(item);
        break;
      default:
        break;
    }
  };
  const visitBlock = (b: Block): void => {
    for (const stmt of b.statements) visitStmt(stmt);
  };
  const visitStmt = (stmt: Stmt): void => {
    switch (stmt.kind) {
      case 'assign':
        for (const target of stmt.targets) if (target.kind === 'index') visitExpr(target.index);
        for (const value of stmt.values) visitExpr(value);
        break;
      case 'expr':
        visitExpr(stmt.expr);
        break;
      case 'if':
        visitExpr(stmt.condition);
        visitBlock(stmt.then);
        if (stmt.otherwise) visitBlock(stmt.otherwise);
        break;
      case 'while':
        visitExpr(stmt.condition);
        visitBlock(stmt.body);
        break;
      case 'return':
        for (const value of stmt.values) visitExpr(value);
        break;
      case 'throw':
        visitExpr(stmt.value);
        break;
      default:
        break;
    }
  };
  visitBlock(block);
}

function hasLoop(block: Block): boolean {
  return block.statements.some(
    (stmt) =>
      stmt.kind === 'while' ||
      (stmt.kind === 'if' && (hasLoop(stmt.then) || (stmt.otherwise !== null && hasLoop(stmt.otherwise)))),
  );
}

/** Compiles one source (one contracts-table row) into contract and function objects. */
export function compileSource(source: string, env: CompileEnv, options: CompileOptions): CompiledSource {
  return new SourceCompiler(source, env, options).compile();
}

class SourceCompiler {
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
    this.propagate();
    if (!this.options.relink) this.checkConditions();
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

  /**
   * Fixpoint over the source's call graph: which units may suspend and which reach a DB write. Besides the
   * calls that wait (async built-ins, contracts), a unit may suspend when it loops or calls a contract-language
   * function: those are the places that check the clock, so that neither loops nor recursion, however
   * deep or wide, run on without meeting it.
   */
  private propagate(): void {
    const contractWrites = (contract: ContractUnit): boolean =>
      contract.sections.some((section) => section.writes);
    let changed = true;
    while (changed) {
      changed = false;
      for (const unit of this.units) {
        let isAsync = unit.isAsync;
        let writes = unit.writes;
        for (const { target } of unit.calls) {
          switch (target.kind) {
            case 'unit':
              isAsync = true;
              writes ||= target.unit.writes;
              break;
            case 'func':
              isAsync = true;
              writes ||= target.func.writesDb;
              break;
            case 'builtin':
              isAsync ||= target.builtin.async;
              writes ||= target.builtin.writesDb;
              break;
            case 'contract':
              isAsync = true;
              writes ||= target.unit ? contractWrites(target.unit) : target.writes;
              break;
            case 'extern':
              isAsync = true;
              break;
          }
        }
        if (isAsync !== unit.isAsync || writes !== unit.writes) {
          unit.isAsync = isAsync;
          unit.writes = writes;
          changed = true;
        }
      }
    }
    for (const contract of this.contracts) {
      contract.writes = contractWrites(contract) || [...contract.funcs.values()].some((f) => f.writes);
    }
  }

  private checkConditions(): void {
    for (const contract of this.contracts) {
      const conditions = contract.sections.find((section) => section.decl.name === 'conditions');
      if (!conditions?.writes) continue;
      for (const { target, position } of conditions.calls) {
        const writes =
          target.kind === 'unit'
            ? target.unit.writes
            : target.kind === 'func'
              ? target.func.writesDb
              : target.kind === 'builtin'
                ? target.builtin.writesDb
                : target.kind === 'contract'
                  ? target.unit
                    ? target.unit.sections.some((s) => s.writes)
                    : target.writes
                  : false;
        if (writes)
          failBare(
            `'conditions' cannot call contracts or functions which can modify the blockchain database`,
            position,
          );
      }
    }
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

/** Stands for the index of a target that has none, so index lists line up with targets. */
const NO_INDEX: CExpr = { fn: () => null, isAsync: false, cost: 0 };

interface VarSlot {
  slot: number;
  type: TypeName;
  check: (value: Value) => Value;
}

class FunctionCompiler {
  private readonly scopes: Array<Map<string, VarSlot>> = [];
  private slotCount = 0;
  private loopDepth = 0;

  constructor(
    private readonly owner: SourceCompiler,
    private readonly unit: Unit,
  ) {}

  compileBody(): void {
    const func = this.unit.func as UserFunc;
    const decl = this.unit.decl;
    const scope = new Map<string, VarSlot>();
    this.scopes.push(scope);
    for (const param of decl.params) {
      this.declare(param.name, param.type ?? 'array', param);
    }
    decl.tails.forEach((tail, index) => {
      func.tailSlots[index] = tail.params.map(
        (param) => this.declare(param.name, param.type ?? 'array', param).slot,
      );
    });
    const body = this.compileBlock(decl.body, false);
    func.body = body.fn;
    func.slotCount = this.slotCount;
    if (body.isAsync && !func.isAsync) throw new Error('internal: async body in a synchronous function');
  }

  private declare(name: string, type: TypeName, at: Position): VarSlot {
    const scope = this.scopes[this.scopes.length - 1];
    if (scope.has(name)) fail(`variable ${name} has been already declared`, at);
    const slot: VarSlot = { slot: this.slotCount++, type, check: assignmentChecker(type, name) };
    scope.set(name, slot);
    return slot;
  }

  private lookupVar(name: string, at: Position): VarSlot {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return failBare(`unknown identifier ${name}`, at);
  }

  private compileBlock(block: Block, newScope = true): CStmt {
    if (newScope) this.scopes.push(new Map());
    const statements = block.statements.map((stmt) => this.compileStmt(stmt));
    if (newScope) this.scopes.pop();
    const isAsync = statements.some((s) => s.isAsync);
    const fns = statements.map((s) => s.fn);
    const count = fns.length;
    if (!isAsync) {
      if (count === 0) return { fn: () => NORMAL, isAsync };
      if (count === 1) return { fn: fns[0], isAsync };
      if (count === 2) {
        const [a, b] = fns as Array<(fr: Frame) => Signal>;
        return { fn: (fr: Frame) => a(fr) || b(fr), isAsync };
      }
      const syncFns = fns as Array<(fr: Frame) => Signal>;
      return {
        fn: (fr: Frame): Signal => {
          for (let i = 0; i < count; i++) {
            const signal = syncFns[i](fr);
            if (signal !== NORMAL) return signal;
          }
          return NORMAL;
        },
        isAsync,
      };
    }
    const steps = fns as Array<(fr: Frame) => MaybeSignal>;
    return {
      fn: (fr: Frame): MaybeSignal => {
        for (let i = 0; i < count; i++) {
          const signal = steps[i](fr);
          if (signal !== NORMAL) {
            return isPromise(signal) ? finishBlock(steps, i + 1, fr, signal as Promise<Signal>) : signal;
          }
        }
        return NORMAL;
      },
      isAsync,
    };
  }

  private compileStmt(stmt: Stmt): CStmt {
    switch (stmt.kind) {
      case 'varDecl': {
        const slots = stmt.vars.map((v) => this.declare(v.name, v.type, v));
        const cost = 1 + slots.length;
        const inits = slots.map((s) => ({ slot: s.slot, type: s.type }));
        const bytes = inits.reduce((sum, init) => sum + valueCost(zeroValue(init.type)), 0);
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (bytes > 0) fr.st.reserveMemory(bytes);
            for (const init of inits) fr.s[init.slot] = zeroValue(init.type);
            return NORMAL;
          },
          isAsync: false,
        };
      }
      case 'assign':
        return this.compileAssign(stmt);
      case 'expr': {
        const expr = this.compileCallLike(stmt.expr, false);
        const cost = 1 + expr.cost;
        const run = expr.fn;
        if (!expr.isAsync) {
          return {
            fn: (fr: Frame): Signal => {
              if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
              dropTemps(fr);
              run(fr);
              return NORMAL;
            },
            isAsync: false,
          };
        }
        return {
          fn: (fr: Frame): MaybeSignal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            dropTemps(fr);
            const done = run(fr);
            return isPromise(done) ? done.then(toNormal) : NORMAL;
          },
          isAsync: true,
        };
      }
      case 'if':
        return this.compileIf(stmt);
      case 'while':
        return this.compileWhile(stmt);
      case 'break':
      case 'continue': {
        if (this.loopDepth === 0) fail(`${stmt.kind} outside of a loop`, stmt);
        const signal: Signal = stmt.kind === 'break' ? BREAK : CONTINUE;
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= 1) < 0) fuelOverflow();
            return signal;
          },
          isAsync: false,
        };
      }
      case 'return':
        return this.compileReturn(stmt.values);
      case 'throw': {
        const value = this.compileExpr(stmt.value);
        const cost = 1 + value.cost;
        const level = stmt.level;
        const drop = hasCall(stmt.value);
        const get = value.fn;
        const raise = (text: unknown): never => {
          throw new VmError(level, goString(text as Value));
        };
        return {
          fn: (fr: Frame): MaybeSignal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (drop) dropTemps(fr);
            const text = get(fr);
            return isPromise(text) ? text.then(raise) : raise(text);
          },
          isAsync: value.isAsync,
        };
      }
    }
  }

  /**
   * `return [values]`, as the reference runs it: a function without results evaluates and drops the values;
   * otherwise the last values fill the declared results (fewer is a run-time error) and each must have its
   * declared type (nil fits any). `return f()` may pass on several results of `f`.
   */
  private compileReturn(values: Expr[]): CStmt {
    const decl = this.unit.decl;
    const results = decl.results;
    const passOn =
      values.length === 1 &&
      results.length > 1 &&
      (values[0].kind === 'call' || values[0].kind === 'extendCall');
    const compiled = passOn
      ? [this.compileCallLike(values[0] as CallExpr | ExtendCallExpr, false)]
      : values.map((v) => this.compileExpr(v));
    const cost = 1 + compiled.reduce((sum, c) => sum + c.cost, 0);
    const isAsync = compiled.some((c) => c.isAsync);
    const drop = values.some(hasCall);
    if (compiled.length === 0) {
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          return RETURN;
        },
        isAsync: false,
      };
    }
    const shape = returnShaper(decl.name, results);
    if (compiled.length === 1 && !passOn && results.length === 1) {
      const check = resultChecker(decl.name, results[0], 0);
      if (!isAsync) {
        const get = compiled[0].fn as (fr: Frame) => Value;
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (drop) dropTemps(fr);
            fr.ret = check(get(fr));
            return RETURN;
          },
          isAsync: false,
        };
      }
      const get = compiled[0].fn;
      const store = (fr: Frame, value: unknown): Signal => {
        fr.ret = check(value as Value);
        return RETURN;
      };
      return {
        fn: (fr: Frame): MaybeSignal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          const value = get(fr);
          return isPromise(value) ? value.then((v) => store(fr, v)) : store(fr, value);
        },
        isAsync: true,
      };
    }
    const list = this.listEvaluator(compiled);
    const get = list.fn;
    const store = (fr: Frame, out: Value[]): Signal => {
      const shaped = shape(
        passOn && (out[0] as unknown) instanceof Results ? (out[0] as unknown as Results).values : out,
      );
      if (shaped !== undefined) fr.ret = shaped;
      return RETURN;
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const out = get(fr);
        return isPromise(out) ? out.then((list) => store(fr, list as Value[])) : store(fr, out as Value[]);
      },
      isAsync,
    };
  }

  private compileIf(stmt: Extract<Stmt, { kind: 'if' }>): CStmt {
    const condition = this.compileExpr(stmt.condition);
    const then = this.compileBlock(stmt.then);
    const otherwise = stmt.otherwise ? this.compileBlock(stmt.otherwise) : null;
    const cost = 1 + condition.cost;
    const isAsync = condition.isAsync || then.isAsync || (otherwise?.isAsync ?? false);
    const drop = hasCall(stmt.condition);
    const cond = condition.fn as (fr: Frame) => Value;
    const thenFn = then.fn as (fr: Frame) => MaybeSignal;
    const elseFn = (otherwise?.fn ?? null) as ((fr: Frame) => MaybeSignal) | null;
    if (!isAsync) {
      const t = thenFn as (fr: Frame) => Signal;
      const e = elseFn as ((fr: Frame) => Signal) | null;
      return {
        fn: (fr: Frame): Signal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (isTruthy(cond(fr))) return t(fr);
          return e === null ? NORMAL : e(fr);
        },
        isAsync: false,
      };
    }
    const branch = (fr: Frame, value: Value): MaybeSignal =>
      isTruthy(value) ? thenFn(fr) : elseFn === null ? NORMAL : elseFn(fr);
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const value = cond(fr);
        return isPromise(value) ? value.then((v) => branch(fr, v as Value)) : branch(fr, value);
      },
      isAsync: true,
    };
  }

  /**
   * A loop checks the clock at every turn (one load of a shared counter): past the deadline it fails, and
   * after a time slice it pauses, so a loop is the one statement that may suspend without calling anything
   * that does. Its turns run synchronously until something returns a promise; from there an async copy of
   * the loop goes on.
   */
  private compileWhile(stmt: Extract<Stmt, { kind: 'while' }>): CStmt {
    const condition = this.compileExpr(stmt.condition);
    this.loopDepth++;
    const body = this.compileBlock(stmt.body);
    this.loopDepth--;
    const cost = 1 + condition.cost;
    const drop = hasCall(stmt.condition);
    const cond = condition.fn as (fr: Frame) => Value | Promise<Value>;
    const run = body.fn as (fr: Frame) => MaybeSignal;
    /** Goes on after `pending`: a pause before the condition, the condition's value, or the body's signal. */
    const resume = async (fr: Frame, pending: Promise<unknown>, stage: LoopStage): Promise<Signal> => {
      const st = fr.st;
      let value = await pending;
      for (;;) {
        if (stage === LoopStage.Body) {
          if (value === BREAK) return NORMAL;
          if (value === RETURN) return RETURN;
          if ((st.fuelLeft -= cost) < 0) fuelOverflow();
          if (--st.countdown < 0) await st.turn();
          stage = LoopStage.Turn;
        }
        if (stage === LoopStage.Turn) {
          if (drop) dropTemps(fr);
          value = cond(fr);
          if (isPromise(value)) value = await value;
        }
        if (!isTruthy(value as Value)) return NORMAL;
        value = run(fr);
        if (isPromise(value)) value = await value;
        stage = LoopStage.Body;
      }
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        const st = fr.st;
        for (;;) {
          if ((st.fuelLeft -= cost) < 0) fuelOverflow();
          if (--st.countdown < 0) {
            const pause = st.turn();
            if (pause !== undefined) return resume(fr, pause, LoopStage.Turn);
          }
          if (drop) dropTemps(fr);
          const value = cond(fr);
          if (isPromise(value)) return resume(fr, value, LoopStage.Condition);
          if (!isTruthy(value)) return NORMAL;
          const signal = run(fr);
          if (signal !== NORMAL) {
            if (isPromise(signal)) return resume(fr, signal, LoopStage.Body);
            if (signal === BREAK) return NORMAL;
            if (signal === RETURN) return RETURN;
          }
        }
      },
      isAsync: true,
    };
  }

  /** A setter for one assignment target, plus the static cost of evaluating its index. */
  private compileTarget(target: AssignStmt['targets'][number]): {
    set: (fr: Frame, value: Value) => void;
    index: CExpr | null;
    setIndexed: ((fr: Frame, key: Value, value: Value) => void) | null;
  } {
    if (target.kind === 'var') {
      const slot = this.lookupVar(target.name, target);
      const index = slot.slot;
      const check = slot.check;
      return {
        set: (fr, value) => {
          fr.s[index] = check(value);
        },
        index: null,
        setIndexed: null,
      };
    }
    if (target.kind === 'extend') {
      const name = target.name;
      if (SYSTEM_VAR_NAMES.has(name)) failBare(`system variable $${name} cannot be changed`, target);
      return { set: (fr, value) => writeExtend(fr.st, name, value), index: null, setIndexed: null };
    }
    const container = target.target;
    const key = this.compileExpr(target.index);
    if (container.kind === 'var') {
      const slot = this.lookupVar(container.name, container).slot;
      return {
        set: () => undefined,
        index: key,
        setIndexed: (fr, k, value) => setIndex(fr.st, fr.s[slot], k, value),
      };
    }
    const name = container.name;
    // Only the whole of a system variable is read-only, as in the reference: `$data[i] = row` changes the
    // value it holds in place (what a contract can reach of the $ variables the VM itself keeps, such as
    // $stack, is a copy made for each call).
    return {
      set: () => undefined,
      index: key,
      setIndexed: (fr, k, value) => setIndex(fr.st, readExtend(fr.st, name), k, value),
    };
  }

  /** `a, b = x, y`: every value is computed first (left to right), then the targets are set in order. */
  private compileTupleAssign(stmt: AssignStmt): CStmt {
    if (stmt.values.length !== stmt.targets.length) {
      fail(`assignment mismatch: ${stmt.targets.length} variables but ${stmt.values.length} values`, stmt);
    }
    const values = this.listEvaluator(stmt.values.map((v) => this.compileExpr(v)));
    const targets = stmt.targets.map((t) => this.compileTarget(t));
    const keys = this.listEvaluator(targets.map((t) => t.index ?? NO_INDEX));
    const cost = 1 + values.cost + keys.cost + targets.length;
    const drop = stmt.values.some(hasCall) || stmt.targets.some(targetHasCall);
    const assign = (fr: Frame, keyList: Value[], valueList: Value[]): Signal => {
      for (let i = 0; i < targets.length; i++) {
        const target = targets[i];
        if (target.setIndexed) target.setIndexed(fr, keyList[i], valueList[i]);
        else target.set(fr, valueList[i]);
      }
      return NORMAL;
    };
    const getKeys = keys.fn;
    const getValues = values.fn;
    const withKeys = (fr: Frame, keyList: Value[]): MaybeSignal => {
      const valueList = getValues(fr);
      return isPromise(valueList)
        ? valueList.then((list) => assign(fr, keyList, list as Value[]))
        : assign(fr, keyList, valueList as Value[]);
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const keyList = getKeys(fr);
        return isPromise(keyList)
          ? keyList.then((list) => withKeys(fr, list as Value[]))
          : withKeys(fr, keyList as Value[]);
      },
      isAsync: values.isAsync || keys.isAsync,
    };
  }

  private compileAssign(stmt: AssignStmt): CStmt {
    if (stmt.values.length > 1) return this.compileTupleAssign(stmt);
    const source = stmt.values[0];
    const value =
      source.kind === 'call' || source.kind === 'extendCall'
        ? this.compileCallLike(source, stmt.targets.length === 1)
        : this.compileExpr(source);
    const targets = stmt.targets.map((t) => this.compileTarget(t));
    const indexCost = targets.reduce((sum, t) => sum + (t.index ? t.index.cost : 0), 0);
    const cost = 1 + value.cost + indexCost + targets.length;
    const isAsync = value.isAsync || targets.some((t) => t.index?.isAsync);
    const drop = hasCall(source) || stmt.targets.some(targetHasCall);
    const get = value.fn;
    if (targets.length === 1) {
      const target = targets[0];
      if (target.index === null) {
        const set = target.set;
        if (!isAsync) {
          const v = get as (fr: Frame) => Value;
          return {
            fn: (fr: Frame): Signal => {
              if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
              if (drop) dropTemps(fr);
              set(fr, v(fr));
              return NORMAL;
            },
            isAsync: false,
          };
        }
        const setNormal = (fr: Frame, result: unknown): Signal => {
          set(fr, result as Value);
          return NORMAL;
        };
        return {
          fn: (fr: Frame): MaybeSignal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (drop) dropTemps(fr);
            const result = get(fr);
            return isPromise(result) ? result.then((r) => setNormal(fr, r)) : setNormal(fr, result);
          },
          isAsync: true,
        };
      }
      const k = target.index.fn;
      const setIndexed = target.setIndexed!;
      if (!isAsync) {
        const key = k as (fr: Frame) => Value;
        const v = get as (fr: Frame) => Value;
        return {
          fn: (fr: Frame): Signal => {
            if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
            if (drop) dropTemps(fr);
            const at = key(fr);
            setIndexed(fr, at, v(fr));
            return NORMAL;
          },
          isAsync: false,
        };
      }
      const storeAt = (fr: Frame, at: Value, result: unknown): Signal => {
        setIndexed(fr, at, result as Value);
        return NORMAL;
      };
      const withKey = (fr: Frame, at: Value): MaybeSignal => {
        const result = get(fr);
        return isPromise(result) ? result.then((r) => storeAt(fr, at, r)) : storeAt(fr, at, result);
      };
      return {
        fn: (fr: Frame): MaybeSignal => {
          if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
          if (drop) dropTemps(fr);
          const at = k(fr);
          return isPromise(at) ? at.then((a) => withKey(fr, a as Value)) : withKey(fr, at as Value);
        },
        isAsync: true,
      };
    }
    const count = targets.length;
    const assignAll = (fr: Frame, keys: Value[], result: unknown): Signal => {
      if (!(result instanceof Results) || result.values.length !== count) {
        const got = result instanceof Results ? result.values.length : 1;
        throw panic(`assignment mismatch: ${count} variables but ${got} values`);
      }
      const values = result.values;
      for (let i = 0; i < count; i++) {
        const target = targets[i];
        if (target.setIndexed) target.setIndexed(fr, keys[i], values[i]);
        else target.set(fr, values[i]);
      }
      return NORMAL;
    };
    const keys = this.listEvaluator(targets.map((t) => t.index ?? NO_INDEX));
    const getKeys = keys.fn;
    const withKeys = (fr: Frame, keyList: Value[]): MaybeSignal => {
      const result = get(fr);
      return isPromise(result)
        ? result.then((r) => assignAll(fr, keyList, r))
        : assignAll(fr, keyList, result);
    };
    return {
      fn: (fr: Frame): MaybeSignal => {
        if ((fr.st.fuelLeft -= cost) < 0) fuelOverflow();
        if (drop) dropTemps(fr);
        const keyList = getKeys(fr);
        return isPromise(keyList)
          ? keyList.then((list) => withKeys(fr, list as Value[]))
          : withKeys(fr, keyList as Value[]);
      },
      isAsync,
    };
  }

  /** Evaluates expressions left to right into an array. */
  private listEvaluator(items: CExpr[], spreads?: boolean[]): CExpr {
    const fns = items.map((i) => i.fn);
    const count = fns.length;
    const isAsync = items.some((i) => i.isAsync);
    const cost = items.reduce((sum, i) => sum + i.cost, 0);
    const hasSpread = spreads?.some(Boolean) ?? false;
    if (!isAsync) {
      const sync = fns as Array<(fr: Frame) => Value>;
      if (!hasSpread) {
        if (count === 0) return { fn: () => [], isAsync, cost };
        if (count === 1) {
          const a = sync[0];
          return { fn: (fr: Frame) => [a(fr)], isAsync, cost };
        }
        if (count === 2) {
          const [a, b] = sync;
          return { fn: (fr: Frame) => [a(fr), b(fr)], isAsync, cost };
        }
        return {
          fn: (fr: Frame) => {
            const out = new Array<Value>(count);
            for (let i = 0; i < count; i++) out[i] = sync[i](fr);
            return out;
          },
          isAsync,
          cost,
        };
      }
      return {
        fn: (fr: Frame) => {
          const out: Value[] = [];
          for (let i = 0; i < count; i++) {
            const value = sync[i](fr);
            if (spreads![i]) expandSpread(value, out);
            else out.push(value);
          }
          return out;
        },
        isAsync,
        cost,
      };
    }
    const spreadAt = spreads ?? [];
    return {
      fn: (fr: Frame) => {
        const out: Value[] = [];
        for (let i = 0; i < count; i++) {
          const value = fns[i](fr);
          if (isPromise(value)) return finishList(fns, spreadAt, i, fr, out, value);
          if (spreadAt[i]) expandSpread(value as Value, out);
          else out.push(value as Value);
        }
        return out;
      },
      isAsync,
      cost,
    };
  }

  compileExpr(expr: Expr): CExpr {
    switch (expr.kind) {
      case 'literal': {
        const value = expr.value;
        return { fn: () => value, isAsync: false, cost: 1 };
      }
      case 'var': {
        const slot = this.lookupVar(expr.name, expr).slot;
        return { fn: (fr: Frame) => fr.s[slot], isAsync: false, cost: 1 };
      }
      case 'extend': {
        const name = expr.name;
        return { fn: (fr: Frame) => readExtend(fr.st, name), isAsync: false, cost: 10 };
      }
      case 'index': {
        const key = this.compileExpr(expr.index);
        const container = this.compileExpr(expr.target);
        return this.combine2((c, k) => indexValue(c, k), container, key, 1);
      }
      case 'unary': {
        const operand = this.compileExpr(expr.operand);
        const op = expr.operator === '-' ? ops.negate : ops.not;
        return this.combine1(op, operand);
      }
      case 'binary': {
        const left = this.compileExpr(expr.left);
        const right = this.compileExpr(expr.right);
        return this.compileBinary(expr.operator, left, right);
      }
      case 'map': {
        const keys = expr.entries.map(([key]) => key);
        const values = this.listEvaluator(expr.entries.map(([, value]) => this.compileExpr(value)));
        const bytes = mapCost(keys.length) + keys.reduce((sum, key) => sum + stringCost(key), 0);
        const build = (st: ExecState, list: Value[]): Value => {
          st.reserveMemory(bytes);
          const map = new Map<string, Value>();
          for (let i = 0; i < keys.length; i++) map.set(keys[i], list[i]);
          return map;
        };
        return this.mapList(values, build);
      }
      case 'array': {
        const values = this.listEvaluator(expr.items.map((item) => this.compileExpr(item)));
        const bytes = arrayCost(expr.items.length);
        return this.mapList(values, (st, list) => {
          st.reserveMemory(bytes);
          return list;
        });
      }
      case 'call':
      case 'extendCall':
        return this.compileCallLike(expr, true);
    }
  }

  private mapList(list: CExpr, build: (st: ExecState, values: Value[]) => Value): CExpr {
    const cost = 1 + list.cost;
    const get = list.fn;
    if (!list.isAsync) return { fn: (fr: Frame) => build(fr.st, get(fr) as Value[]), isAsync: false, cost };
    return {
      fn: (fr: Frame) => {
        const values = get(fr);
        return isPromise(values)
          ? values.then((v) => build(fr.st, v as Value[]))
          : build(fr.st, values as Value[]);
      },
      isAsync: true,
      cost,
    };
  }

  private combine1(op: (a: Value) => Value, operand: CExpr): CExpr {
    const get = operand.fn;
    const cost = 1 + operand.cost;
    if (!operand.isAsync) {
      const a = get as (fr: Frame) => Value;
      return { fn: (fr: Frame) => op(a(fr)), isAsync: false, cost };
    }
    return {
      fn: (fr: Frame) => {
        const a = get(fr);
        return isPromise(a) ? a.then((v) => op(v as Value)) : op(a as Value);
      },
      isAsync: true,
      cost,
    };
  }

  /** Two operands evaluated left to right, then `op`; only waits where an operand returned a promise. */
  private combine2(
    op: (a: Value, b: Value, fr: Frame) => Value,
    left: CExpr,
    right: CExpr,
    ownCost: number,
  ): CExpr {
    const cost = ownCost + left.cost + right.cost;
    const l = left.fn;
    const r = right.fn;
    if (!left.isAsync && !right.isAsync) {
      const a = l as (fr: Frame) => Value;
      const b = r as (fr: Frame) => Value;
      return { fn: (fr: Frame) => op(a(fr), b(fr), fr), isAsync: false, cost };
    }
    const withLeft = (fr: Frame, a: Value): unknown => {
      const b = r(fr);
      return isPromise(b) ? b.then((v) => op(a, v as Value, fr)) : op(a, b as Value, fr);
    };
    return {
      fn: (fr: Frame) => {
        const a = l(fr);
        return isPromise(a) ? a.then((v) => withLeft(fr, v as Value)) : withLeft(fr, a as Value);
      },
      isAsync: true,
      cost,
    };
  }

  private compileBinary(operator: string, left: CExpr, right: CExpr): CExpr {
    if (left.isAsync || right.isAsync) {
      const op = BINARY_OPS[operator];
      return this.combine2(op, left, right, 1);
    }
    const cost = 1 + left.cost + right.cost;
    const l = left.fn as (fr: Frame) => Value;
    const r = right.fn as (fr: Frame) => Value;
    let fn: (fr: Frame) => Value;
    // One closure per operator so V8 can inline the operator function at each site.
    switch (operator) {
      case '+':
        fn = (fr) => {
          const a = l(fr);
          const b = r(fr);
          return typeof a === 'bigint' && typeof b === 'bigint' ? ops.add(a, b) : addValues(a, b, fr);
        };
        break;
      case '-':
        fn = (fr) => ops.sub(l(fr), r(fr));
        break;
      case '*':
        fn = (fr) => ops.mul(l(fr), r(fr));
        break;
      case '/':
        fn = (fr) => ops.div(l(fr), r(fr));
        break;
      case '<':
        fn = (fr) => ops.lt(l(fr), r(fr));
        break;
      case '<=':
        fn = (fr) => ops.le(l(fr), r(fr));
        break;
      case '>':
        fn = (fr) => ops.gt(l(fr), r(fr));
        break;
      case '>=':
        fn = (fr) => ops.ge(l(fr), r(fr));
        break;
      case '==':
        fn = (fr) => ops.eq(l(fr), r(fr));
        break;
      case '!=':
        fn = (fr) => ops.ne(l(fr), r(fr));
        break;
      case '&&':
        // Both sides are always evaluated, as in the reference.
        fn = (fr) => {
          const a = l(fr);
          const b = r(fr);
          return isTruthy(a) && isTruthy(b);
        };
        break;
      default:
        fn = (fr) => {
          const a = l(fr);
          const b = r(fr);
          return isTruthy(a) || isTruthy(b);
        };
        break;
    }
    return { fn, isAsync: false, cost };
  }

  private compileArgs(args: CallArg[]): CExpr {
    return this.listEvaluator(
      args.map((a) => this.compileExpr(a.expr)),
      args.map((a) => a.spread),
    );
  }

  compileCallLike(expr: CallExpr | ExtendCallExpr, valueContext: boolean): CExpr {
    if (expr.kind === 'extendCall') {
      const builtin =
        this.owner.compileEnv.builtins.get('$' + expr.name) ?? this.owner.compileEnv.builtins.get(expr.name)!;
      return this.invokeBuiltin(builtin, [this.compileArgs(expr.args)], valueContext);
    }
    const steps = this.owner.chainOf(expr, this.unit);
    let previous: CExpr | null = null;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const groups = step.groups.map((group, g) => {
        const list = this.compileArgs(group);
        if (g === 0 && previous) return this.prepend(previous, list);
        return list;
      });
      const isLast = i === steps.length - 1;
      previous = this.invoke(step, groups, isLast ? valueContext : true);
    }
    return previous!;
  }

  private prepend(first: CExpr, rest: CExpr): CExpr {
    return this.combine2((head, tail) => [head, ...(tail as Value[])], first, rest, 0);
  }

  private checkArity(expected: readonly [number, number] | null, name: string, step: ChainStep): void {
    if (!expected) return;
    const main = step.groups[0];
    if (main.some((a) => a.spread)) return;
    const count = main.length + (step.chained ? 1 : 0);
    if (count < expected[0] || count > expected[1]) {
      if (expected[0] === expected[1])
        failBare(`function ${name} must have ${expected[0]} parameters`, step.position);
      fail(`wrong count of parameters`, step.position);
    }
  }

  private invoke(step: ChainStep, groups: CExpr[], valueContext: boolean): CExpr {
    const target = step.target;
    switch (target.kind) {
      case 'builtin':
        if (step.groups.length > 1) fail(`unknown tail for ${target.builtin.name}`, step.position);
        this.checkArity(target.builtin.params, target.builtin.name, step);
        return this.invokeBuiltin(target.builtin, groups, valueContext);
      case 'unit':
      case 'func': {
        const declared = target.kind === 'unit' ? target.unit.decl : null;
        const paramCount = declared
          ? declared.params.length
          : target.kind === 'func'
            ? target.func.params.length
            : 0;
        const variadic = declared ? declared.variadic : target.kind === 'func' ? target.func.variadic : false;
        const name = declared ? declared.name : target.kind === 'func' ? target.func.name : '';
        const min = variadic ? paramCount - 1 : paramCount;
        // A function of another source may change under a relinked caller: its counts are checked when it runs.
        const checkedNow = !(target.kind === 'func' && this.owner.compileOptions.relink);
        if (checkedNow) this.checkArity([min, variadic ? Infinity : paramCount], name, step);
        const results = declared
          ? declared.results.length
          : target.kind === 'func'
            ? target.func.results.length
            : 1;
        if (checkedNow && valueContext && results > 1)
          fail(`multiple-value ${name}() in single-value context`, step.position);
        const unit = target.kind === 'unit' ? target.unit : null;
        const fixedFunc = target.kind === 'func' ? target.func : null;
        const isAsync = unit ? unit.isAsync : fixedFunc!.isAsync;
        const unwrap = valueContext && !checkedNow;
        return this.invokeUser(() => (unit ? unit.func! : fixedFunc!), isAsync, groups, step, unwrap);
      }
      case 'contract':
      case 'extern': {
        if (step.groups.length > 1) fail(`unexpected tail after a contract call`, step.position);
        const key = target.key;
        const args = groups[0];
        const get = args.fn;
        const env = this.owner.compileEnv;
        const named = target.kind === 'contract';
        return {
          fn: async (fr: Frame) => {
            let values = get(fr);
            if (isPromise(values)) values = await values;
            const value = singleValue(await env.callByKey(fr.st, key, values as Value[], named));
            fr.st.keep(value);
            return value;
          },
          isAsync: true,
          cost: 1 + args.cost,
        };
      }
    }
  }

  /** `unwrap`: the call is in value context but its result count was not checked at compile time. */
  private invokeUser(
    resolve: () => CompiledFunc,
    isAsync: boolean,
    groups: CExpr[],
    step: ChainStep,
    unwrap: boolean,
  ): CExpr {
    const singleValueOrResults = unwrap ? singleValue : passResults;
    const cost = 1 + groups.reduce((sum, g) => sum + g.cost, 0);
    const argsFn = groups[0].fn;
    const tailFns = groups.slice(1).map((g) => g.fn);
    const tailIndexes = step.tailIndexes;
    const argsAsync = groups.some((g) => g.isAsync);
    if (!isAsync && !argsAsync) {
      const getArgs = argsFn as (fr: Frame) => Value[];
      if (tailFns.length === 0) {
        return {
          fn: (fr: Frame) => singleValueOrResults(resolve().call(fr.st, getArgs(fr), null) as FuncResult),
          isAsync: false,
          cost,
        };
      }
      return {
        fn: (fr: Frame) => {
          const args = getArgs(fr);
          const tailArgs: Array<Value[] | undefined> = [];
          for (let i = 0; i < tailFns.length; i++) tailArgs[tailIndexes[i]] = tailFns[i](fr) as Value[];
          return singleValueOrResults(resolve().call(fr.st, args, tailArgs) as FuncResult);
        },
        isAsync: false,
        cost,
      };
    }
    const finish = (result: unknown): unknown =>
      isPromise(result)
        ? result.then((r) => singleValueOrResults(r as FuncResult))
        : singleValueOrResults(result as FuncResult);
    if (tailFns.length === 0) {
      const call = (fr: Frame, args: Value[]): unknown => finish(resolve().call(fr.st, args, null));
      return {
        fn: (fr: Frame) => {
          const args = argsFn(fr);
          return isPromise(args) ? args.then((a) => call(fr, a as Value[])) : call(fr, args as Value[]);
        },
        isAsync: true,
        cost,
      };
    }
    const callWith = (fr: Frame, lists: Value[][]): unknown => {
      const tailArgs: Array<Value[] | undefined> | null = tailFns.length > 0 ? [] : null;
      for (let i = 0; i < tailFns.length; i++) tailArgs![tailIndexes[i]] = lists[i + 1];
      return finish(resolve().call(fr.st, lists[0], tailArgs));
    };
    const allGroups = [argsFn, ...tailFns];
    return {
      fn: (fr: Frame) => {
        const lists = evaluateGroups(allGroups, fr);
        return isPromise(lists) ? lists.then((l) => callWith(fr, l)) : callWith(fr, lists);
      },
      isAsync: true,
      cost,
    };
  }

  /**
   * A built-in call. Its result stays visible to the memory count while the expression uses it; an async
   * built-in may answer synchronously, and then nothing waits.
   */
  private invokeBuiltin(builtin: Builtin, groups: CExpr[], valueContext: boolean): CExpr {
    const args = groups[0];
    const cost = 1 + args.cost;
    const fn = builtin.fn;
    const priceKey = builtin.priceKey;
    const defaultPrice = builtin.price;
    const name = builtin.name;
    const get = args.fn;
    const charge = (st: ExecState): void => {
      const price = st.prices.get(priceKey);
      if ((st.fuelLeft -= price === undefined ? defaultPrice : price) < 0) fuelOverflow();
    };
    const settles = !builtin.reserves;
    const finish = (st: ExecState, result: BuiltinResult, args: Value[]): Value | Results => {
      if (result === undefined) return null;
      const value = valueContext && result instanceof Results ? singleValue(result) : result;
      if (settles) settleBuiltin(st, args, result);
      if (!(value instanceof Results)) st.keep(value);
      return value;
    };
    if (!builtin.async && !args.isAsync) {
      const getArgs = get as (fr: Frame) => Value[];
      return {
        fn: (fr: Frame) => {
          const values = getArgs(fr);
          const st = fr.st;
          charge(st);
          const result = fn(st, ...values);
          if (isThenable(result))
            throw panic(`built-in ${name} returned a promise but is registered as synchronous`);
          return finish(st, result, values);
        },
        isAsync: false,
        cost,
      };
    }
    const callWith = (st: ExecState, values: Value[]): unknown => {
      charge(st);
      const result = fn(st, ...values);
      if (!isThenable(result)) {
        const value = finish(st, result, values);
        // Work a call charged brings the clock nearer: after a long one, the execution may pause here.
        if (st.countdown < 0) {
          const pause = st.turn();
          if (pause !== undefined) return pause.then(() => value);
        }
        return value;
      }
      if (!builtin.async) throw panic(`built-in ${name} returned a promise but is registered as synchronous`);
      return Promise.resolve(result).then((r) => {
        // It waited (for the database, say): the next loop turn or call looks at the clock.
        st.countdown = 0;
        return finish(st, r, values);
      });
    };
    return {
      fn: (fr: Frame) => {
        const values = get(fr);
        return isPromise(values)
          ? values.then((v) => callWith(fr.st, v as Value[]))
          : callWith(fr.st, values as Value[]);
      },
      isAsync: true,
      cost,
    };
  }
}

type MaybeSignal = Signal | Promise<Signal>;

const toNormal = (): Signal => NORMAL;

const enum LoopStage {
  /** Waiting for a pause: the turn's condition comes next. */
  Turn,
  /** Waiting for the condition's value. */
  Condition,
  /** Waiting for the body's signal. */
  Body,
}

/** Only calls leave temporaries (`ExecState.temps`): statements without one need not clear them. */
function hasCall(expr: Expr): boolean {
  switch (expr.kind) {
    case 'call':
    case 'extendCall':
      return true;
    case 'index':
      return hasCall(expr.index) || hasCall(expr.target);
    case 'unary':
      return hasCall(expr.operand);
    case 'binary':
      return hasCall(expr.left) || hasCall(expr.right);
    case 'map':
      return expr.entries.some(([, value]) => hasCall(value));
    case 'array':
      return expr.items.some(hasCall);
    default:
      return false;
  }
}

function targetHasCall(target: AssignStmt['targets'][number]): boolean {
  return target.kind === 'index' && hasCall(target.index);
}

/** The rest of a statement list once one statement returned a promise. */
async function finishBlock(
  steps: ReadonlyArray<(fr: Frame) => MaybeSignal>,
  from: number,
  fr: Frame,
  pending: Promise<Signal>,
): Promise<Signal> {
  const first = await pending;
  if (first !== NORMAL) return first;
  for (let i = from; i < steps.length; i++) {
    let signal = steps[i](fr);
    if (isPromise(signal)) signal = await signal;
    if (signal !== NORMAL) return signal;
  }
  return NORMAL;
}

/** The rest of a list once one item returned a promise. */
async function finishList(
  fns: readonly AnyFn[],
  spreads: readonly boolean[],
  at: number,
  fr: Frame,
  out: Value[],
  pending: Promise<unknown>,
): Promise<Value[]> {
  let value = await pending;
  for (let i = at; ;) {
    if (spreads[i]) expandSpread(value as Value, out);
    else out.push(value as Value);
    if (++i >= fns.length) return out;
    value = fns[i](fr);
    if (isPromise(value)) value = await value;
  }
}

/** A call's argument groups (main arguments, then each tail's), waiting only where one returns a promise. */
function evaluateGroups(groups: readonly AnyFn[], fr: Frame): Value[][] | Promise<Value[][]> {
  const lists: Value[][] = [];
  for (let i = 0; i < groups.length; i++) {
    const list = groups[i](fr);
    if (isPromise(list)) {
      return (async () => {
        lists.push((await list) as Value[]);
        for (let j = i + 1; j < groups.length; j++) {
          let next = groups[j](fr);
          if (isPromise(next)) next = await next;
          lists.push(next as Value[]);
        }
        return lists;
      })();
    }
    lists.push(list as Value[]);
  }
  return lists;
}

/** Work units of a value a built-in was given or gave back: its characters, bytes or elements. */
function workOf(value: Value): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length;
  return value instanceof Map ? value.size : 0;
}

/**
 * A built-in that does not size its own results (host built-ins, small pure ones) is charged for the text,
 * bytes and elements it was given and gave back, and what it returned is reserved once it exists.
 */
function settleBuiltin(st: ExecState, args: Value[], result: Value | Results): void {
  let units = 0;
  for (const arg of args) units += workOf(arg);
  for (const value of result instanceof Results ? result.values : [result]) {
    units += workOf(value);
    if (typeof value === 'string' ? value.length > 1 : typeof value === 'object' && value !== null) {
      st.reserveMemory(valueCost(value));
    }
  }
  st.chargeWork(units);
}

/** `a + b` for anything but two ints: joined strings reserve their memory first. */
function addValues(a: Value, b: Value, fr: Frame): Value {
  if (typeof a === 'string' && typeof b === 'string') {
    fr.st.reserveMemory(newStringCost(a.length + b.length));
    return a + b;
  }
  return ops.add(a, b);
}

/** A declared result type as Go names it in the reference's messages. */
function goNameOfType(type: TypeName): string {
  return goTypeName(zeroValue(type));
}

/** The reference's run-time check of a returned value against its declared result type. */
function resultChecker(funcName: string, type: TypeName, index: number): (value: Value) => Value {
  const kind = kindOfType(type);
  return (value) => {
    if (value === null || kindOf(value) === kind) return value;
    throw panic(
      `function '${funcName}' return index[${index}] (type ${goTypeName(value)}) cannot be represented by the type ${goNameOfType(type)}`,
    );
  };
}

/**
 * What a `return` with values leaves as the function's result: nothing for a function without results, else the
 * last values (one per declared result), each checked against its type.
 */
function returnShaper(
  funcName: string,
  results: readonly TypeName[],
): (values: Value[]) => FuncResult | undefined {
  if (results.length === 0) return () => undefined;
  const checks = results.map((type, index) => resultChecker(funcName, type, index));
  const needed = results.map(goNameOfType).join('|');
  return (values) => {
    if (values.length < results.length) {
      throw panic(`func '${funcName}' not enough arguments to return, need [${needed}]`);
    }
    const kept = values.slice(values.length - results.length).map((value, i) => checks[i](value));
    return kept.length === 1 ? kept[0] : new Results(kept);
  };
}

/** Results pass through for multi-assignment; callers in value context are checked at compile time. */
function passResults(result: FuncResult): FuncResult {
  return result;
}

const BINARY_OPS: Record<string, (a: Value, b: Value) => Value> = {
  '+': ops.add,
  '-': ops.sub,
  '*': ops.mul,
  '/': ops.div,
  '<': ops.lt,
  '<=': ops.le,
  '>': ops.gt,
  '>=': ops.ge,
  '==': ops.eq,
  '!=': ops.ne,
  '&&': ops.and,
  '||': ops.or,
};

export { SourceCompiler };

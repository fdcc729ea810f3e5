import { panic, VmError } from './errors';
import type { CompiledContract } from './objects';
import type { Frame } from './runtime';
import { memorySize, type Value } from './values';
import type { Vm } from './index';

/** What the host tells the VM about the transaction being executed. */
export interface TxContext {
  /**
   * System `$` variables by name without `$`: key_id, account_id, ecosystem_id, time, block, block_time,
   * block_key_id, node_position, type, txhash, txcost, guest_key, guest_account, black_hole_key, … .
   * Every name given here is read-only for contracts.
   */
  vars?: ReadonlyMap<string, Value> | Readonly<Record<string, Value>>;
  /** Opaque host state for host built-ins (DB transaction, block info, …). */
  host?: unknown;
}

export interface FuelMeter {
  readonly limit: number;
  readonly remaining: number;
  readonly used: number;
  /** Subtracts fuel; throws "runtime cost limit overflow" when it runs out. */
  charge(amount: number): void;
}

/** What a built-in receives as its first argument. */
export interface BuiltinContext {
  readonly vm: Vm;
  readonly tx: TxContext;
  readonly fuel: FuelMeter;
  /** Ecosystem of the code that is running (its contract's or function's). */
  readonly ecosystem: number;
  /** The contract currently executing (innermost), or null in a condition evaluation. */
  readonly contract: CompiledContract | null;
  /** Keys (`@1Name`) of the contracts on the call stack, outermost first. */
  readonly contractStack: readonly string[];
  /** Reads a `$` variable (data fields, free variables, system variables); undefined when unset. */
  getVar(name: string): Value | undefined;
  /** Runs another contract as `CallContract`/`ExecContract` do; resolves to its `$result`. */
  callContract(name: string, params: ReadonlyMap<string, Value>): Promise<Value>;
  /** Estimated bytes held by the execution's variables; throws "Memory limit exceeded" past the limit. */
  measureMemory(): number;
}

/** The reference's read-only `$` names (besides whatever the host passes in TxContext.vars). */
export const SYSTEM_VAR_NAMES: ReadonlySet<string> = new Set([
  'key_id',
  'account_id',
  'ecosystem_id',
  'time',
  'block',
  'block_time',
  'block_key_id',
  'node_position',
  'type',
  'txhash',
  'txcost',
  'parent',
  'original_contract',
  'this_contract',
  'stack',
  'contract',
  'sc',
  'data',
  'guest_key',
  'guest_account',
  'black_hole_key',
  'black_hole_account',
  'white_hole_key',
  'white_hole_account',
  'pre_block_data_hash',
  'gen_block',
  'time_limit',
]);

export const FUEL_OVERFLOW = 'runtime cost limit overflow';
export const MAX_CALL_DEPTH = 1000;
export const MAX_ARRAY_INDEX = 1_000_000;
export const MAX_MAP_SIZE = 100_000;
/** The reference's VM memory limit: 128 MB of values held in variables. */
export const MEMORY_LIMIT = 128 * 1024 * 1024;
export const MEMORY_LIMIT_EXCEEDED = 'Memory limit exceeded';
/** Live memory is measured again once this much (or half the last measure, if more) has been stored. */
const MEMORY_CHECK_STEP = 1024 * 1024;

export interface StateOptions {
  fuelLimit: number;
  /** Wall-clock deadline (ms since epoch). */
  deadline: number;
  prices: ReadonlyMap<string, number>;
  ecosystem: number;
}

/**
 * Everything one execution (a transaction, or one condition evaluation) shares: fuel, limits, the `$`
 * variables of the running contract call, and the contract stack.
 */
export class ExecState implements BuiltinContext, FuelMeter {
  readonly limit: number;
  fuelLeft: number;
  readonly deadline: number;
  ticks = 0;
  depth = 0;
  /** `$` variables of the current contract call (data fields and free variables). */
  extend = new Map<string, Value>();
  /** Read-only `$` variables: the host's plus the per-call ones ($this_contract, $parent, $stack …). */
  readonly system = new Map<string, Value>();
  readonly contracts: CompiledContract[] = [];
  readonly prices: ReadonlyMap<string, number>;
  ecosystem: number;
  /** Activation frames of the functions that are running, innermost last: their locals are live memory. */
  readonly frames: Frame[] = [];
  /** `$` scopes of the contract calls waiting for a nested one: live memory too. */
  readonly outerScopes: Array<Map<string, Value>> = [];
  /** Estimated size of what was stored into variables since live memory was last measured. */
  storedSinceCheck = 0;
  nextMemoryCheck = MEMORY_CHECK_STEP;

  constructor(
    readonly vm: Vm,
    readonly tx: TxContext,
    options: StateOptions,
  ) {
    this.limit = options.fuelLimit;
    this.fuelLeft = options.fuelLimit;
    this.deadline = options.deadline;
    this.prices = options.prices;
    this.ecosystem = options.ecosystem;
    const vars = tx.vars;
    if (vars) {
      const entries = vars instanceof Map ? vars.entries() : Object.entries(vars);
      for (const [name, value] of entries) this.system.set(name, value);
    }
  }

  get fuel(): FuelMeter {
    return this;
  }

  get remaining(): number {
    return this.fuelLeft;
  }

  get used(): number {
    return this.limit - this.fuelLeft;
  }

  charge(amount: number): void {
    if ((this.fuelLeft -= amount) < 0) throw new VmError('panic', FUEL_OVERFLOW);
  }

  get contract(): CompiledContract | null {
    return this.contracts.length > 0 ? this.contracts[this.contracts.length - 1] : null;
  }

  get contractStack(): string[] {
    return this.contracts.map((contract) => contract.key);
  }

  /** Compiled code counts loop iterations and calls in `ticks` and calls this every 1024 of them. */
  checkDeadline(): void {
    if (Date.now() > this.deadline) throw panic('time limit exceeded');
  }

  /** For host code running long loops: counts a tick and checks the wall clock every 1024 ticks. */
  tick(): void {
    if ((++this.ticks & 1023) === 0) this.checkDeadline();
  }

  /**
   * Measures the memory held by variables (locals of every running function, `$` variables of every contract
   * call) and fails with the reference's error past the limit. Stores call this often enough that the check
   * costs no more than the stores themselves.
   */
  measureMemory(): number {
    let used = memorySize(this.extend.values());
    for (const scope of this.outerScopes) used += memorySize(scope.values());
    for (const frame of this.frames) used += memorySize(frame.s);
    this.storedSinceCheck = 0;
    this.nextMemoryCheck = Math.max(MEMORY_CHECK_STEP, used / 2);
    if (used > MEMORY_LIMIT) throw panic(MEMORY_LIMIT_EXCEEDED);
    return used;
  }

  isSystemVar(name: string): boolean {
    return SYSTEM_VAR_NAMES.has(name) || this.system.has(name);
  }

  getVar(name: string): Value | undefined {
    const value = this.extend.get(name);
    return value !== undefined ? value : this.system.get(name);
  }

  callContract(name: string, params: ReadonlyMap<string, Value>): Promise<Value> {
    return this.vm.callContractFrom(this, name, params);
  }
}

import { CLOCK, clockTick } from './clock';
import { panic, VmError } from './errors';
import { HeapCounter } from './memory';
import type { CompiledContract } from './objects';
import type { Frame } from './runtime';
import type { Value } from './values';
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
  /** Bytes held by the execution's values, counted now; throws "Memory limit exceeded" past the limit. */
  measureMemory(): number;
  /**
   * Reserves memory for a value about to be built (its cost in `memory.ts` terms), before building it:
   * throws "Memory limit exceeded" when the values held and this one would pass the limit.
   */
  reserveMemory(bytes: number): void;
  /** Bytes that may still be reserved (the values held are counted again when that says more). */
  memoryAvailable(): number;
  /**
   * For a built-in that works in steps: fails past the deadline, and once the execution has run a whole
   * time slice, returns a pause to wait for before the next step (the event loop answers others meanwhile).
   */
  pauseIfDue(): Promise<void> | undefined;
  /**
   * A built-in touched `units` bytes or elements: charges fuel for them and checks the deadline, so
   * that slow calls count like the instructions they replace.
   */
  chargeWork(units: number): void;
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
export const TIME_LIMIT_EXCEEDED = 'time limit exceeded';
export const MAX_CALL_DEPTH = 1000;
export const MAX_ARRAY_INDEX = 1_000_000;
/** The most elements an array can get: assignments stop at MAX_ARRAY_INDEX, and built-ins do too. */
export const MAX_ARRAY_LENGTH = MAX_ARRAY_INDEX + 1;
export const MAX_MAP_SIZE = 100_000;
/** The reference's VM memory limit: 128 MB, counted here in real heap bytes (`memory.ts`). */
export const MEMORY_LIMIT = 128 * 1024 * 1024;
export const MEMORY_LIMIT_EXCEEDED = 'Memory limit exceeded';
/** What an execution makes between two requests to collect garbage (`Vm.releaseMemory`). */
export const RELEASE_STEP = 128 * 1024 * 1024;
/** The least that is reserved between two counts of the values held (see `recount`). */
const RECOUNT_STEP = 1024 * 1024;
/** Bytes or elements a built-in may touch per unit of fuel (`chargeWork`). */
export const WORK_UNITS_PER_FUEL = 16;
/** Work (bytes or elements) after which a built-in looks at the clock: some tens of microseconds. */
const SLOW_WORK = 65_536;
/** Loop turns and calls between two looks at the clock (`turn`). */
const CLOCK_CHECK_INTERVAL = 256;
/** How long executions run before they let the event loop answer others (see `checkClock`). */
export const TIME_SLICE_MS = 20;
/** Strings shorter than this are not kept as temporaries: a few of them cannot matter. */
const TEMPORARY_MIN_LENGTH = 256;

/** When an execution last let the event loop run: shared, since the loop is. */
let sliceStart = 0;

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
  /** Wall-clock deadline (ms since epoch), moved on by the time the execution spends paused. */
  deadline: number;
  /** The clock tick seen at the last time check; -1 makes the first check see a tick. */
  tick = -1;
  /** Loop turns and calls left before the clock is looked at again (0 after a slow built-in). */
  countdown = 0;
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
  /**
   * Values computed but not stored yet (call results an expression is still working with), each frame's
   * above its `tempBase`: counted with the variables, so that many large temporaries cannot hide.
   */
  readonly temps: Value[] = [];
  /** Bytes the values held at the last count. */
  memoryHeld = 0;
  /** Bytes reserved for new values since the last count. */
  memoryReserved = 0;
  /** Bytes reserved over the whole execution (what it made, garbage or not). */
  reservedTotal = 0;
  /** `reservedTotal` at which the host is next asked to collect garbage (`Vm.releaseMemory`). */
  private nextRelease = RELEASE_STEP;
  /** Reserved bytes at which the values are counted again. */
  private nextRecount = RECOUNT_STEP;
  /** The values are to be counted at the next loop turn or call. */
  private recountDue = false;

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

  /** Whether the clock ticked since the last check. */
  clockMoved(): boolean {
    return Atomics.load(CLOCK, 0) !== this.tick;
  }

  /**
   * Compiled loops and calls count down and call this at zero: it counts the values held when that is due,
   * and looks at the clock (an atomic load costs more than a loop turn, so not at every one) and, when it
   * ticked, at the time (`checkClock`).
   */
  turn(): Promise<void> | undefined {
    this.countdown = CLOCK_CHECK_INTERVAL;
    if (this.recountDue) this.measureMemory();
    return Atomics.load(CLOCK, 0) === this.tick ? undefined : this.checkClock();
  }

  /** Fails past the deadline. */
  checkDeadline(): void {
    if (Date.now() > this.deadline) throw panic(TIME_LIMIT_EXCEEDED);
  }

  /**
   * Called by loop turns and function calls when the clock ticked: fails past the deadline, and once
   * executions have run a whole time slice without a break, returns a pause that lets the event loop
   * answer other requests (the caller continues when it resolves).
   */
  checkClock(): Promise<void> | undefined {
    this.tick = clockTick();
    this.checkDeadline();
    if (performance.now() - sliceStart < TIME_SLICE_MS) return undefined;
    return this.pause();
  }

  pauseIfDue(): Promise<void> | undefined {
    return this.checkClock();
  }

  /** The time others take while this execution waits is not its own: its deadline moves on by as much. */
  private async pause(): Promise<void> {
    const paused = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
    this.deadline += sliceStart - paused;
    this.tick = clockTick();
  }

  chargeWork(units: number): void {
    if (units < WORK_UNITS_PER_FUEL) return;
    if ((this.fuelLeft -= Math.floor(units / WORK_UNITS_PER_FUEL)) < 0) {
      throw new VmError('panic', FUEL_OVERFLOW);
    }
    // Work brings the next look at the clock nearer, as loop turns do.
    this.countdown -= units >> 8;
    if (units >= SLOW_WORK && this.clockMoved()) this.checkDeadline();
  }

  reserveMemory(bytes: number): void {
    if ((this.reservedTotal += bytes) >= this.nextRelease) {
      this.nextRelease = this.reservedTotal + RELEASE_STEP;
      this.vm.releaseMemory?.();
    }
    const reserved = (this.memoryReserved += bytes);
    if (this.memoryHeld + reserved > MEMORY_LIMIT) this.recount(bytes);
    else if (reserved >= this.nextRecount) {
      // Counted at the next loop turn or call, between pauses, rather than on top of the work under way.
      this.recountDue = true;
      this.countdown = 0;
    }
  }

  memoryAvailable(): number {
    let available = MEMORY_LIMIT - this.memoryHeld - this.memoryReserved;
    if (this.memoryReserved >= RECOUNT_STEP) {
      this.measureMemory();
      available = MEMORY_LIMIT - this.memoryHeld;
    }
    return Math.max(0, available);
  }

  /**
   * Counts what is really held again, when a reservation would pass the limit; near it, with little
   * reserved since the last count, such a reservation fails without counting. (The values are also counted
   * at a loop turn or call once as much was reserved as half of what they held, so counting costs no more
   * than making what it counts, or half of what is left below the limit: `turn`.)
   */
  private recount(bytes: number): void {
    if (this.memoryHeld + this.memoryReserved > MEMORY_LIMIT) {
      const threshold = Math.max(RECOUNT_STEP, this.memoryHeld / 16);
      if (this.memoryReserved - bytes < threshold && bytes < threshold) throw panic(MEMORY_LIMIT_EXCEEDED);
    }
    this.measureMemory();
    this.memoryReserved = bytes;
    if (this.memoryHeld + bytes > MEMORY_LIMIT) throw panic(MEMORY_LIMIT_EXCEEDED);
  }

  /**
   * Counts the values held: locals of every running function, `$` variables of every contract call and
   * the temporaries of the expressions under way. Fails with the reference's error past the limit.
   */
  measureMemory(): number {
    const counter = new HeapCounter(MEMORY_LIMIT);
    let held = counter.addAll(this.extend.values());
    for (const scope of this.outerScopes) held = counter.addAll(scope.values());
    for (const frame of this.frames) held = counter.addAll(frame.s);
    held = counter.addAll(this.temps);
    this.memoryHeld = held;
    this.memoryReserved = 0;
    this.nextRecount = Math.max(RECOUNT_STEP, Math.min(held, MEMORY_LIMIT - held) / 2);
    this.recountDue = false;
    if (held > MEMORY_LIMIT) throw panic(MEMORY_LIMIT_EXCEEDED);
    return held;
  }

  /** Keeps a call's result visible to the memory count while the expression that asked for it runs. */
  keep(value: Value): void {
    switch (typeof value) {
      case 'object':
        if (value !== null && (Array.isArray(value) || value instanceof Map || value instanceof Uint8Array))
          this.temps.push(value);
        return;
      case 'string':
        if (value.length >= TEMPORARY_MIN_LENGTH) this.temps.push(value);
        return;
    }
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

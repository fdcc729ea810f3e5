import Decimal from 'decimal.js';
import type { Value } from './values';

/**
 * What contract values cost in V8's heap (Node 20, x64), measured by `bench/value-costs.ts` (numbers in
 * `bench/README.md`). The VM's memory limit is counted in these bytes, so that 128 MB of counted values is
 * close to 128 MB of real heap rather than a fraction of it.
 */
export const VALUE_COSTS = {
  /** A sequential string's header; its characters add 1 byte each (2 in a two-byte string), rounded to 8. */
  string: 16,
  /** An int (BigInt of up to 64 bits). */
  int: 24,
  /** A float stored in an array or a map (a boxed double). */
  float: 16,
  /** An array without elements (JSArray); a non-empty one adds its backing store's header. */
  array: 32,
  arrayStore: 16,
  /** One element of an array (a pointer). */
  slot: 8,
  /** A Map with its hash table for up to four entries. */
  map: 184,
  /** One more entry of a Map: key, value and chain pointers plus its share of the buckets. */
  mapEntry: 28,
  /** A Uint8Array with its ArrayBuffer; its bytes add 1 each. */
  bytes: 184,
  /** A money value (decimal.js object and its digit array); every 7 digits add one more element. */
  money: 96,
} as const;

// eslint-disable-next-line no-control-regex
const ONE_BYTE_ONLY = /[^\u0000-\u00ff]/;

/**
 * Whether a string holds a character above U+00FF, so that V8 keeps it at two bytes a character. V8
 * answers at once for a one-byte string (it cannot hold one); a two-byte one is scanned up to the first.
 */
export function hasTwoByteCharacter(text: string): boolean {
  return ONE_BYTE_ONLY.test(text);
}

/** Whether a string counts at two bytes a character (short ones are not looked at: they cost little). */
export function isTwoByte(text: string): boolean {
  return text.length >= 64 && hasTwoByteCharacter(text);
}

/**
 * The longest string a contract can make (by a built-in or by joining). Every operation on a string costs
 * time in proportion to its length and runs in one piece, so this bounds how long one operation can keep
 * the node from answering others (tens of milliseconds); it is a sixteenth of the memory limit.
 */
export const MAX_STRING_LENGTH = 8 * 1024 * 1024;

/** Heap bytes of a flat string of `length` characters. The empty string and one-byte characters are shared. */
export function stringCostOf(length: number, twoByte = false): number {
  if (length <= 1 && !twoByte) return 0;
  return VALUE_COSTS.string + roundUp8(twoByte ? 2 * length : length);
}

/** What a new string of `length` characters will cost: Infinity (refused) past MAX_STRING_LENGTH. */
export function newStringCost(length: number, twoByte = false): number {
  return length > MAX_STRING_LENGTH ? Infinity : stringCostOf(length, twoByte);
}

/** Longer strings are counted at two bytes a character without looking (see `stringCost`). */
const WIDTH_TEST_LENGTH = 1024 * 1024;

/**
 * What an existing string costs. Looking at its characters would make V8 flatten a string joined by `a + b`
 * (copying all of it), each time the values are counted: a long one counts as two-byte instead.
 */
export function stringCost(text: string): number {
  return stringCostOf(text.length, text.length > WIDTH_TEST_LENGTH || isTwoByte(text));
}

/**
 * An array of `length` elements, without what the elements themselves hold. Arrays grown element by
 * element (`a[i] = x`) have room for 17 elements at least, and a quarter more than they hold on average
 * (measured); the count assumes that, a little more than a literal of the exact size takes.
 */
export function arrayCost(length: number): number {
  if (length === 0) return VALUE_COSTS.array;
  return (
    VALUE_COSTS.array +
    VALUE_COSTS.arrayStore +
    VALUE_COSTS.slot * Math.max(MIN_GROWN_CAPACITY, length + (length >> 2))
  );
}

/** What V8 gives an array when an element is stored into it past its end the first time. */
const MIN_GROWN_CAPACITY = 17;

/** A map of `size` entries, without its keys and values. */
export function mapCost(size: number): number {
  return VALUE_COSTS.map + VALUE_COSTS.mapEntry * size;
}

export function bytesCost(length: number): number {
  return VALUE_COSTS.bytes + roundUp8(length);
}

export function moneyCost(value: Decimal): number {
  return VALUE_COSTS.money + VALUE_COSTS.slot * Math.ceil(value.d ? value.d.length : 1);
}

function roundUp8(n: number): number {
  return (n + 7) & ~7;
}

/** The cost of a value that holds nothing else (everything but arrays and maps). */
export function scalarCost(value: Value): number {
  switch (typeof value) {
    case 'string':
      return stringCost(value);
    case 'bigint':
      return VALUE_COSTS.int;
    case 'number':
      return VALUE_COSTS.float;
    case 'boolean':
      return 0;
    default:
      if (value === null) return 0;
      if (value instanceof Uint8Array) return bytesCost(value.length);
      if (value instanceof Decimal) return moneyCost(value);
      return 0;
  }
}

type Container = Value[] | Map<string, Value>;

function isContainer(value: Value): value is Container {
  return typeof value === 'object' && value !== null && (Array.isArray(value) || value instanceof Map);
}

/** How a size is made up: of leaves, of what an array or a map adds itself, and of map keys. */
export interface SizeMeasure {
  leaf(value: Value): number;
  array(length: number): number;
  map(size: number): number;
  key(key: string): number;
}

/** Marks a container whose total is being computed: meeting it again means it contains itself. */
const IN_PROGRESS = -1;

/**
 * Totals a measure over a value as text made of it grows: every reference to a shared array or map
 * counts its contents again (`Str([a, a])` prints `a` twice). Each container's total is worked out once and
 * remembered by identity, so the time is linear in the distinct containers and elements even when the
 * total is exponential (`b = [a, a]; a = b` …), and the walk is iterative, so depth costs no stack. A total
 * past `limit`, or one of a container that holds itself, is Infinity; so is any once the parts looked at
 * already add up to more. `visited` counts the elements looked at, for the work it cost.
 */
export class SizeFold {
  private readonly totals = new Map<Container, number>();
  visited = 0;
  /** What every container opened and every leaf met added at least once: a bound from below. */
  private seen = 0;
  // The walk's stack, one entry per open container: parallel arrays keep a deep one small.
  private readonly open: Container[] = [];
  private readonly sums: number[] = [];
  private readonly positions: number[] = [];
  private readonly entries: Array<Iterator<[string, Value]> | null> = [];

  constructor(
    private readonly measure: SizeMeasure,
    private readonly limit = Infinity,
  ) {}

  /** The total of several values (a frame's slots, a scope's values), from `start`. */
  addAll(values: Iterable<Value>, start = 0): number {
    let total = start;
    for (const value of values) {
      total += this.of(value);
      if (total > this.limit) return Infinity;
    }
    return total;
  }

  of(value: Value): number {
    if (!isContainer(value)) return this.measure.leaf(value);
    const known = this.totals.get(value);
    if (known !== undefined) return known === IN_PROGRESS ? Infinity : known;
    return this.walk(value);
  }

  private walk(root: Container): number {
    const { measure, open, sums, positions, entries, totals } = this;
    this.push(root);
    let finished = 0;
    while (open.length > 0) {
      const top = open.length - 1;
      const container = open[top];
      let child: Value = null;
      let done = false;
      if (Array.isArray(container)) {
        const position = positions[top];
        if (position < container.length) {
          child = container[position];
          positions[top] = position + 1;
        } else done = true;
      } else {
        const next = entries[top]!.next();
        if (next.done) done = true;
        else {
          sums[top] += measure.key(next.value[0]);
          child = next.value[1];
        }
      }
      if (done) {
        finished = sums[top];
        totals.set(container, finished);
        open.pop();
        sums.pop();
        positions.pop();
        entries.pop();
        if (top > 0) sums[top - 1] += finished;
        continue;
      }
      this.visited++;
      if (isContainer(child)) {
        const known = totals.get(child);
        if (known === IN_PROGRESS) return this.abandon();
        if (known !== undefined) sums[top] += known;
        else this.push(child);
      } else {
        const size = measure.leaf(child);
        sums[top] += size;
        this.seen += size;
      }
      if (sums[top] > this.limit || this.seen > this.limit) return this.abandon();
    }
    return finished;
  }

  private push(container: Container): void {
    this.totals.set(container, IN_PROGRESS);
    this.open.push(container);
    const own = Array.isArray(container)
      ? this.measure.array(container.length)
      : this.measure.map(container.size);
    this.seen += own;
    this.sums.push(own);
    this.entries.push(Array.isArray(container) ? null : container.entries());
    this.positions.push(0);
  }

  /** Past the limit: everything open stays marked, so any later question about it is Infinity too. */
  private abandon(): number {
    this.open.length = 0;
    this.sums.length = 0;
    this.positions.length = 0;
    this.entries.length = 0;
    return Infinity;
  }
}

/**
 * Which walk last looked at a container: a property no contract code can reach. Marking is several times
 * faster than keeping a set of what was seen once the container has the property (measured: a walk of
 * 700,000 arrays takes 17 ms marked, 220 ms with a Set), and a walk runs while the execution waits.
 */
const WALKED = Symbol('walked');
type Marked = { [WALKED]?: number };
let lastWalk = 0;

/** A walk's way of telling the containers it has looked at already. */
class Seen {
  private readonly walk = ++lastWalk;

  has(container: Container): boolean {
    return (container as Marked)[WALKED] === this.walk;
  }

  add(container: Container): void {
    (container as Marked)[WALKED] = this.walk;
  }
}

/**
 * Totals the heap bytes of values as the memory limit counts them: each array and map once, however many
 * values refer to it (what it really takes), strings at every reference (they cannot be told apart, and
 * the reference counts them so). Iterative, so depth costs no stack; past `limit` it stops with Infinity.
 */
export class HeapCounter {
  private readonly seen = new Seen();
  private readonly pending: Container[] = [];
  total = 0;

  constructor(private readonly limit = Infinity) {}

  /** Adds values (a frame's slots, a scope's values); the running total, Infinity once past the limit. */
  addAll(values: Iterable<Value>): number {
    for (const value of values) if (this.add(value) === Infinity) return Infinity;
    return this.total;
  }

  add(value: Value): number {
    if (!isContainer(value)) return (this.total += scalarCost(value)) > this.limit ? Infinity : this.total;
    if (this.seen.has(value)) return this.total;
    this.seen.add(value);
    const { pending, seen } = this;
    pending.push(value);
    while (pending.length > 0) {
      const container = pending.pop()!;
      let total = this.total;
      if (Array.isArray(container)) {
        total += arrayCost(container.length);
        for (const item of container) {
          if (isContainer(item)) {
            if (!seen.has(item)) {
              seen.add(item);
              pending.push(item);
            }
          } else total += scalarCost(item);
        }
      } else {
        total += mapCost(container.size);
        for (const [key, item] of container) {
          total += stringCost(key);
          if (isContainer(item)) {
            if (!seen.has(item)) {
              seen.add(item);
              pending.push(item);
            }
          } else total += scalarCost(item);
        }
      }
      this.total = total;
      if (total > this.limit) {
        pending.length = 0;
        return Infinity;
      }
    }
    return this.total;
  }
}

/** One value's memory, counted as the memory limit counts it. */
export function valueCost(value: Value, limit = Infinity): number {
  return new HeapCounter(limit).add(value);
}

/**
 * Whether `target` is `value` or sits somewhere inside it. Each container is looked into once, so a value
 * that shares its parts many times over costs its distinct parts, not its paths; `work` is told how many
 * elements were looked at.
 */
export function containsValue(value: Value, target: Value, work?: (units: number) => void): boolean {
  if (value === target) return true;
  if (!isContainer(value)) return false;
  const seen = new Seen();
  seen.add(value);
  const pending: Container[] = [value];
  let looked = 0;
  let found = false;
  while (pending.length > 0 && !found) {
    const container = pending.pop()!;
    looked += Array.isArray(container) ? container.length : container.size;
    for (const item of Array.isArray(container) ? container : container.values()) {
      if (item === target) {
        found = true;
        break;
      }
      if (isContainer(item) && !seen.has(item)) {
        seen.add(item);
        pending.push(item);
      }
    }
  }
  work?.(looked);
  return found;
}

import type { ChainEvents } from './chain-events';

/**
 * Reads of chain state kept in memory until the chain changes: what blocks write (tables, parameters,
 * pages, languages) is the same for every reader until the next block or rollback, and ChainEvents says
 * when that is. While ChainEvents cannot vouch for every change (another process's LISTEN connection is
 * down) nothing is kept. A read that raced with a change is answered but not kept.
 */
export class ChainMemo<T> {
  private readonly values = new Map<string, T>();
  private changes = 0;

  /** @param limit entries kept at most; past it everything is forgotten and read again. */
  constructor(
    private readonly events: ChainEvents,
    private readonly limit = 10_000,
  ) {
    events.subscribe(() => {
      this.changes++;
      this.values.clear();
    });
  }

  /** The kept value, without waiting; undefined when there is none (or nothing may be kept now). */
  peek(key: string): { value: T } | undefined {
    return this.events.reliable && this.values.has(key) ? { value: this.values.get(key)! } : undefined;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const reliable = this.events.reliable;
    if (reliable && this.values.has(key)) return this.values.get(key)!;
    const before = this.changes;
    const value = await load();
    if (reliable && before === this.changes && this.events.reliable) {
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}

/**
 * A memo key for request values: maps, lists, bigints and bytes written out in full (JSON.stringify would
 * write a Map as `{}` and fail on a bigint), so two requests share a key only when they ask the same.
 */
export function memoKey(...values: unknown[]): string {
  return JSON.stringify(values, (_name, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Map) return { map: [...value.entries()] };
    if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('hex') };
    if (value === undefined) return null;
    return value;
  });
}

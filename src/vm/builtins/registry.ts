import type { Results, Value } from '../values';
import type { BuiltinContext } from '../context';

export type BuiltinResult = Value | Results | void;

export interface BuiltinDef {
  /** Name as contracts call it, e.g. `DBFind`, `Sprintf`. */
  name: string;
  fn: (ctx: BuiltinContext, ...args: Value[]) => BuiltinResult | Promise<BuiltinResult>;
  /** Writes to the database: `conditions` may not reach it (checked at compile time). */
  writesDb?: boolean;
  /**
   * May return a Promise, and its call may pause after it when it charged much work (`chargeWork`): the
   * execution then lets the event loop run before it goes on. Defaults to true so host built-ins are always
   * safe; pure built-ins that do little whatever they are given set false, so the code that calls them
   * compiles to synchronous closures.
   */
  async?: boolean;
  /** Fallback price when the price table has no `price_exec_<snake_case name>` entry (default 50). */
  price?: number;
  /** Accepted argument count: exact, or [min, max] (max may be Infinity). Checked at compile time when possible. */
  params?: number | readonly [number, number];
  /**
   * The built-in reserves the memory of what it builds and charges for its work itself, before building
   * it (see `budget.ts`). Otherwise the call reserves what the result turned out to cost, and charges for
   * the text and bytes it was given and gave back.
   */
  reserves?: boolean;
}

export interface Builtin extends Required<Omit<BuiltinDef, 'params'>> {
  params: readonly [number, number] | null;
  /** The platform parameter that prices it: `price_exec_<snake_case name>`. */
  priceKey: string;
}

export const DEFAULT_BUILTIN_PRICE = 50;

/** `DBInsert` → `db_insert`, `JSONEncode` → `json_encode`, `AddressToId` → `address_to_id`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/** The built-in functions a VM knows. The host registers DB/crypto/permission functions here. */
export class BuiltinRegistry {
  private readonly entries = new Map<string, Builtin>();
  /** Bumped on every change so that cached compile results can notice. */
  version = 0;

  register(def: BuiltinDef): Builtin {
    const params: readonly [number, number] | null =
      def.params === undefined
        ? null
        : typeof def.params === 'number'
          ? [def.params, def.params]
          : def.params;
    const entry: Builtin = {
      name: def.name,
      fn: def.fn,
      writesDb: def.writesDb ?? false,
      async: def.async ?? true,
      reserves: def.reserves ?? false,
      price: def.price ?? DEFAULT_BUILTIN_PRICE,
      params,
      priceKey: 'price_exec_' + snakeCase(def.name),
    };
    this.entries.set(def.name, entry);
    this.version++;
    return entry;
  }

  registerAll(defs: readonly BuiltinDef[]): void {
    for (const def of defs) this.register(def);
  }

  get(name: string): Builtin | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }
}

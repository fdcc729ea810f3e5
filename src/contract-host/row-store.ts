import Decimal from 'decimal.js';
import type { Sql } from '../database/database.service';
import { textColumnExpression, type ColumnInfo } from '../table-access/catalog';

/**
 * Exact decimal arithmetic for numeric columns: PostgreSQL's numeric keeps every digit, so the default
 * 20 significant digits of decimal.js would not do. Ties round away from zero, as numeric does.
 */
const Exact = Decimal.clone({
  precision: 1000,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
type Exact = InstanceType<typeof Exact>;

/** A row as contracts read it: every column's text (`textColumnExpression`), NULL as null. */
export type RowText = Map<string, string | null>;

interface CheckRule {
  name: string;
  strict: boolean;
  bound: Exact;
}

/**
 * A column whose new value can be worked out in memory exactly as PostgreSQL would store and print it:
 * numerics with a declared precision and scale, integers, and text. Anything else (and any column under a
 * unique index, a foreign key or a check we cannot read) is left to the database.
 */
export interface ColumnRule {
  column: ColumnInfo;
  kind: 'numeric' | 'integer' | 'text';
  /** The cast the flush writes the value with. */
  cast: string;
  precision?: number;
  scale?: number;
  min?: bigint;
  max?: bigint;
  maxLength?: number;
  nullable: boolean;
  checks: CheckRule[];
}

export interface TableShape {
  physical: string;
  columns: ColumnInfo[];
  /** The row's key columns: `id`, or `id, ecosystem` for `1_keys`. */
  composite: boolean;
  rules: Map<string, ColumnRule>;
}

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};

/** A check PostgreSQL prints as `CHECK ((amount >= (0)::numeric))` or `CHECK ((n > 0))`. */
const SIMPLE_CHECK = /^CHECK \(\("?([a-z0-9_]+)"? (>=|>) \(?(-?\d+(?:\.\d+)?)\)?(?:::[a-z ]+)?\)\)$/;

/**
 * Tables whose rows a block's row cache may hold. The permission loader reads `1_tables` directly, so that
 * table always goes to the database.
 */
function cacheable(physical: string): boolean {
  return physical !== '1_tables';
}

interface ShapeRow {
  columns: string | null;
  constraints: string | null;
  uniques: string | null;
  triggers: string;
}

interface ColumnMeta {
  name: string;
  type: string;
  precision: number | null;
  scale: number | null;
  length: number | null;
  nullable: boolean;
  generated: boolean;
}

interface ConstraintMeta {
  type: string;
  name: string;
  columns: string[] | null;
  def: string;
}

async function loadShape(sql: Sql, physical: string): Promise<TableShape | null> {
  if (!cacheable(physical)) return null;
  const row = await sql.one<ShapeRow>(
    `WITH "r" AS (SELECT to_regclass(quote_ident($1)) AS "oid")
     SELECT
       (SELECT json_agg(json_build_object('name', "column_name", 'type', "data_type",
               'precision', "numeric_precision", 'scale', "numeric_scale", 'length', "character_maximum_length",
               'nullable', "is_nullable" = 'YES', 'generated', "is_generated" <> 'NEVER') ORDER BY "ordinal_position")
          FROM information_schema.columns
         WHERE "table_schema" = current_schema() AND "table_name" = $1)::text AS "columns",
       (SELECT json_agg(json_build_object('type', "c"."contype", 'name', "c"."conname",
               'def', pg_get_constraintdef("c"."oid"),
               'columns', (SELECT json_agg("a"."attname") FROM pg_attribute "a"
                            WHERE "a"."attrelid" = "c"."conrelid" AND "a"."attnum" = ANY ("c"."conkey"))))
          FROM pg_constraint "c", "r" WHERE "c"."conrelid" = "r"."oid" OR "c"."confrelid" = "r"."oid")::text AS "constraints",
       (SELECT json_agg(CASE WHEN "i"."indexprs" IS NULL AND "i"."indpred" IS NULL
                             THEN (SELECT json_agg("a"."attname") FROM pg_attribute "a"
                                    WHERE "a"."attrelid" = "i"."indrelid" AND "a"."attnum" = ANY ("i"."indkey"))
                        END)
          FROM pg_index "i", "r" WHERE "i"."indrelid" = "r"."oid" AND "i"."indisunique")::text AS "uniques",
       (SELECT count(*) FROM pg_trigger "t", "r" WHERE "t"."tgrelid" = "r"."oid" AND NOT "t"."tgisinternal")::text AS "triggers"`,
    [physical],
  );
  if (!row?.columns) return null;
  const columns = JSON.parse(row.columns) as ColumnMeta[];
  const constraints = JSON.parse(row.constraints ?? '[]') as ConstraintMeta[];
  const uniques = JSON.parse(row.uniques ?? '[]') as (string[] | null)[];
  const primary = constraints.find((constraint) => constraint.type === 'p');
  const key = [...(primary?.columns ?? [])].sort().join(',');
  const composite = physical === '1_keys' && key === 'ecosystem,id';
  if (key !== 'id' && !composite) return null;
  const shape: TableShape = {
    physical,
    columns: columns.map((column) => ({ name: column.name, type: column.type })),
    composite,
    rules: new Map(),
  };
  // Triggers, foreign keys and unique expressions could refuse or change a write we would not foresee.
  if (row.triggers !== '0') return shape;
  if (constraints.some((constraint) => constraint.type === 'f' || constraint.type === 'x')) return shape;
  if (uniques.some((columns) => columns === null)) return shape;
  const guarded = new Set(uniques.flat() as string[]);
  const checks = new Map<string, CheckRule[]>();
  for (const constraint of constraints.filter((item) => item.type === 'c')) {
    const match = SIMPLE_CHECK.exec(constraint.def);
    const target = constraint.columns ?? [];
    if (!match || target.length !== 1 || target[0] !== match[1]) {
      target.forEach((name) => guarded.add(name));
      continue;
    }
    const list = checks.get(match[1]) ?? [];
    list.push({ name: constraint.name, strict: match[2] === '>', bound: new Exact(match[3]) });
    checks.set(match[1], list);
  }
  for (const meta of columns) {
    if (meta.generated || guarded.has(meta.name) || meta.name === 'id' || meta.name === 'ecosystem') continue;
    const base = {
      column: { name: meta.name, type: meta.type },
      nullable: meta.nullable,
      checks: checks.get(meta.name) ?? [],
    };
    if (meta.type === 'numeric' && meta.precision !== null && meta.scale !== null) {
      shape.rules.set(meta.name, {
        ...base,
        kind: 'numeric',
        cast: 'numeric',
        precision: meta.precision,
        scale: meta.scale,
      });
    } else if (meta.type in INTEGER_RANGES) {
      const [min, max] = INTEGER_RANGES[meta.type];
      shape.rules.set(meta.name, { ...base, kind: 'integer', cast: meta.type, min, max });
    } else if ((meta.type === 'text' || meta.type === 'character varying') && base.checks.length === 0) {
      shape.rules.set(meta.name, {
        ...base,
        kind: 'text',
        cast: 'text',
        maxLength: meta.length ?? undefined,
      });
    }
  }
  return shape;
}

interface CachedRow {
  text: RowText;
  /** The row version it was read from or written as: how a later block knows it is still current. */
  xmin: string;
}

/** About this many rows stay cached between blocks; past it the oldest go when the next block starts. */
const MAX_ROWS = 20_000;

/**
 * Rows the block producer has read or written, kept between blocks so that a transaction touching a
 * known row needs no round trip. Each row remembers its PostgreSQL row version (`xmin`); every block
 * starts by asking the database which of them changed since (a rollback, an operator's UPDATE), and forgets
 * those, so what it hands out is always what the database holds.
 */
export class RowStore {
  private readonly shapes = new Map<string, TableShape | null>();
  private readonly rows = new Map<string, Map<string, CachedRow>>();
  private size = 0;

  clear(): void {
    this.shapes.clear();
    this.rows.clear();
    this.size = 0;
  }

  async shape(sql: Sql, physical: string): Promise<TableShape | null> {
    if (!this.shapes.has(physical)) this.shapes.set(physical, await loadShape(sql, physical));
    return this.shapes.get(physical)!;
  }

  get(physical: string, key: string): CachedRow | undefined {
    return this.rows.get(physical)?.get(key);
  }

  put(physical: string, key: string, row: CachedRow): void {
    let table = this.rows.get(physical);
    if (!table) this.rows.set(physical, (table = new Map()));
    if (!table.has(key)) this.size++;
    table.set(key, row);
  }

  forget(physical: string, key: string): void {
    if (this.rows.get(physical)?.delete(key)) this.size--;
  }

  /** Loads one row by its key, or learns that there is none (not cached). */
  async load(sql: Sql, shape: TableShape, id: bigint, ecosystem: bigint): Promise<CachedRow | undefined> {
    const list = shape.columns.map((column) => `${textColumnExpression(column)} AS "${column.name}"`);
    const params = [id.toString()];
    let condition = `"id" = $1`;
    if (shape.composite) {
      params.push(ecosystem.toString());
      condition += ` AND "ecosystem" = $2`;
    }
    const row = await sql.one<Record<string, string | null>>(
      `SELECT ${list.join(', ')}, "xmin"::text AS "xmin$" FROM "${shape.physical}" WHERE ${condition}`,
      params,
    );
    if (!row) return undefined;
    const cached: CachedRow = {
      text: new Map(shape.columns.map((column) => [column.name, row[column.name] ?? null])),
      xmin: row['xmin$']!,
    };
    this.put(shape.physical, rowKey(shape, id, ecosystem), cached);
    return cached;
  }

  /** Drops every cached row whose version in the database is no longer the one it was read as. */
  async validate(sql: Sql): Promise<void> {
    // Between blocks no write is queued, so any row may go.
    if (this.size > MAX_ROWS) this.evictOldest();
    for (const [physical, table] of this.rows) {
      const shape = this.shapes.get(physical);
      if (!shape || table.size === 0) {
        this.size -= table.size;
        this.rows.delete(physical);
        continue;
      }
      const keys = [...table.keys()];
      const ids = keys.map((key) => key.split(',')[0]);
      const versions = keys.map((key) => table.get(key)!.xmin);
      const params: unknown[] = [keys, ids, versions];
      let join = `"t"."id" = "v"."id"`;
      let source = `unnest($1::text[], $2::bigint[], $3::text[]) AS "v"("key", "id", "xmin")`;
      if (shape.composite) {
        params.push(keys.map((key) => key.split(',')[1]));
        source = `unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[]) AS "v"("key", "id", "xmin", "ecosystem")`;
        join += ` AND "t"."ecosystem" = "v"."ecosystem"`;
      }
      const stale = await sql.query<{ key: string }>(
        `SELECT "v"."key" FROM ${source} LEFT JOIN "${physical}" AS "t" ON ${join}
          WHERE "t"."xmin"::text IS DISTINCT FROM "v"."xmin"`,
        params,
      );
      for (const { key } of stale) this.forget(physical, key);
    }
  }

  private evictOldest(): void {
    for (const [physical, table] of this.rows) {
      for (const key of table.keys()) {
        table.delete(key);
        this.size--;
        if (this.size <= MAX_ROWS * 0.9) return;
      }
      this.rows.delete(physical);
    }
  }
}

/** The store's key of a row: the journal's row key (`id`, or `id,ecosystem` for `1_keys`). */
export function rowKey(shape: TableShape, id: bigint, ecosystem: bigint): string {
  return shape.composite ? `${id},${ecosystem}` : String(id);
}

const NUMERIC_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^[+-]?\d+$/;
/** Sent as UTF-8 it would become U+FFFD: the database would hold other text than the cache. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Thrown when a value cannot be worked out in memory: the write goes to the database instead. */
export class NotInMemory extends Error {}

/**
 * The text PostgreSQL would store for `column = value` (`delta` undefined), `column = column + value` or
 * `column = column - value`, or the error it would raise; NotInMemory when only the database can tell.
 */
export function computeColumn(
  rule: ColumnRule,
  table: string,
  current: string | null,
  param: unknown,
  delta: '+' | '-' | undefined,
): string | null {
  if (param === null || param === undefined) {
    if (delta || !rule.nullable) throw new NotInMemory();
    return null;
  }
  if (typeof param !== 'string') throw new NotInMemory();
  if (delta && current === null) throw new NotInMemory();
  // NaN and ±Infinity (numeric holds them) follow their own rules: the database works those out.
  if (delta && rule.kind !== 'text' && !NUMERIC_TEXT.test(current!)) throw new NotInMemory();
  let text: string;
  let value: Exact;
  if (rule.kind === 'text') {
    if (delta || param.includes('\0') || LONE_SURROGATE.test(param)) throw new NotInMemory();
    if (rule.maxLength !== undefined && [...param].length > rule.maxLength) throw new NotInMemory();
    return param;
  } else if (rule.kind === 'integer') {
    if (!INTEGER_TEXT.test(param)) throw new NotInMemory();
    let result = BigInt(param);
    // The parameter takes the column's type: it must fit it on its own, whatever the sum.
    if (result < rule.min! || result > rule.max!) throw new NotInMemory();
    if (delta) result = delta === '+' ? BigInt(current!) + result : BigInt(current!) - result;
    if (result < rule.min! || result > rule.max!) throw new NotInMemory();
    text = result.toString();
    value = new Exact(text);
  } else {
    if (!NUMERIC_TEXT.test(param)) throw new NotInMemory();
    let result = new Exact(param);
    if (delta) result = delta === '+' ? new Exact(current!).plus(result) : new Exact(current!).minus(result);
    result = result.toDecimalPlaces(rule.scale!);
    if (result.isZero()) result = new Exact(0);
    // numeric(p, s) holds p - s digits before the point; more is PostgreSQL's overflow error.
    if (result.abs().gte(new Exact(10).pow(rule.precision! - rule.scale!))) throw new NotInMemory();
    text = result.toFixed(rule.scale!);
    value = result;
  }
  for (const check of rule.checks) {
    if (check.strict ? value.gt(check.bound) : value.gte(check.bound)) continue;
    throw new CheckViolation(`new row for relation "${table}" violates check constraint "${check.name}"`);
  }
  return text;
}

/** The error PostgreSQL would have raised for the update: a check constraint refused the new value. */
export class CheckViolation extends Error {}

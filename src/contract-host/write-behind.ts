import type { Sql } from '../database/database.service';
import type { BlockCache } from './block-cache';
import {
  computeColumn,
  NotInMemory,
  rowKey,
  type RowStore,
  type RowText,
  type TableShape,
} from './row-store';

/** One column value of an insert: the bound parameter and the SQL expression around its placeholder. */
export interface InsertCell {
  name: string;
  param: unknown;
  expression?: (placeholder: string) => string;
}

interface PendingInsert {
  physical: string;
  /** Inserts with the same signature (table, columns, expressions) go out as one statement. */
  signature: string;
  cells: InsertCell[];
}

interface PendingUpdate {
  shape: TableShape;
  id: bigint;
  ecosystem: bigint;
  values: Map<string, string | null>;
}

/** A change asked of one cached row: `delta` adds to or subtracts from the current value. */
export interface RowChange {
  column: string;
  param: unknown;
  delta?: '+' | '-';
}

/** A flush of queued writes failed: the block is run again the exact way (a savepoint per transaction). */
export class WriteBehindFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(`writing the block's queued changes failed: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** How a block keeps its transactions apart: each one's changes are kept or taken back as a whole. */
export interface TxIsolation {
  /** What the transaction's statements go through. */
  readonly sql: Sql;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** The plain way: a savepoint around every transaction. */
export class SavepointIsolation implements TxIsolation {
  constructor(readonly sql: Sql) {}

  async begin(): Promise<void> {
    await this.sql.query('SAVEPOINT "tx"');
  }

  async commit(): Promise<void> {
    await this.sql.query('RELEASE SAVEPOINT "tx"');
  }

  async rollback(): Promise<void> {
    await this.sql.query('ROLLBACK TO SAVEPOINT "tx"');
  }
}

const MAX_PARAMS = 30_000;
/**
 * Rows per statement are bounded by their bytes too, and a long flush lets the event loop run between
 * statements: the embedded database writes a statement in one piece on the node's thread (a contract may
 * write 20 MB), and would otherwise keep the node from answering for the whole of it.
 */
const MAX_STATEMENT_BYTES = 1 << 20;
const FLUSH_SLICE_MS = 20;

/** Characters or bytes of a statement parameter. */
function paramSize(param: unknown): number {
  if (typeof param === 'string') return param.length;
  if (param instanceof Uint8Array) return param.length;
  return 8;
}

/** Between two statements of a flush: a pause once the flush has run a slice. */
class FlushPacer {
  private sliceStart = performance.now();

  async next(): Promise<void> {
    if (performance.now() - this.sliceStart < FLUSH_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}

/**
 * The block's write-behind layer. Reads of rows by id come from the row store (loaded once, kept between
 * blocks); updates by id of columns whose result can be worked out exactly change the cached row and are
 * queued; inserts are queued. Queued writes go out in bulk: at the end of the block, or before any other
 * statement a transaction sends, which then sees exactly what the database would hold.
 *
 * A transaction that only works in memory needs no savepoint: when it fails, its queued writes are
 * dropped and the rows it changed are put back. A transaction that sends a statement of its own gets a
 * savepoint first (after the earlier transactions' writes are flushed), and when it fails the savepoint
 * is rolled back and the row store forgotten. Errors the database would raise at a queued insert can only
 * show at the flush, too late to blame the right transaction: then the executor runs the whole block
 * again the plain way, so the outcome is always the one of statement-by-statement execution.
 */
export class WriteBehind implements TxIsolation {
  readonly sql: Sql;
  failure?: WriteBehindFailure;
  private blockUpdates = new Map<string, PendingUpdate>();
  private blockInserts: PendingInsert[] = [];
  private txUpdates = new Map<string, PendingUpdate>();
  private txInserts: PendingInsert[] = [];
  private undo: (() => void)[] = [];
  private savepoint = false;
  private idSnapshot?: ReturnType<BlockCache['snapshotIds']>;
  /** Tables with queued inserts: reads of them must flush first. */
  private insertedTables = new Set<string>();

  constructor(
    private readonly raw: Sql,
    private readonly store: RowStore,
    private readonly cache: BlockCache,
  ) {
    cache.writeBehind = this;
    this.sql = {
      query: (text, params) => this.statement((sql) => sql.query(text, params)),
      one: (text, params) => this.statement((sql) => sql.one(text, params)),
    };
  }

  /** What reading `physical` directly (not through a transaction's statements) must go through. */
  sqlSeeing(physical: string): Sql {
    return this.insertedTables.has(physical) || this.hasUpdates(physical) ? this.sql : this.raw;
  }

  async begin(): Promise<void> {
    this.txUpdates = new Map();
    this.txInserts = [];
    this.undo = [];
    this.savepoint = false;
    this.idSnapshot = this.cache.snapshotIds();
  }

  async commit(): Promise<void> {
    for (const [key, update] of this.txUpdates) {
      const earlier = this.blockUpdates.get(key);
      if (earlier) for (const [column, value] of update.values) earlier.values.set(column, value);
      else this.blockUpdates.set(key, update);
    }
    this.blockInserts.push(...this.txInserts);
    this.txUpdates = new Map();
    this.txInserts = [];
    this.undo = [];
    if (this.savepoint) await this.raw.query('RELEASE SAVEPOINT "tx"');
    this.savepoint = false;
  }

  async rollback(): Promise<void> {
    this.txUpdates = new Map();
    this.txInserts = [];
    this.insertedTables = new Set(this.blockInserts.map((insert) => insert.physical));
    if (this.savepoint) {
      this.savepoint = false;
      this.undo = [];
      await this.raw.query('ROLLBACK TO SAVEPOINT "tx"');
      // Rows loaded after the savepoint may hold what was just taken back.
      this.store.clear();
      this.cache.reset();
      return;
    }
    for (const restore of this.undo.reverse()) restore();
    this.undo = [];
    if (this.idSnapshot) this.cache.restoreIds(this.idSnapshot);
  }

  /**
   * The row `id` of a table as contracts read it, undefined when it does not exist, or null when the
   * table's rows are not kept in memory (the caller asks the database).
   */
  async readRow(physical: string, id: bigint, ecosystem: bigint): Promise<RowText | undefined | null> {
    if (this.failure) throw this.failure;
    if (this.insertedTables.has(physical)) return null;
    const shape = await this.store.shape(this.raw, physical);
    if (!shape) return null;
    const key = rowKey(shape, id, ecosystem);
    const cached = this.store.get(physical, key);
    if (cached) return cached.text;
    if (this.queued(physical, key)) return null;
    return (await this.store.load(this.raw, shape, id, ecosystem))?.text;
  }

  /**
   * Applies an update of one row (of ecosystem `scope`, for a shared table) in memory and returns the previous text of the changed columns (for the
   * journal), or null when it must go to the database (a column or value only the database can judge).
   * Throws the database's own error text when a check constraint refuses the new value.
   */
  async updateRow(
    physical: string,
    id: bigint,
    ecosystem: bigint,
    scope: bigint | undefined,
    changes: RowChange[],
  ): Promise<Record<string, string | null> | null | 'missing'> {
    if (this.failure) throw this.failure;
    if (this.insertedTables.has(physical)) return null;
    const shape = await this.store.shape(this.raw, physical);
    if (!shape || changes.some((change) => !shape.rules.has(change.column))) return null;
    // Two assignments to one column are the database's error to give.
    if (new Set(changes.map((change) => change.column)).size !== changes.length) return null;
    const key = rowKey(shape, id, ecosystem);
    let cached = this.store.get(physical, key);
    if (!cached) {
      // A row forgotten while its writes still wait would load as it was before them.
      if (this.queued(physical, key)) return null;
      cached = await this.store.load(this.raw, shape, id, ecosystem);
    }
    if (!cached || (scope !== undefined && cached.text.get('ecosystem') !== scope.toString()))
      return 'missing';
    // Every SET expression of one UPDATE sees the row as it was before it.
    const next = new Map<string, string | null>();
    try {
      for (const change of changes) {
        const value = computeColumn(
          shape.rules.get(change.column)!,
          physical,
          cached.text.get(change.column) ?? null,
          change.param,
          change.delta,
        );
        next.set(change.column, value);
      }
    } catch (error) {
      if (error instanceof NotInMemory) return null;
      throw error;
    }
    const previous: Record<string, string | null> = {};
    for (const column of next.keys()) previous[column] = cached.text.get(column) ?? null;
    const text = cached.text;
    this.undo.push(() => {
      for (const [column, value] of Object.entries(previous)) text.set(column, value);
    });
    for (const [column, value] of next) text.set(column, value);
    const storeKey = `${physical}|${key}`;
    let pending = this.txUpdates.get(storeKey);
    if (!pending) this.txUpdates.set(storeKey, (pending = { shape, id, ecosystem, values: new Map() }));
    for (const [column, value] of next) pending.values.set(column, value);
    return previous;
  }

  /** Queues an insert; the database sees it at the next flush. */
  queueInsert(physical: string, cells: InsertCell[]): void {
    if (this.failure) throw this.failure;
    const signature = [
      physical,
      ...cells.map((cell) => `${cell.name}:${cell.expression ? cell.expression('?') : '?'}`),
    ].join('|');
    this.txInserts.push({ physical, signature, cells });
    this.insertedTables.add(physical);
  }

  /** A statement the database must see after every queued write it could depend on. */
  private async statement<T>(run: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.failure) throw this.failure;
    try {
      if (!this.savepoint) {
        await this.write(this.blockUpdates, this.blockInserts);
        this.blockUpdates = new Map();
        this.blockInserts = [];
        await this.raw.query('SAVEPOINT "tx"');
        this.savepoint = true;
      }
      await this.write(this.txUpdates, this.txInserts);
      this.txUpdates = new Map();
      this.txInserts = [];
      this.insertedTables.clear();
    } catch (error) {
      throw (this.failure = new WriteBehindFailure(error));
    }
    return run(this.raw);
  }

  /** Writes everything queued by the block's transactions (none may be running). */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    try {
      await this.write(this.blockUpdates, this.blockInserts);
    } catch (error) {
      throw (this.failure = new WriteBehindFailure(error));
    }
    this.blockUpdates = new Map();
    this.blockInserts = [];
    this.insertedTables.clear();
  }

  private queued(physical: string, key: string): boolean {
    const storeKey = `${physical}|${key}`;
    return this.blockUpdates.has(storeKey) || this.txUpdates.has(storeKey);
  }

  private hasUpdates(physical: string): boolean {
    const prefix = `${physical}|`;
    for (const key of this.blockUpdates.keys()) if (key.startsWith(prefix)) return true;
    for (const key of this.txUpdates.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  private async write(updates: Map<string, PendingUpdate>, inserts: PendingInsert[]): Promise<void> {
    const pacer = new FlushPacer();
    await this.writeUpdates([...updates.values()], pacer);
    await this.writeInserts(inserts, pacer);
  }

  /** One UPDATE … FROM (VALUES …) per table and set of columns; the new row versions go to the store. */
  private async writeUpdates(updates: PendingUpdate[], pacer: FlushPacer): Promise<void> {
    const groups = new Map<string, PendingUpdate[]>();
    for (const update of updates) {
      const columns = [...update.values.keys()].sort();
      const signature = `${update.shape.physical}|${columns.join(',')}`;
      const group = groups.get(signature) ?? [];
      group.push(update);
      groups.set(signature, group);
    }
    for (const group of groups.values()) {
      const { shape } = group[0];
      const columns = [...group[0].values.keys()].sort();
      const keyColumns = shape.composite ? ['id', 'ecosystem'] : ['id'];
      const width = keyColumns.length + columns.length;
      const chunk = Math.max(1, Math.floor(MAX_PARAMS / width));
      for (let start = 0, end = 0; start < group.length; start = end) {
        end = start + 1;
        let bytes = updateSize(group[start]);
        while (end < group.length && end - start < chunk) {
          bytes += updateSize(group[end]);
          if (bytes > MAX_STATEMENT_BYTES) break;
          end++;
        }
        await pacer.next();
        const params: unknown[] = [];
        const rows = group.slice(start, end).map((update) => {
          const cells = [`$${params.push(update.id.toString())}::bigint`];
          if (shape.composite) cells.push(`$${params.push(update.ecosystem.toString())}::bigint`);
          for (const column of columns) {
            cells.push(`$${params.push(update.values.get(column))}::${shape.rules.get(column)!.cast}`);
          }
          return `(${cells.join(', ')})`;
        });
        const names = [...keyColumns, ...columns].map((name) => `"${name}"`).join(', ');
        const join = keyColumns.map((name) => `"t"."${name}" = "v"."${name}"`).join(' AND ');
        const written = await this.raw.query<{ id: string; ecosystem: string | null; xmin: string }>(
          `UPDATE "${shape.physical}" AS "t" SET ${columns.map((name) => `"${name}" = "v"."${name}"`).join(', ')}
             FROM (VALUES ${rows.join(', ')}) AS "v"(${names})
            WHERE ${join}
            RETURNING "t"."id"::text AS "id", ${shape.composite ? '"t"."ecosystem"::text' : 'NULL'} AS "ecosystem",
                      "t"."xmin"::text AS "xmin"`,
          params,
        );
        for (const row of written) {
          const key = shape.composite ? `${row.id},${row.ecosystem}` : row.id;
          const cached = this.store.get(shape.physical, key);
          if (cached) cached.xmin = row.xmin;
        }
      }
    }
  }

  private async writeInserts(inserts: PendingInsert[], pacer: FlushPacer): Promise<void> {
    let index = 0;
    while (index < inserts.length) {
      const first = inserts[index];
      const width = first.cells.length;
      const chunk = Math.max(1, Math.floor(MAX_PARAMS / width));
      const batch: PendingInsert[] = [];
      let bytes = 0;
      while (index < inserts.length && inserts[index].signature === first.signature && batch.length < chunk) {
        bytes += insertSize(inserts[index]);
        if (batch.length > 0 && bytes > MAX_STATEMENT_BYTES) break;
        batch.push(inserts[index++]);
      }
      await pacer.next();
      const params: unknown[] = [];
      const rows = batch.map(
        (insert) =>
          `(${insert.cells
            .map((cell) => {
              const placeholder = `$${params.push(cell.param)}`;
              return cell.expression ? cell.expression(placeholder) : placeholder;
            })
            .join(', ')})`,
      );
      await this.raw.query(
        `INSERT INTO "${first.physical}" (${first.cells.map((cell) => `"${cell.name}"`).join(', ')}) VALUES ${rows.join(', ')}`,
        params,
      );
    }
  }

  /** A change made by a statement of its own: the cached row no longer says what the database holds. */
  forget(physical: string, key: string): void {
    this.store.forget(physical, key);
  }

  /** A schema change: what is known of tables and rows may no longer hold. */
  clearRows(): void {
    this.store.clear();
  }
}

function updateSize(update: PendingUpdate): number {
  let bytes = 0;
  for (const value of update.values.values()) bytes += paramSize(value);
  return bytes;
}

function insertSize(insert: PendingInsert): number {
  let bytes = 0;
  for (const cell of insert.cells) bytes += paramSize(cell.param);
  return bytes;
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { EmbeddedPostgres } from './embedded-postgres';

export const EMBEDDED_SERVER = Symbol('EMBEDDED_SERVER');
export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

/** What a query needs: a place to run SQL with bound parameters. The service and a transaction both are one. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  one<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row | undefined>;
}

/** Told each statement's time in seconds (the Prometheus histogram); when unset nothing is measured. */
export type QueryTimer = (seconds: number) => void;

/** Where statements go (a TypeORM manager, or the server's pool), each one timed for the metrics. */
abstract class TimedSql implements Sql {
  constructor(private readonly timing: { queryTimer?: QueryTimer }) {}

  protected abstract run(text: string, params: unknown[]): Promise<unknown[]>;

  async query<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const timer = this.timing.queryTimer;
    const started = timer ? performance.now() : 0;
    try {
      return (await this.run(text, params as unknown[])) as Row[];
    } finally {
      timer?.((performance.now() - started) / 1000);
    }
  }

  async one<Row>(text: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    const rows = await this.query<Row>(text, params);
    return rows[0];
  }
}

class ManagerSql extends TimedSql {
  constructor(
    private readonly manager: EntityManager,
    timing: { queryTimer?: QueryTimer },
  ) {
    super(timing);
  }

  protected async run(text: string, params: unknown[]): Promise<unknown[]> {
    const result: unknown = await this.manager.query(text, params);
    // UPDATE/DELETE come back as [rows, count] from the postgres driver
    return (
      Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) ? result[0] : result
    ) as unknown[];
  }
}

/**
 * Statements outside a transaction, straight on the PostgreSQL server's pool: TypeORM's `query` sets up a
 * query runner per statement, which costs as much as a simple read itself.
 */
class PoolSql extends TimedSql {
  constructor(
    private readonly pool: Pool,
    timing: { queryTimer?: QueryTimer },
  ) {
    super(timing);
  }

  protected async run(text: string, params: unknown[]): Promise<unknown[]> {
    return (await this.pool.query(text, params)).rows;
  }
}

/**
 * Raw SQL over TypeORM's connection: the chain's tables are addressed by name and shape the wire format
 * directly, so statements are written out, always with bound parameters ($1, $2, …).
 */
@Injectable()
export class DatabaseService implements Sql, OnApplicationShutdown {
  private readonly sql: ManagerSql;
  /** The server's pool, once known. */
  private pooled?: PoolSql | null;
  queryTimer?: QueryTimer;

  constructor(
    readonly dataSource: DataSource,
    @Inject(EMBEDDED_SERVER) private readonly embedded: EmbeddedPostgres | null,
  ) {
    this.sql = new ManagerSql(dataSource.manager, this);
  }

  private statements(): Sql {
    if (this.pooled === undefined && this.dataSource.isInitialized) {
      const master = (this.dataSource.driver as unknown as { master?: unknown }).master;
      this.pooled = master instanceof Pool ? new PoolSql(master, this) : null;
    }
    return this.pooled ?? this.sql;
  }

  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.statements().query<Row>(text, params);
  }

  one<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row | undefined> {
    return this.statements().one<Row>(text, params);
  }

  /** Runs `work` in one database transaction: all of it is written, or none of it. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new ManagerSql(manager, this)));
  }

  /** The connections are closed first, so the embedded server's fast shutdown ends no session of ours. */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}

/** bytea comes back as a Buffer from node-postgres (a Uint8Array is taken too). */
export function asBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value === null || value === undefined) return Buffer.alloc(0);
  throw new TypeError(`expected bytes, got ${typeof value}`);
}

/** `$n, $n+1, …` for values appended to `params`: a list for `IN (…)` or a row of `VALUES (…)`. */
export function bindList(values: readonly unknown[], params: unknown[]): string {
  return values.map((value) => `$${params.push(value)}`).join(', ');
}

import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** What a query needs: a place to run SQL with bound parameters. The service and a transaction both are one. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  one<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row | undefined>;
}

class ManagerSql implements Sql {
  constructor(private readonly manager: EntityManager) {}

  async query<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.manager.query(text, params as unknown[]);
    // UPDATE/DELETE come back as [rows, count] from the postgres driver
    return (
      Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) ? result[0] : result
    ) as Row[];
  }

  async one<Row>(text: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    const rows = await this.query<Row>(text, params);
    return rows[0];
  }
}

/**
 * Raw SQL over TypeORM's connection: the chain's tables are addressed by name and shape the wire format
 * directly, so statements are written out, always with bound parameters ($1, $2, …).
 */
@Injectable()
export class DatabaseService implements Sql, OnApplicationShutdown {
  private readonly sql: ManagerSql;

  constructor(readonly dataSource: DataSource) {
    this.sql = new ManagerSql(dataSource.manager);
  }

  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.sql.query<Row>(text, params);
  }

  one<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row | undefined> {
    return this.sql.one<Row>(text, params);
  }

  /** Runs `work` in one database transaction: all of it is written, or none of it. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new ManagerSql(manager)));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** bytea comes back as a Buffer from node-postgres and as a Uint8Array from PGlite. */
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

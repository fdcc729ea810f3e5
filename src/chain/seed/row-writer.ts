import type { Sql } from '../../database/database.service';
import type { SeedRow } from './ecosystem-seed';

const IDENTIFIER = /^[a-z0-9_]+$/;

/**
 * A value as a bound parameter: 64-bit integers as text, JSON values as JSON text, bytes as bytea, times
 * as UTC text (a Date would be sent in the process's time zone, and genesis must not depend on it).
 */
export function parameter(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * Inserts seed rows, one multi-row statement per table and column set. Table and column names come from
 * the node's own seed code and are checked to be plain identifiers; every value is a bound parameter.
 */
export async function insertRows(sql: Sql, rows: readonly SeedRow[]): Promise<void> {
  const groups = new Map<string, SeedRow[]>();
  for (const row of rows) {
    const key = `${row.table}|${Object.keys(row.values).join(',')}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  for (const group of groups.values()) {
    const table = group[0].table;
    const columns = Object.keys(group[0].values);
    if (!IDENTIFIER.test(table) || !columns.every((column) => IDENTIFIER.test(column))) {
      throw new Error(`not a plain identifier in seed rows of ${table}`);
    }
    // Stay well under PostgreSQL's 65535 bound parameters per statement.
    const perStatement = Math.max(1, Math.floor(10_000 / columns.length));
    for (let start = 0; start < group.length; start += perStatement) {
      const chunk = group.slice(start, start + perStatement);
      const params: unknown[] = [];
      const tuples = chunk.map((row) => {
        const slots = columns.map((column) => {
          params.push(parameter(row.values[column]));
          return `$${params.length}`;
        });
        return `(${slots.join(', ')})`;
      });
      const columnList = columns.map((column) => `"${column}"`).join(', ');
      await sql.query(`INSERT INTO "${table}" (${columnList}) VALUES ${tuples.join(', ')}`, params);
    }
  }
}

/** Ids for the rows of each table, starting after `start` (0 on an empty table). */
export function idAllocator(start: (table: string) => bigint = () => 0n): (table: string) => bigint {
  const last = new Map<string, bigint>();
  return (table: string) => {
    const next = (last.get(table) ?? start(table)) + 1n;
    last.set(table, next);
    return next;
  };
}

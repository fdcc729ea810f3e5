import type { Sql } from '../database/database.service';
import type { HostState } from './state';
import { panic, type Value } from '../vm';

/** Checks for arguments of host built-ins, with the error a contract author can act on. */
export function textArg(value: Value, what: string): string {
  if (typeof value !== 'string') throw panic(`${what} must be a string`);
  return value;
}

/** An int, or a string holding one (values read from the database are strings). */
export function intArg(value: Value, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  throw panic(`${what} must be an integer`);
}

export function mapArg(value: Value, what: string): Map<string, Value> {
  if (value === null) return new Map();
  if (!(value instanceof Map)) throw panic(`${what} must be a map`);
  return value;
}

/** The next row id of a table: MAX(id) + 1, deterministic for every node that plays the same block. */
export async function nextRowId(sql: Sql, physical: string): Promise<bigint> {
  const row = await sql.one<{ id: string | null }>(`SELECT max("id") AS "id" FROM "${physical}"`);
  return (row?.id ? BigInt(row.id) : 0n) + 1n;
}

/** The next row id for an insert, from the block's cache when the transaction runs in a block. */
export function allocateRowId(host: HostState, physical: string): Promise<bigint> {
  if (!host.cache) return nextRowId(host.sql, physical);
  const sql = host.writeBehind?.sqlSeeing(physical) ?? host.sql;
  return host.cache.nextRowId(physical, () => nextRowId(sql, physical));
}

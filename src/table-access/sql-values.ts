import { goJsonEncode, isMoney, moneyToString, panic, type Value } from '../vm';
import type { ColumnInfo } from './catalog';

/** A contract value as a bound SQL parameter for a column of the given type. */
export function toSqlParam(value: Value, column?: ColumnInfo): unknown {
  if (value === null) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw panic(`${value} cannot be stored`);
    return String(value);
  }
  if (typeof value === 'boolean') return column?.type === 'boolean' ? value : value ? '1' : '0';
  if (typeof value === 'string') return column?.type === 'bytea' ? Buffer.from(value, 'utf8') : value;
  if (value instanceof Uint8Array) {
    return column?.type === 'bytea' ? Buffer.from(value) : Buffer.from(value).toString('hex');
  }
  if (isMoney(value)) return moneyToString(value);
  return goJsonEncode(value);
}

/** A database value (text from the query) as contracts see it: always a string, "" for NULL. */
export function fromSqlText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

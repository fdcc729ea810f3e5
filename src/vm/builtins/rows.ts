import { panic } from '../errors';
import { goString } from '../format';
import { goTypeName, type Value } from '../values';
import { textOf } from './budget';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

function firstRow(list: Value, fn: string): Map<string, Value> | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw panic(`${fn}: parameter 1 must be array, got ${goTypeName(list)}`);
  if (list.length === 0) return null;
  const row = list[0];
  return row instanceof Map ? row : null;
}

/**
 * `One(list, column)`: the column of the first row as text, "" when there is no row. `a->b` reads key `b` of the
 * JSON in column `a`, its parts trimmed and lower-cased as DBFind's Columns reads them: DBFind returns such
 * columns under the key `a.b`, which is tried first, else the JSON text of column `a` is read.
 */
export function oneOf(list: Value, column: string, text: (value: Value) => string = goString): string {
  const row = firstRow(list, 'One');
  if (!row) return '';
  const direct = row.get(column);
  if (direct !== undefined) return direct === null ? '' : text(direct);
  if (column.includes('->')) {
    const parts = column
      .toLowerCase()
      .split('->')
      .map((part) => part.trim());
    const dotted = row.get(parts.join('.'));
    if (dotted !== undefined) return dotted === null ? '' : text(dotted);
    const [base, ...path] = parts;
    let current: unknown = row.get(base);
    if (typeof current === 'string') {
      try {
        current = JSON.parse(current);
      } catch {
        return '';
      }
    }
    for (const key of path) {
      if (current instanceof Map) current = current.get(key);
      else if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
      // Own members only: a key such as `constructor` names no value of the JSON.
      else if (
        current &&
        typeof current === 'object' &&
        !Array.isArray(current) &&
        Object.hasOwn(current, key)
      )
        current = (current as Record<string, unknown>)[key];
      else return '';
    }
    if (current === undefined || current === null) return '';
    return typeof current === 'object' && !(current instanceof Map)
      ? JSON.stringify(current)
      : goString(current as Value);
  }
  return '';
}

export const rowBuiltins: BuiltinDef[] = [
  {
    name: 'One',
    async: true,
    params: 2,
    reserves: true,
    fn: (ctx, list, column) => oneOf(list, expectString(column, 'One', 2), (value) => textOf(ctx, value)),
  },
  {
    name: 'Row',
    async: false,
    params: 1,
    // The row it returns is one the list holds already.
    reserves: true,
    fn: (_ctx, list) => firstRow(list, 'Row') ?? new Map<string, Value>(),
  },
];

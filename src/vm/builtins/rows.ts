import { panic } from '../errors';
import { goString } from '../format';
import { goTypeName, type Value } from '../values';
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
 * JSON in column `a`; DBFind returns such columns under the key `a.b`, which is tried first.
 */
export function oneOf(list: Value, column: string): string {
  const row = firstRow(list, 'One');
  if (!row) return '';
  const direct = row.get(column);
  if (direct !== undefined) return direct === null ? '' : goString(direct);
  if (column.includes('->')) {
    const dotted = row.get(column.replace(/->/g, '.'));
    if (dotted !== undefined) return dotted === null ? '' : goString(dotted);
    const [base, ...path] = column.split('->');
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
      else if (current && typeof current === 'object') current = (current as Record<string, unknown>)[key];
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
    async: false,
    params: 2,
    fn: (_ctx, list, column) => oneOf(list, expectString(column, 'One', 2)),
  },
  {
    name: 'Row',
    async: false,
    params: 1,
    fn: (_ctx, list) => firstRow(list, 'Row') ?? new Map<string, Value>(),
  },
];

import type { Value } from '../vm';
import { TableError, type ColumnInfo } from './catalog';

const MAX_ORDER_COLUMNS = 64;

function descending(direction: Value): boolean {
  const text = typeof direction === 'string' ? direction.trim().toLowerCase() : String(direction);
  return text === '-1' || text === 'desc';
}

/**
 * ORDER BY over a table's checked columns, from the order forms of DBFind and the list endpoints: a
 * string (`"name"`, `"name desc, id"`), a map `{"name": -1}` (-1 or "desc" = descending), or a list of
 * those. `id` ends the order when the table has one and it was not named, so pages are stable.
 */
export function orderClause(order: Value, columns: ReadonlyMap<string, ColumnInfo>): string {
  const parts: string[] = [];
  const named = new Set<string>();
  const add = (name: string, desc: boolean) => {
    const column = columns.get(name.trim().toLowerCase());
    if (!column) throw new TableError(`order: unknown column ${name}`);
    if (named.has(column.name)) return;
    if (named.size >= MAX_ORDER_COLUMNS) throw new TableError('order: too many columns');
    named.add(column.name);
    parts.push(`"${column.name}" ${desc ? 'DESC' : 'ASC'}`);
  };
  const addItem = (item: Value) => {
    if (typeof item === 'string') {
      for (const piece of item.split(',').filter((part) => part.trim())) {
        const [name, direction = 'asc', ...rest] = piece.trim().split(/\s+/);
        if (rest.length > 0 || !/^(asc|desc)$/i.test(direction))
          throw new TableError(`order: unknown direction in ${piece.trim()}`);
        add(name, direction.toLowerCase() === 'desc');
      }
    } else if (item instanceof Map) {
      for (const [name, direction] of item) add(name, descending(direction));
    } else if (item !== null) {
      throw new TableError('order must be a column name, a map or an array of them');
    }
  };
  if (Array.isArray(order)) order.forEach(addItem);
  else addItem(order);
  if (!named.has('id') && columns.has('id')) parts.push('"id" ASC');
  return parts.join(', ');
}

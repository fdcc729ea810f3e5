import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the tables domain, each declared once as its schema: the API description shows it, and
 * the service and the routes take their types from it (`ValueOf`).
 */

/** `tables`, `getTableCount`: the ecosystem's registered tables, each with its row count (as text). */
export const TABLE_COUNTS = s.object({
  count: s.integer('tables in the ecosystem'),
  list: s.array(s.object({ name: s.string(), count: s.decimalString() })),
});
export type TableCounts = ValueOf<typeof TABLE_COUNTS>;

/** `table/{name}`, `getTable`: the table's `1_tables` row and its columns' types. */
export const TABLE_INFO = s.object(
  {
    name: s.string(),
    insert: s.string(),
    new_column: s.string(),
    update: s.string(),
    read: s.string(),
    filter: s.string(),
    conditions: s.string(),
    app_id: s.decimalString(),
    columns: s.array(s.object({ name: s.string(), type: s.string(), perm: s.string() })),
  },
  { optional: ['read', 'filter'] },
);
export type TableInfo = ValueOf<typeof TABLE_INFO>;

/** Every value of a row is a string, whatever its column's type. */
const ROW_VALUES =
  'a row: column (`column.key` for a JSON path asked in `columns`) → its value as text: bytes hex, NULL ' +
  '"NULL", booleans "true"/"false", timestamps RFC 3339, JSON columns their JSON text';
const TEXT_ROW = s.map(s.string(), ROW_VALUES);
/** A row as the API writes it: every value a string, NULL as "NULL", members in sorted order. */
export type TextRow = ValueOf<typeof TEXT_ROW>;

/** A page of rows (`list`, `listWhere`, `getList`). */
export const ROWS_PAGE = s.object({
  count: s.integer('matching rows'),
  list: s.nullable(s.array(TEXT_ROW)),
});
export type ListPage = ValueOf<typeof ROWS_PAGE>;

export const ROW = s.object({ value: TEXT_ROW });
export const SUM = s.object({ sum: s.string('decimal text, "" when no row matches') });
export const HISTORY = s.object({ list: s.array(s.map(s.any(), 'column → previous value')) });

import type { Value } from '../vm';
import { TableError, textColumnExpression, type ColumnInfo } from './catalog';

/** Bounds that keep a hostile column list from costing more than the read it names. */
export const COLUMN_LIMITS = {
  /** Keys of one JSON path after its column (`data->a->b` has two). */
  pathKeys: 32,
  /** Characters of one reference, `column->key->…` included. */
  referenceLength: 1024,
  /** References one column list may name. */
  listed: 256,
} as const;

/** A column, or a path into a JSON column, as Columns, Where, One and the `columns` of the API name it. */
export interface ColumnReference {
  column: ColumnInfo;
  /** Keys into the JSON value (`["title", "name"]` for `doc->title->name`); empty for the column itself. */
  path: readonly string[];
  /** The member of a row that holds its value: the column's name, or `doc.title.name` for a path. */
  key: string;
}

/**
 * Reads `column` or `column->key->…`. Each part is trimmed and the whole reference lower-cased, as the
 * reference node does: `Doc->Ind` reads key `ind` of column `doc` (so a key spelled with capitals in the
 * JSON cannot be reached, there as here). Keys are data, bound when the read runs, never SQL text.
 * `undefined` when the table has no such column or a key is empty; a TableError (prefixed with `context`)
 * when the reference is too long or too deep, holds U+0000, or a path follows a column that holds no JSON.
 */
export function columnReference(
  raw: string,
  columns: ReadonlyMap<string, ColumnInfo>,
  context = '',
): ColumnReference | undefined {
  if (raw.length > COLUMN_LIMITS.referenceLength) {
    throw new TableError(
      `${context}a column name is longer than ${COLUMN_LIMITS.referenceLength} characters`,
    );
  }
  // No JSON key in the database holds it (jsonb refuses \u0000), and PostgreSQL text cannot carry it.
  if (raw.includes('\u0000'))
    throw new TableError(`${context}a column name cannot hold the character U+0000`);
  const [base, ...path] = raw
    .toLowerCase()
    .split('->')
    .map((part) => part.trim());
  const column = columns.get(base);
  if (!column || path.some((key) => key === '')) return undefined;
  if (path.length === 0) return { column, path, key: column.name };
  if (path.length > COLUMN_LIMITS.pathKeys) {
    throw new TableError(
      `${context}the JSON path of ${column.name} has more than ${COLUMN_LIMITS.pathKeys} keys`,
    );
  }
  if (column.type !== 'jsonb' && column.type !== 'json') {
    throw new TableError(`${context}${column.name} is not a JSON column`);
  }
  return { column, path, key: [column.name, ...path].join('.') };
}

/**
 * The JSON value at a path as text (NULL where there is none), its keys bound through `bind`: one key names a
 * member of an object (`->>`), as in the reference; with more keys, a key that is a number also indexes an
 * array (`#>>`). Objects and arrays come back as their JSON text, every other value as its text.
 */
export function jsonPathExpression(
  column: ColumnInfo,
  path: readonly string[],
  bind: (param: unknown) => string,
): string {
  if (path.length === 1) return `("${column.name}" ->> ${bind(path[0])}::text)`;
  return `("${column.name}" #>> ${bind([...path])}::text[])`;
}

/** A reference's value as the text contracts and the API see (see textColumnExpression and jsonPathExpression). */
export function referenceTextExpression(
  reference: ColumnReference,
  bind: (param: unknown) => string,
): string {
  return reference.path.length === 0
    ? textColumnExpression(reference.column)
    : jsonPathExpression(reference.column, reference.path, bind);
}

/**
 * The names a column list gives, trimmed, empty ones left out: a comma list (`"name, doc->title"`), or an
 * array of names (its items that are not strings are left out, as the reference does). Empty: none named.
 */
export function columnNames(spec: Value | readonly string[]): string[] {
  let names: string[];
  if (spec === null || spec === undefined) names = [];
  else if (typeof spec === 'string') {
    // Longer than the most names of the longest length: refused before it is split into pieces.
    if (spec.length > COLUMN_LIMITS.listed * (COLUMN_LIMITS.referenceLength + 1)) {
      throw new TableError('too many columns');
    }
    names = spec.split(',');
  } else if (Array.isArray(spec)) names = spec.filter((item): item is string => typeof item === 'string');
  else throw new TableError('columns must be a string or an array of strings');
  const named = names.map((name) => name.trim()).filter((name) => name !== '');
  if (named.length > COLUMN_LIMITS.listed) throw new TableError('too many columns');
  return named;
}

/**
 * The name a read gives its i-th output column. No table column has `@` in its name, and that matters:
 * ORDER BY prefers an output column to a table column of the same name, so a column selected as its text
 * under its own name would be ordered as text (10 before 2). A JSON path's keys never become a name either.
 */
export function outputColumn(index: number): string {
  return `@${index}`;
}

import { isMoney, type Value } from '../vm';
import { TableError, type ColumnInfo } from './catalog';
import { columnReference, jsonPathExpression } from './columns';
import { toSqlParam } from './sql-values';

/** The type the compiler gives the text of a JSON path (no table column has it). */
const JSON_PATH_TEXT = 'json path text';

const COMPARISON: Record<string, string> = {
  $eq: '=',
  $neq: '!=',
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<=',
};
const PATTERNS: Record<string, [string, (text: string) => string]> = {
  $like: ['LIKE', (text) => `%${text}%`],
  $ilike: ['ILIKE', (text) => `%${text}%`],
  $begin: ['LIKE', (text) => `${text}%`],
  $ibegin: ['ILIKE', (text) => `${text}%`],
  $end: ['LIKE', (text) => `%${text}`],
  $iend: ['ILIKE', (text) => `%${text}`],
};

/** Bounds that keep a hostile where-map from costing more than the query it describes. */
export const WHERE_LIMITS = {
  /** Nesting of maps and lists, counted from the top map. */
  depth: 32,
  /** Values bound by one where-map (PostgreSQL allows 65,535 parameters in a statement). */
  params: 2_000,
} as const;

/** `%`, `_` and `\` in a pattern operand are literal: `$like: "50%"` finds "50%", not "500". */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function scalarText(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (isMoney(value)) return value.toFixed();
  throw new TableError('where: a value must be a string or a number');
}

/**
 * Compiles a where-map (engines.md §1.11, rest-api.md §8.4) into SQL over a table's checked columns: the
 * one compiler of contracts' DBSelect and the API's list reads. Every value is a bound parameter appended
 * to `params`; every column name must be one of `columns` (the caller may pass only those it may read).
 * Refusals are TableErrors; each caller words them for its side (a VM panic, an API error).
 */
export class WhereCompiler {
  private readonly firstParam: number;

  constructor(
    private readonly columns: ReadonlyMap<string, ColumnInfo>,
    private readonly params: unknown[],
  ) {
    this.firstParam = params.length;
  }

  compile(where: Value, depth = 0): string {
    if (where === null) return 'true';
    if (!(where instanceof Map)) throw new TableError('where must be a map');
    this.deeper(depth);
    const parts: string[] = [];
    for (const [rawKey, value] of where) {
      const key = rawKey.trim();
      const lower = key.toLowerCase();
      if (lower === '$and' || lower === '$or')
        parts.push(this.group(lower === '$and' ? ' AND ' : ' OR ', value, depth + 1));
      else parts.push(this.column(key, value, depth + 1));
    }
    return parts.length === 0 ? 'true' : parts.join(' AND ');
  }

  private deeper(depth: number): void {
    if (depth > WHERE_LIMITS.depth) throw new TableError(`where: nested deeper than ${WHERE_LIMITS.depth}`);
  }

  private group(joiner: string, value: Value, depth: number): string {
    if (!Array.isArray(value)) throw new TableError('$and and $or take an array of maps');
    this.deeper(depth);
    const parts = value.map((item) => `(${this.compile(item, depth + 1)})`);
    return parts.length === 0 ? 'true' : `(${parts.join(joiner)})`;
  }

  /**
   * `name` is a column, or `column->key->key` for a value in a JSON column (see columnReference), compared
   * as text with the value's text.
   */
  private column(name: string, value: Value, depth: number): string {
    this.deeper(depth);
    const reference = columnReference(name, this.columns, 'where: ');
    if (!reference) throw new TableError(`where: unknown column ${name}`);
    let column = reference.column;
    let quoted = `"${column.name}"`;
    if (reference.path.length > 0) {
      quoted = jsonPathExpression(column, reference.path, (param) => this.push(param));
      column = { name: reference.key, type: JSON_PATH_TEXT };
    }
    if (value === '$isnull') return `${quoted} IS NULL`;
    if (value instanceof Map) {
      const parts = [...value].map(([operator, operand]) => this.operator(quoted, column, operator, operand));
      return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
    }
    if (Array.isArray(value)) {
      const parts = value.map((item) =>
        item instanceof Map ? this.column(name, item, depth + 1) : `${quoted} = ${this.bind(item, column)}`,
      );
      return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
    }
    return `${quoted} = ${this.bind(value, column)}`;
  }

  private operator(quoted: string, column: ColumnInfo, rawOperator: string, operand: Value): string {
    const operator = rawOperator.trim().toLowerCase();
    if (operator in COMPARISON) return `${quoted} ${COMPARISON[operator]} ${this.bind(operand, column)}`;
    if (operator in PATTERNS) {
      const [sqlOperator, shape] = PATTERNS[operator];
      return `${quoted}::text ${sqlOperator} ${this.push(shape(escapeLike(scalarText(operand))))}`;
    }
    if (operator === '$in' || operator === '$nin') {
      const items = Array.isArray(operand) ? operand : [operand];
      if (items.length === 0) return operator === '$in' ? 'false' : 'true';
      const list = items.map((item) => this.bind(item, column)).join(', ');
      return `${quoted} ${operator === '$in' ? 'IN' : 'NOT IN'} (${list})`;
    }
    if (operator === '$isnull') return `${quoted} IS NULL`;
    throw new TableError(`where: unknown operator ${rawOperator}`);
  }

  private bind(value: Value, column: ColumnInfo): string {
    if (value instanceof Map || Array.isArray(value))
      throw new TableError(`where: a list or map cannot be compared with ${column.name}`);
    // A JSON value is compared as its text: a boolean is bound as the reference writes it (true, not 1).
    if (column.type === JSON_PATH_TEXT && typeof value === 'boolean') return this.push(String(value));
    return this.push(toSqlParam(value, column));
  }

  private push(param: unknown): string {
    if (this.params.length - this.firstParam >= WHERE_LIMITS.params) {
      throw new TableError(`where: more than ${WHERE_LIMITS.params} values`);
    }
    this.params.push(param);
    return `$${this.params.length}`;
  }
}

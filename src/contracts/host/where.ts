import { isMoney, panic, type Value } from '../../vm';
import { toSqlParam } from './sql-values';
import type { ColumnInfo } from './tables';

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

/** `%`, `_` and `\` in a pattern operand are literal: `$like: "50%"` finds "50%", not "500". */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function scalarText(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (isMoney(value)) return value.toFixed();
  throw panic('where: a value must be a string or a number');
}

/**
 * Compiles a where-map (engines.md §1.11) into SQL over a table's checked columns. Every value is a bound
 * parameter appended to `params`; every column name must exist in the table.
 */
export class WhereCompiler {
  constructor(
    private readonly columns: ReadonlyMap<string, ColumnInfo>,
    private readonly params: unknown[],
  ) {}

  compile(where: Value): string {
    if (where === null) return 'true';
    if (!(where instanceof Map)) throw panic('where must be a map');
    const parts: string[] = [];
    for (const [rawKey, value] of where) {
      const key = rawKey.trim();
      const lower = key.toLowerCase();
      if (lower === '$and' || lower === '$or')
        parts.push(this.group(lower === '$and' ? ' AND ' : ' OR ', value));
      else parts.push(this.column(key, value));
    }
    return parts.length === 0 ? 'true' : parts.join(' AND ');
  }

  private group(joiner: string, value: Value): string {
    if (!Array.isArray(value)) throw panic('$and and $or take an array of maps');
    const parts = value.map((item) => `(${this.compile(item)})`);
    return parts.length === 0 ? 'true' : `(${parts.join(joiner)})`;
  }

  /** `name` is a column, or `column->key->key` for a field of a JSON column (compared as text). */
  private column(name: string, value: Value): string {
    const [base, ...path] = name.split('->').map((part) => part.trim());
    let column = this.columns.get(base.toLowerCase());
    if (!column || path.some((key) => key === '')) throw panic(`where: unknown column ${name}`);
    let quoted = `"${column.name}"`;
    if (path.length > 0) {
      if (column.type !== 'jsonb' && column.type !== 'json') {
        throw panic(`where: ${column.name} is not a JSON column`);
      }
      this.params.push(path);
      quoted = `("${column.name}" #>> $${this.params.length}::text[])`;
      column = { name: `${column.name}->${path.join('->')}`, type: 'text' };
    }
    if (value === '$isnull') return `${quoted} IS NULL`;
    if (value instanceof Map) {
      const parts = [...value].map(([operator, operand]) => this.operator(quoted, column, operator, operand));
      return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
    }
    if (Array.isArray(value)) {
      const parts = value.map((item) =>
        item instanceof Map ? this.column(name, item) : `${quoted} = ${this.bind(item, column)}`,
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
      this.params.push(shape(escapeLike(scalarText(operand))));
      return `${quoted}::text ${sqlOperator} $${this.params.length}`;
    }
    if (operator === '$in' || operator === '$nin') {
      const items = Array.isArray(operand) ? operand : [operand];
      if (items.length === 0) return operator === '$in' ? 'false' : 'true';
      const list = items.map((item) => this.bind(item, column)).join(', ');
      return `${quoted} ${operator === '$in' ? 'IN' : 'NOT IN'} (${list})`;
    }
    if (operator === '$isnull') return `${quoted} IS NULL`;
    throw panic(`where: unknown operator ${rawOperator}`);
  }

  private bind(value: Value, column: ColumnInfo): string {
    if (value instanceof Map || Array.isArray(value))
      throw panic(`where: a list or map cannot be compared with ${column.name}`);
    this.params.push(toSqlParam(value, column));
    return `$${this.params.length}`;
  }
}

import {
  PageDataError,
  type BinaryQuery,
  type Cell,
  type FindRowsQuery,
  type FoundRows,
  type HistoryQuery,
  type HistoryRows,
  type TemplatePort,
  type WhereMap,
  type WhereValue,
} from '../types';

/**
 * An in-memory port with fixed data for the pure conformance suite. It answers the way the table access service
 * will (permissions, a where-map subset, order, limit, offset, count), and records every query it gets.
 */
interface FakeTable {
  columns: string[];
  /** Column kinds: `text`, `bytea` (binary), `number`. */
  kinds: Record<string, string>;
  rows: Array<Record<string, string | null>>;
  readable: boolean;
}

const TABLES: Record<string, FakeTable> = {
  '1_members': {
    columns: ['id', 'name', 'amount', 'note', 'avatar', 'data'],
    kinds: { id: 'number', amount: 'number', avatar: 'bytea', note: 'text', name: 'text', data: 'jsonb' },
    rows: [
      {
        id: '1',
        name: 'Alice',
        amount: '100',
        note: 'A long note about Alice that goes past thirty-two chars',
        avatar: 'aa11',
        data: '{"city":"Paris"}',
      },
      { id: '2', name: 'Bob', amount: '250', note: 'short', avatar: null, data: '{"city":"Oslo"}' },
      { id: '3', name: 'Carol <admin>', amount: '75', note: null, avatar: 'cc33', data: '{}' },
      { id: '4', name: 'Dave', amount: '250', note: 'x', avatar: null, data: '{"city":"Rome"}' },
    ],
    readable: true,
  },
  '1_secret': {
    columns: ['id', 'value'],
    kinds: { id: 'number', value: 'text' },
    rows: [{ id: '1', value: 'hidden' }],
    readable: false,
  },
  '2_items': {
    columns: ['id', 'title'],
    kinds: { id: 'number', title: 'text' },
    rows: [{ id: '7', title: 'Eco two item' }],
    readable: true,
  },
};

const ECOSYSTEM_PARAMS: Record<string, Record<string, string>> = {
  '1': {
    money_digit: '2',
    founder_account: '-110277540701013350',
    colors: 'red,green,blue',
    max_sum: '1000000',
  },
  '2': { money_digit: '4', colors: 'cyan,magenta' },
};

const APP_PARAMS: Record<string, string> = { '1/1/roles': 'admin,developer,user', '1/2/title': 'Shop' };

const SYSTEM_PARAMS: Record<string, string> = { max_block_size: '67108864', gap_between_blocks: '2' };

const LANGUAGES: Record<string, Record<string, Record<string, string>>> = {
  '1': {
    hello: { en: 'Hello', fr: 'Bonjour', 'en-gb': 'Hello, mate' },
    green: { en: 'Green', de: 'Grün' },
    timeformat: { en: 'DD.MM.YYYY HH:MI', fr: 'YYYY/MM/DD' },
    empty_en: { en: '', es: 'Hola' },
    title: { en: 'Members <list>' },
  },
  '2': { hello: { en: 'Hello from two' } },
};

const SNIPPETS: Record<string, Record<string, string>> = {
  '1': {
    greeting: 'Span(Hello #name#)',
    nested: 'Div(outer){Include(greeting)}',
    loop: 'Include(loop)',
    empty: '',
    with_var: 'SetVar(from_snippet, yes)',
  },
  '2': { greeting: 'Em(eco two)' },
};

function compareValues(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

function matches(row: Record<string, string | null>, where: WhereMap): boolean {
  for (const [key, condition] of Object.entries(where)) {
    if (key === '$and' || key === '$or') {
      const parts = (Array.isArray(condition) ? condition : []).filter(
        (part): part is WhereMap => typeof part === 'object' && !Array.isArray(part),
      );
      const ok =
        key === '$and' ? parts.every((part) => matches(row, part)) : parts.some((part) => matches(row, part));
      if (!ok) return false;
      continue;
    }
    const value = row[key.toLowerCase()] ?? '';
    if (!check(value, condition)) return false;
  }
  return true;
}

function check(value: string, condition: WhereValue): boolean {
  if (typeof condition === 'string') return condition === '$isnull' ? value === '' : value === condition;
  if (Array.isArray(condition)) return condition.every((item) => check(value, item));
  const [op, operand] = Object.entries(condition)[0] ?? ['$eq', ''];
  const text = typeof operand === 'string' ? operand : '';
  switch (op) {
    case '$eq':
      return value === text;
    case '$neq':
      return value !== text;
    case '$gt':
      return compareValues(value, text) > 0;
    case '$gte':
      return compareValues(value, text) >= 0;
    case '$lt':
      return compareValues(value, text) < 0;
    case '$lte':
      return compareValues(value, text) <= 0;
    case '$like':
      return value.includes(text);
    case '$in':
      return Array.isArray(operand) && operand.includes(value);
    default:
      throw new PageDataError(`unknown operator ${op}`);
  }
}

function orderOf(order: WhereValue | undefined): Array<[string, number]> {
  if (order === undefined || order === '') return [['id', 1]];
  if (typeof order === 'string') {
    return order.split(',').map((part) => {
      const [column, direction] = part.trim().split(/\s+/);
      return [column, direction?.toLowerCase() === 'desc' ? -1 : 1];
    });
  }
  const items = Array.isArray(order) ? order : [order];
  return items.flatMap((item): Array<[string, number]> => {
    if (typeof item === 'string') return [[item, 1]];
    if (Array.isArray(item)) return [];
    return Object.entries(item).map(([column, direction]) => [column, direction === '-1' ? -1 : 1]);
  });
}

export class FakePort implements TemplatePort {
  readonly queries: FindRowsQuery[] = [];

  findRows(query: FindRowsQuery): FoundRows {
    this.queries.push(query);
    let ecosystem = query.ecosystem;
    let name = query.table.toLowerCase();
    const match = /^@(\d+)(.+)$/.exec(name);
    if (match) [, ecosystem, name] = match;
    const tableName = `${ecosystem}_${name}`;
    const table = TABLES[tableName];
    if (!table) throw new PageDataError(`relation "${tableName}" does not exist`);
    if (!table.readable) throw new PageDataError('Access denied');
    const requested = query.columns.includes('*') ? table.columns : query.columns;
    for (const column of requested) {
      const base = column.split('->')[0];
      if (!table.columns.includes(base)) throw new PageDataError(`column "${base}" does not exist`);
    }
    let rows = table.rows.filter((row) => !query.where || matches(row, query.where));
    const count = String(rows.length);
    const order = orderOf(query.order);
    rows = [...rows].sort((a, b) => {
      for (const [column, direction] of order) {
        const cmp = compareValues(a[column] ?? '', b[column] ?? '');
        if (cmp !== 0) return cmp * direction;
      }
      return 0;
    });
    rows = rows.slice(query.offset, query.offset + query.limit);
    const columns = requested.map((column) => column.replace(/->/g, '.'));
    const types = requested.map((column) =>
      table.kinds[column] === 'bytea' ? 'blob' : query.cutoff.includes(column) ? 'long_text' : 'text',
    );
    const cells = rows.map((row) =>
      requested.map((column, i): Cell => {
        const [base, path] = column.split('->');
        const raw = row[base] ?? null;
        if (path !== undefined)
          return raw === null ? null : ((JSON.parse(raw) as Record<string, string>)[path] ?? null);
        if (raw === null) return null;
        if (types[i] === 'blob') return { title: `hash-${raw}`, hash: `hash-${raw}` };
        if (types[i] === 'long_text') return { title: raw.slice(0, 32), hash: `h${raw.length}` };
        return raw;
      }),
    );
    return { table: tableName, columns, types, rows: cells, count: query.count ? count : undefined };
  }

  ecosystemParam(ecosystem: string, name: string): string | undefined {
    if (name === 'broken') throw new PageDataError('pq: database is unavailable');
    return ECOSYSTEM_PARAMS[ecosystem]?.[name];
  }

  appParam(ecosystem: string, app: string, name: string): string | undefined {
    return APP_PARAMS[`${ecosystem}/${app}/${name}`];
  }

  systemParam(name: string): string | undefined {
    return SYSTEM_PARAMS[name];
  }

  langRes(ecosystem: string, name: string): Record<string, string> | undefined {
    return LANGUAGES[ecosystem]?.[name];
  }

  async snippet(ecosystem: string, name: string): Promise<string | undefined> {
    return Promise.resolve(SNIPPETS[ecosystem]?.[name]);
  }

  binaryUrl(query: BinaryQuery): string | undefined {
    if (query.ecosystem === '2') return query.id === '5' ? '/data/1_binaries/9/data/e2e2' : undefined;
    if (
      query.id === '5' ||
      (query.appId === '1' && query.name === 'logo' && query.account === '0000-0000-0000-0000-0001')
    ) {
      return `/data/1_binaries/5/data/d41d8cd9`;
    }
    return undefined;
  }

  history(query: HistoryQuery): HistoryRows {
    if (query.table !== 'members')
      throw new PageDataError(`relation "${query.ecosystem}_${query.table}" does not exist`);
    const rows =
      query.id === '1'
        ? [
            { id: '1', name: 'Alicia', amount: '90', note: null, avatar: null, data: '{}' },
            { id: '1', name: 'Ali', amount: '80', note: 'old', avatar: null, data: '{}' },
          ]
        : [];
    return { columns: TABLES['1_members'].columns, rows: query.rollbackId !== '0' ? rows.slice(0, 1) : rows };
  }

  columnType(ecosystem: string, table: string, column: string): string {
    const found = TABLES[`${ecosystem}_${table}`];
    const kind = found?.kinds[column];
    if (!kind) throw new PageDataError(`column ${column} of ${table} does not exist`);
    return kind === 'bytea' ? 'bytea' : kind === 'number' ? 'number' : kind === 'jsonb' ? 'json' : 'text';
  }

  txInfo(hash: string): string {
    if (hash === 'abcd') return '{"block":"12","contract":"@1NewPage","params":{"Name":"home"}}';
    throw new PageDataError('Item not found');
  }
}

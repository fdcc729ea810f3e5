import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../vm';
import { TableError, type ColumnInfo } from './catalog';
import { orderClause } from './order';
import { WHERE_LIMITS, WhereCompiler } from './where';
import { parseOrderText, parseWhereText, whereFromJson } from './where-text';

const COLUMNS = new Map<string, ColumnInfo>(
  [
    ['id', 'bigint'],
    ['name', 'character varying'],
    ['amount', 'numeric'],
    ['data', 'jsonb'],
    ['flag', 'boolean'],
    ['image', 'bytea'],
  ].map(([name, type]) => [name, { name, type }]),
);

function compile(where: Value) {
  const params: unknown[] = [];
  const sql = new WhereCompiler(COLUMNS, params).compile(where);
  return { sql, params };
}

const text = (where: string) => compile(parseWhereText(where)!);

describe('WhereCompiler', () => {
  it('compiles every comparison operator with bound values', () => {
    const ops: [string, string][] = [
      ['$eq', '='],
      ['$neq', '!='],
      ['$gt', '>'],
      ['$gte', '>='],
      ['$lt', '<'],
      ['$lte', '<='],
    ];
    for (const [op, sql] of ops) {
      expect(text(`{"amount":{"${op}":5}}`)).toEqual({ sql: `("amount" ${sql} $1)`, params: ['5'] });
    }
  });

  it('compiles the pattern operators with %, _ and \\ taken literally', () => {
    expect(text('{"name":{"$like":"5%_\\"}}')).toEqual({
      sql: '("name"::text LIKE $1)',
      params: ['%5\\%\\_\\\\%'],
    });
    expect(text('{"name":{"$ilike":"ab"}}').params).toEqual(['%ab%']);
    expect(text('{"name":{"$begin":"ab"}}')).toEqual({ sql: '("name"::text LIKE $1)', params: ['ab%'] });
    expect(text('{"name":{"$ibegin":"ab"}}')).toEqual({ sql: '("name"::text ILIKE $1)', params: ['ab%'] });
    expect(text('{"name":{"$end":"ab"}}').params).toEqual(['%ab']);
    expect(text('{"name":{"$iend":"ab"}}')).toEqual({ sql: '("name"::text ILIKE $1)', params: ['%ab'] });
  });

  it('binds $in and $nin values, also a single string, and treats an empty list as false/true', () => {
    expect(text(`{"name":{"$in":["a","b') OR 1=1 --"]}}`)).toEqual({
      sql: '("name" IN ($1, $2))',
      params: ['a', "b') OR 1=1 --"],
    });
    expect(text(`{"name":{"$nin":"x') OR ('1'='1"}}`)).toEqual({
      sql: '("name" NOT IN ($1))',
      params: ["x') OR ('1'='1"],
    });
    expect(compile(new Map([['name', new Map([['$in', []]])]])).sql).toBe('(false)');
    expect(compile(new Map([['name', new Map([['$nin', []]])]])).sql).toBe('(true)');
  });

  it('compiles $and, $or, $isnull, ranges and the reference example', () => {
    expect(
      text('{"id":5,"amount":{"$gt":0},"$or":[{"id":5},{"name":{"$begin":"0000"}}],"data":$isnull}'),
    ).toEqual({
      sql: '"id" = $1 AND ("amount" > $2) AND (("id" = $3) OR (("name"::text LIKE $4))) AND "data" IS NULL',
      params: ['5', '0', '5', '0000%'],
    });
    expect(text('{"id":[{"$gt":1},{"$lt":5}]}')).toEqual({
      sql: '(("id" > $1) AND ("id" < $2))',
      params: ['1', '5'],
    });
    expect(text('{"name":{"$isnull":true}}').sql).toBe('("name" IS NULL)');
    expect(text('{"$and":[{"id":1},{"flag":"true"}]}').sql).toBe('(("id" = $1) AND ("flag" = $2))');
    expect(text('{}').sql).toBe('true');
  });

  it('reads JSON paths of JSON columns through a bound path', () => {
    expect(text('{"data->a->b":"x"}')).toEqual({
      sql: '("data" #>> $1::text[]) = $2',
      params: [['a', 'b'], 'x'],
    });
    expect(() => text('{"name->a":"x"}')).toThrow('where: name is not a JSON column');
    expect(() => text('{"data->":"x"}')).toThrow(TableError);
  });

  it('reads a JSON path key as the reference does: lower-cased, one key a member, booleans as text', () => {
    expect(text('{"Data->Ind":"101"}')).toEqual({
      sql: '("data" ->> $1::text) = $2',
      params: ['ind', '101'],
    });
    expect(compile(new Map([['data->flag', true]]))).toEqual({
      sql: '("data" ->> $1::text) = $2',
      params: ['flag', 'true'],
    });
    expect(text('{"data->a->b":{"$in":["1","2"]},"data->c":$isnull}')).toEqual({
      sql: '(("data" #>> $1::text[]) IN ($2, $3)) AND ("data" ->> $4::text) IS NULL',
      params: [['a', 'b'], '1', '2', 'c'],
    });
    expect(text(`{"data->it's') OR true --":"x"}`)).toEqual({
      sql: '("data" ->> $1::text) = $2',
      params: ["it's') or true --", 'x'],
    });
  });

  it('refuses unknown columns and operators, names with SQL in them, and misplaced operators', () => {
    for (const where of [
      '{"nope":1}',
      '{"name\\" = 1 OR 1=1 --":1}',
      '{"$eq":1}',
      '{"name":{"$regex":"a"}}',
      '{"name":{"$in":[{"a":1}]}}',
      '{"$or":"x"}',
      '{"$or":["x"]}',
    ]) {
      expect(() => text(where), where).toThrow(TableError);
    }
  });

  it('bounds nesting and the number of bound values', () => {
    let deep = '{"id":1}';
    for (let i = 0; i < WHERE_LIMITS.depth + 2; i++) deep = `{"$and":[${deep}]}`;
    expect(() => text(deep)).toThrow(/nested deeper/);
    const many = new Map([
      ['name', new Map([['$in', Array.from({ length: WHERE_LIMITS.params + 1 }, String)]])],
    ]);
    expect(() => compile(many)).toThrow(/more than/);
  });
});

describe('the where-object text', () => {
  it('reads the template object syntax: raw scalars, quotes removed once, literal delimiters in quotes', () => {
    expect(parseWhereText('{ name : "a, b: {c}" , id: 5, list:[1, "2"], e: [], o: {} }')).toEqual(
      new Map<string, Value>([
        ['name', 'a, b: {c}'],
        ['id', '5'],
        ['list', ['1', '2']],
        ['e', ''],
        ['o', ''],
      ]),
    );
    expect(parseWhereText(undefined)).toBeUndefined();
    expect(parseWhereText('')).toBeUndefined();
  });

  it('refuses what is not an object, commas out of place and unfinished text', () => {
    expect(() => parseWhereText(' {"id":1}')).toThrow('Where has wrong format');
    expect(() => parseWhereText('[1]')).toThrow('Where has wrong format');
    expect(() => parseWhereText('{"id":1,,"a":2}')).toThrow('unexpected comma');
    expect(() => parseWhereText('{"id":1,}')).toThrow('unexpected comma');
    expect(() => parseWhereText('{"id":[1,,2]}')).toThrow('unexpected comma');
    for (const bad of ['{', '{"id"', '{"id":1', '{"id":"1}', '{"id":1} x', '{"id" 1}', '{"a":{"b":1}']) {
      expect(() => parseWhereText(bad), bad).toThrow('where parse object failed');
    }
  });

  it('takes JSON values as the same maps, lists and texts', () => {
    expect(whereFromJson({ id: { $gt: 2 }, name: ['a', true, null] })).toEqual(
      new Map<string, Value>([
        ['id', new Map([['$gt', '2']])],
        ['name', ['a', 'true', 'null']],
      ]),
    );
  });
});

describe('orderClause', () => {
  it('takes a name, a map, a list of both and plain text, and ends with id', () => {
    expect(orderClause(parseOrderText('"name"'), COLUMNS)).toBe('"name" ASC, "id" ASC');
    expect(orderClause(parseOrderText('[{"amount":-1},"name"]'), COLUMNS)).toBe(
      '"amount" DESC, "name" ASC, "id" ASC',
    );
    expect(orderClause(parseOrderText('{"amount":"-1","id":1}'), COLUMNS)).toBe('"amount" DESC, "id" ASC');
    expect(orderClause(parseOrderText('name desc, id'), COLUMNS)).toBe('"name" DESC, "id" ASC');
    expect(orderClause(parseOrderText(undefined), COLUMNS)).toBe('"id" ASC');
  });

  it('reads an order as JSON exactly when JSON.parse can, without trying it on a column list', () => {
    const byTrying = (text: string): unknown => {
      if (text.trim() === '') return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return text;
      }
      return whereFromJson(parsed);
    };
    const space = fc.constantFrom(
      '',
      ' ',
      '\t',
      '\n',
      '\r',
      '\u00a0',
      '\v',
      '\f',
      '\ufeff',
      '\u2028',
      '  \t\r\n',
    );
    const core = fc.oneof(
      fc.json({ maxDepth: 2 }),
      fc.string(),
      fc.constantFrom(
        'true',
        'false',
        'null',
        'truex',
        'nul',
        '-',
        '-1',
        '1e2',
        '01',
        'name desc, id',
        'qty',
      ),
    );
    fc.assert(
      fc.property(space, core, space, (before, text, after) => {
        const order = before + text + after;
        expect(parseOrderText(order)).toEqual(byTrying(order));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses unknown columns and anything spliced after a name', () => {
    for (const order of ['nope', '"id; DROP TABLE x"', 'name desc; --', '[{"name":1},3]', '{"data->a":1}']) {
      expect(() => orderClause(parseOrderText(order), COLUMNS), order).toThrow(TableError);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { TableError, type ColumnInfo } from './catalog';
import {
  COLUMN_LIMITS,
  columnNames,
  columnReference,
  jsonPathExpression,
  referenceTextExpression,
} from './columns';

const COLUMNS = new Map<string, ColumnInfo>(
  [
    ['id', 'bigint'],
    ['myname', 'character varying'],
    ['doc', 'jsonb'],
  ].map(([name, type]) => [name, { name, type }]),
);

function bound(build: (bind: (param: unknown) => string) => string) {
  const params: unknown[] = [];
  const sql = build((param) => `$${params.push(param)}`);
  return { sql, params };
}

describe('columnReference', () => {
  it('reads a column or a path into a JSON column, trimmed and lower-cased as the reference does', () => {
    expect(columnReference('MyName', COLUMNS)).toEqual({
      column: COLUMNS.get('myname'),
      path: [],
      key: 'myname',
    });
    expect(columnReference(' Doc -> Ind ', COLUMNS)).toEqual({
      column: COLUMNS.get('doc'),
      path: ['ind'],
      key: 'doc.ind',
    });
    expect(columnReference('doc->languages->arr_id->2', COLUMNS)?.key).toBe('doc.languages.arr_id.2');
  });

  it('takes keys as data: quotes, comments, brackets and any script stay keys', () => {
    for (const key of ["it's", 'a--b', 'x)y', '"; drop table "1_keys"; --', 'ключ', '🙂', '$1', '\\']) {
      expect(columnReference(`doc->${key}`, COLUMNS)?.path, key).toEqual([key.toLowerCase()]);
    }
  });

  it('knows no column, or an empty key, as no reference', () => {
    for (const name of ['nope', 'nope->a', 'doc->', 'doc->->a', '->a', '', 'doc-> ']) {
      expect(columnReference(name, COLUMNS), name).toBeUndefined();
    }
  });

  it('refuses a path after a column that holds no JSON, and paths too long or too deep', () => {
    expect(() => columnReference('myname->a', COLUMNS, 'where: ')).toThrow(
      'where: myname is not a JSON column',
    );
    const deep = `doc${'->k'.repeat(COLUMN_LIMITS.pathKeys + 1)}`;
    expect(() => columnReference(deep, COLUMNS)).toThrow(/more than 32 keys/);
    expect(columnReference(`doc${'->k'.repeat(COLUMN_LIMITS.pathKeys)}`, COLUMNS)?.path).toHaveLength(32);
    const long = `doc->${'k'.repeat(COLUMN_LIMITS.referenceLength)}`;
    expect(() => columnReference(long, COLUMNS)).toThrow(TableError);
    expect(() => columnReference(long, COLUMNS)).toThrow(/longer than 1024 characters/);
    expect(() => columnReference('doc->a\u0000b', COLUMNS)).toThrow(
      'a column name cannot hold the character U+0000',
    );
  });
});

describe('JSON path SQL', () => {
  it('binds the keys: one key names a member (->>), more keys a path (#>>)', () => {
    const doc = COLUMNS.get('doc')!;
    expect(bound((bind) => jsonPathExpression(doc, ['ind'], bind))).toEqual({
      sql: '("doc" ->> $1::text)',
      params: ['ind'],
    });
    expect(bound((bind) => jsonPathExpression(doc, ['a', "b') OR true --"], bind))).toEqual({
      sql: '("doc" #>> $1::text[])',
      params: [['a', "b') OR true --"]],
    });
    expect(bound((bind) => referenceTextExpression(columnReference('myname', COLUMNS)!, bind))).toEqual({
      sql: '"myname"::text',
      params: [],
    });
  });
});

describe('columnNames', () => {
  it('reads a comma list or an array of names, leaving out empty names and (in arrays) what is not text', () => {
    expect(columnNames(' Myname, doc ,, Doc->Ind ')).toEqual(['Myname', 'doc', 'Doc->Ind']);
    expect(columnNames(['Myname', 5n, 'doc->a', null, ''])).toEqual(['Myname', 'doc->a']);
    expect(columnNames(null)).toEqual([]);
    expect(columnNames('')).toEqual([]);
    expect(() => columnNames(new Map())).toThrow(TableError);
  });

  it('refuses more names than a list may have, also before splitting a very long text', () => {
    expect(columnNames(Array.from({ length: COLUMN_LIMITS.listed }, () => 'id'))).toHaveLength(256);
    expect(() => columnNames(Array.from({ length: COLUMN_LIMITS.listed + 1 }, () => 'id'))).toThrow(
      'too many columns',
    );
    expect(() =>
      columnNames(','.repeat(COLUMN_LIMITS.listed * (COLUMN_LIMITS.referenceLength + 1) + 1)),
    ).toThrow('too many columns');
  });
});

import { describe, expect, it } from 'vitest';
import type { Value } from '../values';
import { oneOf } from './rows';

const rows = (row: Record<string, string>): Value => [new Map<string, Value>(Object.entries(row))];

describe('One', () => {
  it('reads a JSON path as DBFind names it, lower-cased: the dotted member, else the JSON column', () => {
    expect(oneOf(rows({ id: '2', 'doc.type': 'document' }), 'Doc->Type')).toBe('document');
    expect(oneOf(rows({ doc: '{"check": "99"}' }), 'doc->check')).toBe('99');
    expect(oneOf(rows({ doc: '{"languages": {"arr_id": {"2": "0"}}}' }), 'doc->languages->arr_id->2')).toBe(
      '0',
    );
    expect(oneOf(rows({ doc: '{"list": ["a", "b"]}' }), 'doc -> list -> 1')).toBe('b');
    expect(oneOf(rows({ doc: '{"title": {"name": "x"}}' }), 'doc->title')).toBe('{"name":"x"}');
  });

  it('finds nothing for keys that are no member of the JSON', () => {
    for (const path of [
      'doc->constructor',
      'doc->list->length',
      'doc->__proto__',
      'doc->list->-1',
      'doc->a->b',
    ]) {
      expect(oneOf(rows({ doc: '{"list": ["a"], "a": "text"}' }), path), path).toBe('');
    }
    expect(oneOf(rows({ doc: 'not json' }), 'doc->a')).toBe('');
    expect(oneOf([], 'doc->a')).toBe('');
  });
});

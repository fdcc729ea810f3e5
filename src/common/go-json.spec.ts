import { describe, expect, it } from 'vitest';
import { goJsonStringify, keepGoJson } from './go-json';

describe('goJsonStringify', () => {
  it('writes 64-bit integers exactly', () => {
    expect(goJsonStringify({ key_id: -110277540701013350n, max: 18446744073709551615n })).toBe(
      '{"key_id":-110277540701013350,"max":18446744073709551615}',
    );
  });

  it('escapes the way Go does', () => {
    expect(goJsonStringify('<a href="x">&\u2028\u2029\n\t\u0001')).toBe(
      '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u2028\\u2029\\n\\t\\u0001"',
    );
    expect(goJsonStringify('caf\u00e9 \ud83d\ude00')).toBe('"caf\u00e9 \ud83d\ude00"');
    expect(goJsonStringify('lone \ud800 surrogate')).toBe('"lone \ufffd surrogate"');
  });

  it('keeps insertion order, drops undefined members, writes bytes as base64', () => {
    const map = new Map<string, unknown>([
      ['b', 1],
      ['a', [true, null]],
    ]);
    expect(goJsonStringify({ z: map, skipped: undefined, bytes: new Uint8Array([1, 2, 255]) })).toBe(
      '{"z":{"b":1,"a":[true,null]},"bytes":"AQL/"}',
    );
  });

  it('writes a kept value once and reuses its text, which no member lists', () => {
    const page = keepGoJson({ count: 2n, list: [{ id: '1' }, new Map([['name', '<b>']])] });
    const text = goJsonStringify(page);
    expect(text).toBe('{"count":2,"list":[{"id":"1"},{"name":"\\u003cb\\u003e"}]}');
    expect(Object.keys(page)).toEqual(['count', 'list']);
    // A kept value never changes; were it changed, the text first written would still be answered.
    page.count = 3n;
    expect(goJsonStringify({ value: page })).toBe(`{"value":${text}}`);
    expect(keepGoJson('text')).toBe('text');
    expect(goJsonStringify(keepGoJson(Object.freeze({ a: 1 })))).toBe('{"a":1}');
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => goJsonStringify(Number.NaN)).toThrow(TypeError);
    expect(() => goJsonStringify(() => 1)).toThrow(TypeError);
  });
});

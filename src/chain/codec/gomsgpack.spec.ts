import { describe, expect, it } from 'vitest';
import { bytesOfHex, hexOf } from './bytes';
import { CodecError } from './errors';
import { MsgExt, MsgFloat, MsgInt, MsgValue, decode, encode, mp, msgTypeName, toPlain } from './gomsgpack';

const hexEncode = (value: MsgValue): string => hexOf(encode(value));

describe('gomsgpack encoder', () => {
  it('writes Go int64 and uint64 at full width whatever the value', () => {
    expect(hexEncode(mp.int64(1))).toBe('d30000000000000001');
    // The guest key id; as uint64 it is 18336466533008538266 = 0xfe78372937cffa9a.
    expect(hexEncode(mp.int64(-110277540701013350n))).toBe('d3fe78372937cffa9a');
    expect(hexEncode(mp.uint64(0))).toBe('cf0000000000000000');
    expect(hexEncode(mp.uint32(5020))).toBe('ce0000139c');
    expect(hexEncode(mp.int32(-1))).toBe('d2ffffffff');
  });

  it('writes Go int in the smallest form, non-negative values in the unsigned family', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '00'],
      [127n, '7f'],
      [128n, 'cc80'],
      [255n, 'ccff'],
      [256n, 'cd0100'],
      [5123n, 'cd1403'],
      [65536n, 'ce00010000'],
      [0x1_0000_0000n, 'cf0000000100000000'],
      [-1n, 'ff'],
      [-32n, 'e0'],
      [-33n, 'd0df'],
      [-128n, 'd080'],
      [-129n, 'd1ff7f'],
      [-32769n, 'd2ffff7fff'],
      [-2147483649n, 'd3ffffffff7fffffff'],
    ];
    for (const [value, hex] of cases) expect(hexEncode(mp.int(value)), `${value}`).toBe(hex);
    expect(hexEncode(mp.uint(200))).toBe('ccc8');
  });

  it('writes strings, bins, floats, nil and bools in Go forms', () => {
    expect(hexEncode(mp.str(''))).toBe('a0');
    expect(hexEncode('a'.repeat(31)).slice(0, 2)).toBe('bf');
    expect(hexEncode('a'.repeat(32)).slice(0, 4)).toBe('d920');
    expect(hexEncode('a'.repeat(256)).slice(0, 6)).toBe('da0100');
    expect(hexEncode(mp.bin(new Uint8Array(3)))).toBe('c403000000');
    expect(hexEncode(mp.bin(new Uint8Array(256))).slice(0, 6)).toBe('c50100');
    expect(hexEncode(mp.float64(0))).toBe('cb0000000000000000');
    expect(hexEncode(mp.float64(1.5))).toBe('cb3ff8000000000000');
    expect(hexEncode(mp.float32(1.5))).toBe('ca3fc00000');
    expect(hexEncode(mp.nil())).toBe('c0');
    expect(hexEncode(mp.bool(false))).toBe('c2');
    expect(hexEncode(mp.bool(true))).toBe('c3');
    expect(hexEncode('é')).toBe('a2c3a9');
  });

  it('keeps map keys in the given order and picks fixmap/map16 and fixarray/array16', () => {
    expect(
      hexEncode(
        mp.map([
          ['b', mp.int(1)],
          ['a', mp.int(2)],
        ]),
      ),
    ).toBe('82a16201a16102');
    const sixteen = mp.map(Array.from({ length: 16 }, (_, i) => [`k${i}`, null] as const));
    expect(hexEncode(sixteen).slice(0, 6)).toBe('de0010');
    expect(hexEncode(mp.array([mp.int(1), 'x']))).toBe('9201a178');
    expect(hexEncode(mp.array(Array(16).fill(null))).slice(0, 6)).toBe('dc0010');
  });

  it('splices raw msgpack verbatim and writes ext values', () => {
    expect(hexEncode(mp.map([['x', mp.raw(bytesOfHex('81a16101'))]]))).toBe('81a17881a16101');
    expect(hexEncode(new MsgExt(-1, bytesOfHex('00000001')))).toBe('d6ff00000001');
    expect(hexEncode(new MsgExt(5, new Uint8Array(3)))).toBe('c70305000000');
  });

  it('rejects values without a Go width and out-of-range integers', () => {
    expect(() => encode(5 as unknown as MsgValue)).toThrow(CodecError);
    expect(() => encode(5n as unknown as MsgValue)).toThrow(/width is unknown/);
    expect(() => mp.uint32(2 ** 32)).toThrow(CodecError);
    expect(() => mp.int64(2n ** 63n)).toThrow(/does not fit msgpack int64/);
    expect(() => mp.int(0.5)).toThrow(/not a safe integer/);
    expect(() => mp.uint(-1)).toThrow(CodecError);
    expect(() =>
      mp.map([
        ['a', null],
        ['a', null],
      ]),
    ).toThrow(/duplicate/);
  });
});

describe('gomsgpack decoder', () => {
  it('keeps the wire width of every integer', () => {
    const wires = [
      ['05', 'fixint', 5n],
      ['ff', 'negfixint', -1n],
      ['cc80', 'uint8', 128n],
      ['cd1403', 'uint16', 5123n],
      ['ce0000139c', 'uint32', 5020n],
      ['cfffffffffffffffff', 'uint64', 2n ** 64n - 1n],
      ['d0df', 'int8', -33n],
      ['d1ff7f', 'int16', -129n],
      ['d2ffff7fff', 'int32', -32769n],
      ['d38735233d4e14fa3d', 'int64', -8704011958613640643n],
    ] as const;
    for (const [hex, wire, value] of wires) {
      const decoded = decode(bytesOfHex(hex));
      expect(decoded).toEqual(new MsgInt(value, wire));
      expect(hexOf(encode(decoded))).toBe(hex);
    }
  });

  it('decodes maps in wire order with string keys, bins as Uint8Array, floats with their width', () => {
    const decoded = decode(bytesOfHex('84a162c0a161c403010203a163cb3ff8000000000000a164ca3fc00000'));
    expect(decoded).toBeInstanceOf(Map);
    const map = decoded as Map<string, MsgValue>;
    expect([...map.keys()]).toEqual(['b', 'a', 'c', 'd']);
    expect(map.get('b')).toBeNull();
    expect(map.get('a')).toEqual(Uint8Array.of(1, 2, 3));
    expect(map.get('c')).toEqual(new MsgFloat(1.5, 'float64'));
    expect(map.get('d')).toEqual(new MsgFloat(1.5, 'float32'));
  });

  it('decodes str8/16/32, bin16/32, array16/32, map16/32 and ext forms', () => {
    expect(decode(bytesOfHex('d903616263'))).toBe('abc');
    expect(decode(bytesOfHex('da0003616263'))).toBe('abc');
    expect(decode(bytesOfHex('db00000003616263'))).toBe('abc');
    expect(decode(bytesOfHex('c5000101'))).toEqual(Uint8Array.of(1));
    expect(decode(bytesOfHex('c60000000101'))).toEqual(Uint8Array.of(1));
    expect(decode(bytesOfHex('dc000101'))).toEqual([new MsgInt(1n, 'fixint')]);
    expect(decode(bytesOfHex('dd0000000101'))).toEqual([new MsgInt(1n, 'fixint')]);
    expect(decode(bytesOfHex('de0001a178c3'))).toEqual(new Map([['x', true]]));
    expect(decode(bytesOfHex('df00000001a178c2'))).toEqual(new Map([['x', false]]));
    expect(decode(bytesOfHex('d4ff01'))).toEqual(new MsgExt(-1, Uint8Array.of(1)));
    expect(decode(bytesOfHex('c8000105aa'))).toEqual(new MsgExt(5, Uint8Array.of(0xaa)));
  });

  it('round-trips a nested tree byte for byte', () => {
    const tree = mp.map([
      ['Header', mp.map([['KeyID', mp.int64(-5)]])],
      ['List', mp.array([mp.int(-200), mp.uint64(7), mp.float64(-0.25), 'é', new Uint8Array(300)])],
      ['Empty', mp.map([])],
    ]);
    const bytes = encode(tree);
    expect(decode(bytes)).toEqual(tree);
    expect(encode(decode(bytes))).toEqual(bytes);
  });

  it('converts to plain JS values: bigint integers, objects for maps', () => {
    const plain = toPlain(
      decode(encode(mp.map([['a', mp.array([mp.int(1), mp.float64(2.5), 'x', null])]]))),
    ) as Record<string, unknown>;
    expect(plain).toEqual({ a: [1n, 2.5, 'x', null] });
    const proto = toPlain(mp.map([['__proto__', mp.int(1)]])) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('names types for error messages', () => {
    expect(msgTypeName(null)).toBe('nil');
    expect(msgTypeName(mp.int(300))).toBe('int (uint16)');
    expect(msgTypeName(new Map())).toBe('map');
  });

  it('rejects malformed input with CodecError', () => {
    const bad: Array<[string, RegExp]> = [
      ['', /truncated/],
      ['c1', /invalid msgpack type code 0xc1/],
      ['d3000000', /truncated/],
      ['a5616263', /truncated/],
      ['81a161', /truncated/],
      ['8101c0', /map key at offset 1 must be a string, got int \(fixint\)/],
      ['81c403616263c0', /must be a string, got bin/],
      ['0000', /1 trailing bytes/],
      ['dd7fffffff', /array of 2147483647 items/],
      ['df7fffffff', /map of 2147483647 entries/],
      ['a2c328', /not valid UTF-8/],
    ];
    for (const [hex, message] of bad) {
      expect(() => decode(bytesOfHex(hex)), hex).toThrow(CodecError);
      expect(() => decode(bytesOfHex(hex)), hex).toThrow(message);
    }
  });

  it('refuses nesting deep enough to exhaust the stack', () => {
    const deep = new Uint8Array(100_000).fill(0x91);
    expect(() => decode(deep)).toThrow(/nesting deeper/);
  });

  it('lets a repeated map key overwrite the earlier value, as Go does', () => {
    const decoded = decode(bytesOfHex('82a16101a16102')) as Map<string, MsgValue>;
    expect(decoded.get('a')).toEqual(new MsgInt(2n, 'fixint'));
  });
});

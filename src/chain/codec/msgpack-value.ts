/**
 * The value tree shared by the Go-style msgpack encoder and decoder: every integer and float records
 * its wire form, so what the decoder yields re-encodes byte for byte, and what the `mp.*` builders
 * yield encodes exactly as Go's vmihailenco/msgpack v5 writes the named Go type.
 */
import { CodecError } from './errors';

export type IntWire =
  'fixint' | 'negfixint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'int8' | 'int16' | 'int32' | 'int64';

const INT_RANGES: Record<IntWire, readonly [bigint, bigint]> = {
  fixint: [0n, 127n],
  negfixint: [-32n, -1n],
  uint8: [0n, 0xffn],
  uint16: [0n, 0xffffn],
  uint32: [0n, 0xffff_ffffn],
  uint64: [0n, 0xffff_ffff_ffff_ffffn],
  int8: [-0x80n, 0x7fn],
  int16: [-0x8000n, 0x7fffn],
  int32: [-0x8000_0000n, 0x7fff_ffffn],
  int64: [-0x8000_0000_0000_0000n, 0x7fff_ffff_ffff_ffffn],
};

/** An integer together with the wire form it was (or will be) written in. */
export class MsgInt {
  constructor(
    readonly value: bigint,
    readonly wire: IntWire,
  ) {
    const [min, max] = INT_RANGES[wire];
    if (value < min || value > max) {
      throw new CodecError(`integer ${value} does not fit msgpack ${wire}`);
    }
  }
}

export type FloatWire = 'float32' | 'float64';

export class MsgFloat {
  constructor(
    readonly value: number,
    readonly wire: FloatWire,
  ) {}
}

/** msgpack extension value; Go writes time.Time as ext -1. Kept opaque. */
export class MsgExt {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
  ) {}
}

/** Already-encoded msgpack spliced in verbatim (e.g. a signed payload embedded as `TxSmart`). Encode only. */
export class MsgRaw {
  constructor(readonly bytes: Uint8Array) {}
}

/** A map keeps its wire key order; Go writes struct fields in declaration order. */
export type MsgMap = Map<string, MsgValue>;

export type MsgValue =
  null | boolean | string | Uint8Array | MsgInt | MsgFloat | MsgExt | MsgRaw | MsgValue[] | MsgMap;

type IntegerInput = bigint | number;

function toBigInt(value: IntegerInput): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) {
    throw new CodecError(`${value} is not a safe integer; pass a bigint`);
  }
  return BigInt(value);
}

/** The smallest form, as Go's EncodeUint picks it (used for `uint`, and for `int` ≥ 0). */
function compactUnsignedWire(value: bigint): IntWire {
  if (value <= 127n) return 'fixint';
  if (value <= 0xffn) return 'uint8';
  if (value <= 0xffffn) return 'uint16';
  if (value <= 0xffff_ffffn) return 'uint32';
  return 'uint64';
}

/** The smallest form, as Go's EncodeInt picks it: non-negative values use the unsigned family. */
function compactSignedWire(value: bigint): IntWire {
  if (value >= 0n) return compactUnsignedWire(value);
  if (value >= -32n) return 'negfixint';
  if (value >= -0x80n) return 'int8';
  if (value >= -0x8000n) return 'int16';
  if (value >= -0x8000_0000n) return 'int32';
  return 'int64';
}

/** Typed builders: each names the Go type whose encoding it reproduces. */
export const mp = {
  nil: (): null => null,
  bool: (value: boolean): boolean => value,
  str: (value: string): string => value,
  /** Go []byte: bin8/16/32. A nil Go slice is `mp.nil()`. */
  bin: (value: Uint8Array): Uint8Array => value,
  /** Go `int` / `int8..int32` in compact mode: the smallest form. */
  int: (value: IntegerInput): MsgInt => {
    const big = toBigInt(value);
    return new MsgInt(big, compactSignedWire(big));
  },
  /** Go `uint`: the smallest unsigned form. */
  uint: (value: IntegerInput): MsgInt => {
    const big = toBigInt(value);
    if (big < 0n) throw new CodecError(`negative value ${big} for an unsigned integer`);
    return new MsgInt(big, compactUnsignedWire(big));
  },
  /** Go `int64`: always `d3` + 8 bytes. */
  int64: (value: IntegerInput): MsgInt => new MsgInt(toBigInt(value), 'int64'),
  /** Go `uint64`: always `cf` + 8 bytes. */
  uint64: (value: IntegerInput): MsgInt => new MsgInt(toBigInt(value), 'uint64'),
  /** Go `int32`: always `d2` + 4 bytes. */
  int32: (value: IntegerInput): MsgInt => new MsgInt(toBigInt(value), 'int32'),
  /** Go `uint32`: always `ce` + 4 bytes (the SDK's contract `ID`, see formats.md §8). */
  uint32: (value: IntegerInput): MsgInt => new MsgInt(toBigInt(value), 'uint32'),
  /** An integer in an explicitly chosen wire form. */
  intAs: (value: IntegerInput, wire: IntWire): MsgInt => new MsgInt(toBigInt(value), wire),
  float64: (value: number): MsgFloat => new MsgFloat(value, 'float64'),
  float32: (value: number): MsgFloat => new MsgFloat(value, 'float32'),
  /** Keys are written in the given order (Go structs: declaration order). */
  map: (entries: Iterable<readonly [string, MsgValue]>): MsgMap => {
    const map: MsgMap = new Map();
    for (const [key, value] of entries) {
      if (map.has(key)) throw new CodecError(`duplicate map key "${key}"`);
      map.set(key, value);
    }
    return map;
  },
  array: (items: Iterable<MsgValue>): MsgValue[] => [...items],
  raw: (bytes: Uint8Array): MsgRaw => new MsgRaw(bytes),
};

/** A short name of the value's msgpack type, for error messages ("str", "map", "int (uint8)", …). */
export function msgTypeName(value: MsgValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'str';
  if (value instanceof Uint8Array) return 'bin';
  if (value instanceof MsgInt) return `int (${value.wire})`;
  if (value instanceof MsgFloat) return value.wire;
  if (value instanceof MsgExt) return `ext ${value.type}`;
  if (value instanceof MsgRaw) return 'raw msgpack';
  if (Array.isArray(value)) return 'array';
  return 'map';
}

export function isMsgMap(value: MsgValue): value is MsgMap {
  return value instanceof Map;
}

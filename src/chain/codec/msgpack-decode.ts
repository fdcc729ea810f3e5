/**
 * Lenient msgpack reader that keeps wire widths (contract param typing depends on them: an `address`
 * param accepts only int64/uint64 forms). @msgpack/msgpack's decoder drops that information.
 * Hostile input ends in CodecError: truncation, bad codes, non-string map keys, deep nesting.
 */
import { CodecError } from './errors';
import { MsgExt, MsgFloat, MsgInt, MsgMap, MsgValue, msgTypeName } from './msgpack-value';

/** Deeper than any transaction needs; keeps hostile nesting from exhausting the stack. */
const MAX_DEPTH = 256;

const textDecoder = new TextDecoder('utf-8', { fatal: true });

class ByteReader {
  private readonly view: DataView;
  offset = 0;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get remaining(): number {
    return this.data.length - this.offset;
  }

  private need(count: number, what: string): void {
    if (count > this.remaining) {
      throw new CodecError(
        `msgpack truncated: ${what} needs ${count} bytes at offset ${this.offset}, ${this.remaining} left`,
      );
    }
  }

  u8(what: string): number {
    this.need(1, what);
    return this.data[this.offset++];
  }

  u16(what: string): number {
    this.need(2, what);
    const value = this.view.getUint16(this.offset);
    this.offset += 2;
    return value;
  }

  u32(what: string): number {
    this.need(4, what);
    const value = this.view.getUint32(this.offset);
    this.offset += 4;
    return value;
  }

  i8(what: string): number {
    this.need(1, what);
    return this.view.getInt8(this.offset++);
  }

  i16(what: string): number {
    this.need(2, what);
    const value = this.view.getInt16(this.offset);
    this.offset += 2;
    return value;
  }

  i32(what: string): number {
    this.need(4, what);
    const value = this.view.getInt32(this.offset);
    this.offset += 4;
    return value;
  }

  u64(what: string): bigint {
    this.need(8, what);
    const value = this.view.getBigUint64(this.offset);
    this.offset += 8;
    return value;
  }

  i64(what: string): bigint {
    this.need(8, what);
    const value = this.view.getBigInt64(this.offset);
    this.offset += 8;
    return value;
  }

  f32(what: string): number {
    this.need(4, what);
    const value = this.view.getFloat32(this.offset);
    this.offset += 4;
    return value;
  }

  f64(what: string): number {
    this.need(8, what);
    const value = this.view.getFloat64(this.offset);
    this.offset += 8;
    return value;
  }

  bytes(count: number, what: string): Uint8Array {
    this.need(count, what);
    const slice = this.data.slice(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }
}

function readString(reader: ByteReader, length: number): string {
  const start = reader.offset;
  const utf8 = reader.bytes(length, 'str');
  try {
    return textDecoder.decode(utf8);
  } catch {
    throw new CodecError(`msgpack str at offset ${start} is not valid UTF-8`);
  }
}

function readArray(reader: ByteReader, count: number, depth: number): MsgValue[] {
  // Each element takes at least one byte: a huge count on short input is rejected before allocating.
  if (count > reader.remaining) {
    throw new CodecError(`msgpack truncated: array of ${count} items with ${reader.remaining} bytes left`);
  }
  const items: MsgValue[] = [];
  for (let i = 0; i < count; i++) items.push(readValue(reader, depth + 1));
  return items;
}

function readMap(reader: ByteReader, count: number, depth: number): MsgMap {
  if (count * 2 > reader.remaining) {
    throw new CodecError(`msgpack truncated: map of ${count} entries with ${reader.remaining} bytes left`);
  }
  const map: MsgMap = new Map();
  for (let i = 0; i < count; i++) {
    const keyOffset = reader.offset;
    const key = readValue(reader, depth + 1);
    if (typeof key !== 'string') {
      throw new CodecError(
        `msgpack map key at offset ${keyOffset} must be a string, got ${msgTypeName(key)}`,
      );
    }
    // A repeated key overwrites the earlier value, as Go's decoder does.
    map.set(key, readValue(reader, depth + 1));
  }
  return map;
}

function readExt(reader: ByteReader, length: number): MsgExt {
  const type = reader.i8('ext type');
  return new MsgExt(type, reader.bytes(length, 'ext data'));
}

function readValue(reader: ByteReader, depth: number): MsgValue {
  if (depth > MAX_DEPTH) throw new CodecError(`msgpack nesting deeper than ${MAX_DEPTH}`);
  const codeOffset = reader.offset;
  const code = reader.u8('type code');
  if (code <= 0x7f) return new MsgInt(BigInt(code), 'fixint');
  if (code >= 0xe0) return new MsgInt(BigInt(code - 0x100), 'negfixint');
  if (code >= 0xa0 && code <= 0xbf) return readString(reader, code & 0x1f);
  if (code >= 0x90 && code <= 0x9f) return readArray(reader, code & 0x0f, depth);
  if (code >= 0x80 && code <= 0x8f) return readMap(reader, code & 0x0f, depth);
  switch (code) {
    case 0xc0:
      return null;
    case 0xc2:
      return false;
    case 0xc3:
      return true;
    case 0xc4:
      return reader.bytes(reader.u8('bin8 length'), 'bin8');
    case 0xc5:
      return reader.bytes(reader.u16('bin16 length'), 'bin16');
    case 0xc6:
      return reader.bytes(reader.u32('bin32 length'), 'bin32');
    case 0xc7:
      return readExt(reader, reader.u8('ext8 length'));
    case 0xc8:
      return readExt(reader, reader.u16('ext16 length'));
    case 0xc9:
      return readExt(reader, reader.u32('ext32 length'));
    case 0xca:
      return new MsgFloat(reader.f32('float32'), 'float32');
    case 0xcb:
      return new MsgFloat(reader.f64('float64'), 'float64');
    case 0xcc:
      return new MsgInt(BigInt(reader.u8('uint8')), 'uint8');
    case 0xcd:
      return new MsgInt(BigInt(reader.u16('uint16')), 'uint16');
    case 0xce:
      return new MsgInt(BigInt(reader.u32('uint32')), 'uint32');
    case 0xcf:
      return new MsgInt(reader.u64('uint64'), 'uint64');
    case 0xd0:
      return new MsgInt(BigInt(reader.i8('int8')), 'int8');
    case 0xd1:
      return new MsgInt(BigInt(reader.i16('int16')), 'int16');
    case 0xd2:
      return new MsgInt(BigInt(reader.i32('int32')), 'int32');
    case 0xd3:
      return new MsgInt(reader.i64('int64'), 'int64');
    case 0xd4:
      return readExt(reader, 1);
    case 0xd5:
      return readExt(reader, 2);
    case 0xd6:
      return readExt(reader, 4);
    case 0xd7:
      return readExt(reader, 8);
    case 0xd8:
      return readExt(reader, 16);
    case 0xd9:
      return readString(reader, reader.u8('str8 length'));
    case 0xda:
      return readString(reader, reader.u16('str16 length'));
    case 0xdb:
      return readString(reader, reader.u32('str32 length'));
    case 0xdc:
      return readArray(reader, reader.u16('array16 length'), depth);
    case 0xdd:
      return readArray(reader, reader.u32('array32 length'), depth);
    case 0xde:
      return readMap(reader, reader.u16('map16 length'), depth);
    case 0xdf:
      return readMap(reader, reader.u32('map32 length'), depth);
    default:
      throw new CodecError(`invalid msgpack type code 0x${code.toString(16)} at offset ${codeOffset}`);
  }
}

/** Decodes one complete msgpack value; trailing bytes are an error. */
export function decode(bytes: Uint8Array): MsgValue {
  const reader = new ByteReader(bytes);
  const value = readValue(reader, 0);
  if (reader.remaining !== 0) {
    throw new CodecError(`${reader.remaining} trailing bytes after the msgpack value`);
  }
  return value;
}

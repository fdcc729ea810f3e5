/**
 * Writes a msgpack value tree using exactly the wire forms it records.
 *
 * Hand-written rather than built on @msgpack/msgpack because that library picks integer widths itself
 * (a positive bigint always becomes uint64, a number always its smallest form), so Go's `int64` →
 * `d3` rule could not be forced.
 */
import { CodecError } from './errors';
import { MsgExt, MsgFloat, MsgInt, MsgRaw, MsgValue } from './msgpack-value';

class ByteWriter {
  private buffer = new Uint8Array(256);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  u16(value: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, value);
    this.length += 2;
  }

  u32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, value);
    this.length += 4;
  }

  u64(value: bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt.asUintN(64, value));
    this.length += 8;
  }

  f32(value: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, value);
    this.length += 4;
  }

  f64(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, value);
    this.length += 8;
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

const textEncoder = new TextEncoder();

function writeInt(out: ByteWriter, int: MsgInt): void {
  const value = int.value;
  switch (int.wire) {
    case 'fixint':
      return out.u8(Number(value));
    case 'negfixint':
      return out.u8(Number(value) & 0xff);
    case 'uint8':
      out.u8(0xcc);
      return out.u8(Number(value));
    case 'uint16':
      out.u8(0xcd);
      return out.u16(Number(value));
    case 'uint32':
      out.u8(0xce);
      return out.u32(Number(value));
    case 'uint64':
      out.u8(0xcf);
      return out.u64(value);
    case 'int8':
      out.u8(0xd0);
      return out.u8(Number(value) & 0xff);
    case 'int16':
      out.u8(0xd1);
      return out.u16(Number(value) & 0xffff);
    case 'int32':
      out.u8(0xd2);
      return out.u32(Number(value) >>> 0);
    case 'int64':
      out.u8(0xd3);
      return out.u64(value);
  }
}

function writeLengthHeader(
  out: ByteWriter,
  length: number,
  fixBase: number | null,
  fixMax: number,
  codes: readonly [number | null, number, number],
): void {
  const [code8, code16, code32] = codes;
  if (fixBase !== null && length <= fixMax) return out.u8(fixBase | length);
  if (code8 !== null && length <= 0xff) {
    out.u8(code8);
    return out.u8(length);
  }
  if (length <= 0xffff) {
    out.u8(code16);
    return out.u16(length);
  }
  if (length > 0xffff_ffff) throw new CodecError(`msgpack value of length ${length} is too long`);
  out.u8(code32);
  out.u32(length);
}

function writeExt(out: ByteWriter, ext: MsgExt): void {
  const fixCodes: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
  const fixCode = fixCodes[ext.data.length];
  if (fixCode !== undefined) {
    out.u8(fixCode);
  } else {
    writeLengthHeader(out, ext.data.length, null, 0, [0xc7, 0xc8, 0xc9]);
  }
  out.u8(ext.type & 0xff);
  out.bytes(ext.data);
}

function writeValue(out: ByteWriter, value: MsgValue): void {
  if (value === null) return out.u8(0xc0);
  if (typeof value === 'boolean') return out.u8(value ? 0xc3 : 0xc2);
  if (typeof value === 'string') {
    const utf8 = textEncoder.encode(value);
    writeLengthHeader(out, utf8.length, 0xa0, 31, [0xd9, 0xda, 0xdb]);
    return out.bytes(utf8);
  }
  if (value instanceof Uint8Array) {
    writeLengthHeader(out, value.length, null, 0, [0xc4, 0xc5, 0xc6]);
    return out.bytes(value);
  }
  if (value instanceof MsgInt) return writeInt(out, value);
  if (value instanceof MsgFloat) {
    if (value.wire === 'float32') {
      out.u8(0xca);
      return out.f32(value.value);
    }
    out.u8(0xcb);
    return out.f64(value.value);
  }
  if (value instanceof MsgExt) return writeExt(out, value);
  if (value instanceof MsgRaw) return out.bytes(value.bytes);
  if (Array.isArray(value)) {
    writeLengthHeader(out, value.length, 0x90, 15, [null, 0xdc, 0xdd]);
    for (const item of value) writeValue(out, item);
    return;
  }
  if (value instanceof Map) {
    writeLengthHeader(out, value.size, 0x80, 15, [null, 0xde, 0xdf]);
    for (const [key, item] of value) {
      writeValue(out, key);
      writeValue(out, item);
    }
    return;
  }
  throw new CodecError(`cannot msgpack-encode ${describeJsValue(value)}; use the mp.* builders`);
}

function describeJsValue(value: unknown): string {
  if (typeof value === 'number') return `the JS number ${value} (its Go width is unknown)`;
  if (typeof value === 'bigint') return `the bigint ${value} (its Go width is unknown)`;
  return `a value of type ${typeof value}`;
}

export function encode(value: MsgValue): Uint8Array {
  const out = new ByteWriter();
  writeValue(out, value);
  return out.result();
}

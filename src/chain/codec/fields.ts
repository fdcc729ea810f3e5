/**
 * Typed reads from a decoded msgpack map, Go-decoder style: a nil value means the Go zero value,
 * any integer width fits an integer field, and a wrong type is a CodecError naming the field.
 */
import { CodecError } from './errors';
import { MsgInt, MsgMap, MsgValue, msgTypeName } from './gomsgpack';

export function expectMap(value: MsgValue, context: string): MsgMap {
  if (!(value instanceof Map)) {
    throw new CodecError(`${context}: expected a msgpack map, got ${msgTypeName(value)}`);
  }
  return value;
}

export class FieldReader {
  constructor(
    private readonly map: MsgMap,
    private readonly context: string,
  ) {}

  has(key: string): boolean {
    return this.map.has(key);
  }

  private fail(key: string, expected: string, value: MsgValue): never {
    throw new CodecError(`${this.context}.${key}: expected ${expected}, got ${msgTypeName(value)}`);
  }

  /** The raw value; a missing key is an error. */
  required(key: string): MsgValue {
    const value = this.map.get(key);
    if (value === undefined) throw new CodecError(`${this.context}: missing ${key}`);
    return value;
  }

  /** Any integer width; a uint64 above the int64 range wraps as Go's int64(u) conversion does. */
  int64(key: string): bigint {
    const value = this.map.get(key) ?? null;
    if (value === null) return 0n;
    if (!(value instanceof MsgInt)) this.fail(key, 'an integer', value);
    return BigInt.asIntN(64, value.value);
  }

  /** A non-negative integer that fits a JS number (contract ids, counters). */
  safeUint(key: string): number {
    const value = this.int64(key);
    if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new CodecError(`${this.context}.${key}: ${value} is out of range`);
    }
    return Number(value);
  }

  string(key: string): string {
    const value = this.map.get(key) ?? null;
    if (value === null) return '';
    if (typeof value !== 'string') this.fail(key, 'a string', value);
    return value;
  }

  bytes(key: string): Uint8Array {
    const value = this.map.get(key) ?? null;
    if (value === null) return new Uint8Array(0);
    if (!(value instanceof Uint8Array)) this.fail(key, 'bytes (bin)', value);
    return value;
  }

  /** A bool, or an integer read as non-zero (older Go structs kept these flags as ints). */
  bool(key: string): boolean {
    const value = this.map.get(key) ?? null;
    if (value === null) return false;
    if (typeof value === 'boolean') return value;
    if (value instanceof MsgInt) return value.value !== 0n;
    this.fail(key, 'a bool', value);
  }

  /** A nested map, or null when absent or nil. */
  optionalMap(key: string): MsgMap | null {
    const value = this.map.get(key) ?? null;
    if (value === null) return null;
    if (!(value instanceof Map)) this.fail(key, 'a map', value);
    return value;
  }

  nested(key: string): FieldReader | null {
    const map = this.optionalMap(key);
    return map === null ? null : new FieldReader(map, `${this.context}.${key}`);
  }
}

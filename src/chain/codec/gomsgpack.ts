/**
 * msgpack as the Go node writes it (vmihailenco/msgpack v5): every integer, float and map has a
 * fixed, known wire form, and signed payloads are hashed byte for byte. One tree type serves both
 * directions (msgpack-value.ts); decode → encode is byte-identical.
 */
import { decode } from './msgpack-decode';
import { MsgFloat, MsgInt, MsgRaw, MsgValue, MsgExt } from './msgpack-value';

export { encode } from './msgpack-encode';
export { decode } from './msgpack-decode';
export {
  type FloatWire,
  type IntWire,
  type MsgMap,
  type MsgValue,
  MsgExt,
  MsgFloat,
  MsgInt,
  MsgRaw,
  isMsgMap,
  mp,
  msgTypeName,
} from './msgpack-value';

export type PlainValue =
  | null
  | boolean
  | string
  | bigint
  | number
  | Uint8Array
  | MsgExt
  | PlainValue[]
  | { [key: string]: PlainValue };

/** Drops wire widths: integers become bigint, floats number, maps plain objects (own keys only). */
export function toPlain(value: MsgValue): PlainValue {
  if (value instanceof MsgInt) return value.value;
  if (value instanceof MsgFloat) return value.value;
  if (value instanceof MsgRaw) return toPlain(decode(value.bytes));
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) {
    // Object.fromEntries defines own properties, so a "__proto__" key cannot touch the prototype.
    return Object.fromEntries([...value].map(([key, item]) => [key, toPlain(item)]));
  }
  return value;
}

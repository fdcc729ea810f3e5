/**
 * The block binary: protobuf BlockData and friends, field numbers and types as the reference's
 * block.proto / play.proto / tx.proto (formats.md §3.1). int64 fields are bigint here (key ids
 * exceed 2^53); zero values are left off the wire, as proto3 encoders do.
 */
import { Field, Type, parse, util } from 'protobufjs';
import { CodecError } from './errors';

const SCHEMA = `
syntax = "proto3";
package ibax;

enum TxInvokeStatusCode { SUCCESS = 0; PENALTY = 1; FAILED = 2; PENDING = 3; }

message BlockHeader {
  int64 block_id = 1; int64 timestamp = 2; int64 ecosystem_id = 3; int64 key_id = 4;
  int64 node_position = 5; bytes sign = 6; bytes block_hash = 7; bytes rollbacks_hash = 8;
  int32 version = 9; int32 consensus_mode = 10; bytes candidate_nodes = 11; int64 network_id = 12;
}
message BlockData {
  BlockHeader header = 1; BlockHeader prev_header = 2; bytes merkle_root = 3; bytes bin_data = 4;
  repeated bytes tx_full_data = 5; AfterTxs after_txs = 6; bool sys_update = 7;
}
message AfterTxs { repeated AfterTx txs = 1; repeated RollbackTx rts = 3; }
message AfterTx { bytes used_tx = 1; LogTransaction lts = 2; TxResult upd_tx_status = 3; }
message RollbackTx {
  int64 id = 1; int64 block_id = 2; bytes tx_hash = 3; string name_table = 4; string table_id = 5;
  string data = 6; bytes data_hash = 7;
}
message LogTransaction {
  bytes hash = 1; int64 block = 2; int64 timestamp = 4; int64 address = 5; int64 ecosystem_id = 6;
  string contract_name = 7; TxInvokeStatusCode invoke_status = 8;
}
message TxResult { bytes hash = 1; int64 block_id = 2; TxInvokeStatusCode code = 3; string result = 4; string error = 5; }
`;

// Without long.js protobufjs decodes int64 into lossy JS numbers; refuse to run rather than corrupt key ids.
if (!util.Long) throw new Error('protobufjs was loaded without long.js; int64 fields would lose precision');

const root = parse(SCHEMA).root.resolveAll();
const BlockDataType = root.lookupType('ibax.BlockData');
const BlockHeaderType = root.lookupType('ibax.BlockHeader');

export const TX_INVOKE_STATUS = { success: 0, penalty: 1, failed: 2, pending: 3 } as const;

export interface BlockHeader {
  blockId: bigint;
  /** UNIX seconds. */
  timestamp: bigint;
  /** Always 0 in the reference. */
  ecosystemId: bigint;
  /** The node owner's account (KeyID file). */
  keyId: bigint;
  nodePosition: bigint;
  sign: Uint8Array;
  blockHash: Uint8Array;
  rollbacksHash: Uint8Array;
  version: number;
  /** 1 honor, 2 candidate. */
  consensusMode: number;
  candidateNodes: Uint8Array;
  networkId: bigint;
}

export interface RollbackTx {
  id: bigint;
  blockId: bigint;
  txHash: Uint8Array;
  nameTable: string;
  tableId: string;
  /** JSON text of the previous column values. */
  data: string;
  dataHash: Uint8Array;
}

export interface LogTransaction {
  hash: Uint8Array;
  block: bigint;
  /** Milliseconds. */
  timestamp: bigint;
  /** Sender key_id. */
  address: bigint;
  ecosystemId: bigint;
  contractName: string;
  /** A TX_INVOKE_STATUS value. */
  invokeStatus: number;
}

export interface TxResult {
  hash: Uint8Array;
  blockId: bigint;
  /** A TX_INVOKE_STATUS value. */
  code: number;
  result: string;
  error: string;
}

export interface AfterTx {
  usedTx: Uint8Array;
  lts: LogTransaction | null;
  updTxStatus: TxResult | null;
}

export interface AfterTxs {
  txs: AfterTx[];
  rts: RollbackTx[];
}

export interface BlockData {
  header: BlockHeader | null;
  prevHeader: BlockHeader | null;
  /** The merkle root as ASCII hex text (formats.md §3.2). */
  merkleRoot: Uint8Array;
  /** Never set on the wire by the reference. */
  binData: Uint8Array;
  /** Each entry a zlib-compressed transaction binary. */
  txFullData: Uint8Array[];
  afterTxs: AfterTxs | null;
  sysUpdate: boolean;
}

/** A header with every field at its zero value, overridden by `fields`. */
export function blockHeader(fields: Partial<BlockHeader> = {}): BlockHeader {
  return {
    blockId: 0n,
    timestamp: 0n,
    ecosystemId: 0n,
    keyId: 0n,
    nodePosition: 0n,
    sign: new Uint8Array(0),
    blockHash: new Uint8Array(0),
    rollbacksHash: new Uint8Array(0),
    version: 0,
    consensusMode: 0,
    candidateNodes: new Uint8Array(0),
    networkId: 0n,
    ...fields,
  };
}

// ---------------------------------------------------------------------------------------------
// Conversion between the typed objects above and protobufjs plain objects, driven by the schema.

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

type Plain = { [key: string]: unknown };

/**
 * Converts one value to what protobufjs expects. With `omitZero`, a zero value becomes undefined so
 * the field stays off the wire (proto3); repeated entries keep their zeros, since position matters.
 */
function valueToWire(field: Field, value: unknown, path: string, omitZero: boolean): unknown {
  if (field.resolvedType instanceof Type) {
    if (value === null && omitZero) return undefined;
    if (typeof value !== 'object' || value === null) throw new CodecError(`${path}: expected a message`);
    return objectToWire(field.resolvedType, value as Plain, path);
  }
  let isZero: boolean;
  if (LONG_TYPES.has(field.type)) {
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX) {
      throw new CodecError(`${path}: expected an int64 bigint, got ${String(value)}`);
    }
    isZero = value === 0n;
    value = value.toString();
  } else if (field.type === 'bytes') {
    if (!(value instanceof Uint8Array)) throw new CodecError(`${path}: expected bytes`);
    isZero = value.length === 0;
  } else if (field.type === 'string') {
    if (typeof value !== 'string') throw new CodecError(`${path}: expected a string`);
    isZero = value === '';
  } else if (field.type === 'bool') {
    if (typeof value !== 'boolean') throw new CodecError(`${path}: expected a boolean`);
    isZero = !value;
  } else {
    // int32 and enums
    if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
      throw new CodecError(`${path}: expected an int32, got ${String(value)}`);
    }
    isZero = value === 0;
  }
  return omitZero && isZero ? undefined : value;
}

function objectToWire(type: Type, object: Plain, path: string): Plain {
  const wire: Plain = {};
  for (const field of type.fieldsArray) {
    const value = object[field.name];
    if (value === undefined) continue;
    const fieldPath = `${path}.${field.name}`;
    if (field.repeated) {
      if (!Array.isArray(value)) throw new CodecError(`${fieldPath}: expected an array`);
      if (value.length > 0) {
        wire[field.name] = value.map((item, index) =>
          valueToWire(field, item, `${fieldPath}[${index}]`, false),
        );
      }
      continue;
    }
    const converted = valueToWire(field, value, fieldPath, true);
    if (converted !== undefined) wire[field.name] = converted;
  }
  return wire;
}

function valueFromWire(field: Field, value: unknown): unknown {
  if (LONG_TYPES.has(field.type)) return BigInt(value as string);
  if (field.resolvedType instanceof Type) {
    return value === null || value === undefined ? null : objectFromWire(field.resolvedType, value as Plain);
  }
  // protobufjs hands out Buffers on Node; copy into plain Uint8Arrays for a uniform API.
  if (field.type === 'bytes') return new Uint8Array(value as Uint8Array);
  return value;
}

function objectFromWire(type: Type, wire: Plain): Plain {
  const object: Plain = {};
  for (const field of type.fieldsArray) {
    const value = wire[field.name];
    object[field.name] = field.repeated
      ? (value as unknown[]).map((item) => valueFromWire(field, item))
      : valueFromWire(field, value);
  }
  return object;
}

function encodeMessage(type: Type, object: object): Uint8Array {
  const wire = objectToWire(type, object as Plain, type.name);
  return new Uint8Array(type.encode(type.fromObject(wire)).finish());
}

function decodeMessage(type: Type, bytes: Uint8Array): Plain {
  let message;
  try {
    message = type.decode(bytes);
  } catch (error) {
    throw new CodecError(`malformed ${type.name} protobuf: ${(error as Error).message}`);
  }
  const wire = type.toObject(message, { longs: String, enums: Number, defaults: true, arrays: true });
  return objectFromWire(type, wire);
}

export function encodeBlockData(block: BlockData): Uint8Array {
  return encodeMessage(BlockDataType, block);
}

export function decodeBlockData(bytes: Uint8Array): BlockData {
  return decodeMessage(BlockDataType, bytes) as unknown as BlockData;
}

export function encodeBlockHeader(header: BlockHeader): Uint8Array {
  return encodeMessage(BlockHeaderType, header);
}

export function decodeBlockHeader(bytes: Uint8Array): BlockHeader {
  return decodeMessage(BlockHeaderType, bytes) as unknown as BlockHeader;
}

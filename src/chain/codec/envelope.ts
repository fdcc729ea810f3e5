/**
 * The two wire envelopes of a SmartTransaction:
 * - types 3/5/6 (formats.md §2.3): type byte ‖ msgpack map of the Go `SmartContract` struct, which
 *   the Go SDK sends and nodes store and broadcast;
 * - 0x80 (formats.md §2.4): 0x80 ‖ L(payload) ‖ payload ‖ L(sig) ‖ sig, which Weaver and multikey send.
 */
import { HashFn, concatBytes } from './bytes';
import { CodecError } from './errors';
import { FieldReader, expectMap } from './fields';
import { MsgInt, decode, encode, mp, msgTypeName } from './gomsgpack';
import { encodeLength, readLengthPrefixed } from './length';
import {
  SMART_TX_TYPE,
  SmartTransaction,
  SmartTxType,
  decodeSmartTransactionPayload,
  smartTransactionFromMap,
  smartTxType,
  txHash,
} from './smart-tx';
import { TX_TYPE } from './tx-type';

const SMART_TX_TYPES: ReadonlySet<number> = new Set(Object.values(SMART_TX_TYPE));

export interface SmartContractEnvelope {
  type: SmartTxType;
  /**
   * The `TxSmart` copy as sent, or null when absent. The Go node trusts it; a careful node decodes
   * `payload` instead (the signed bytes) and compares.
   */
  txSmart: SmartTransaction | null;
  /** As sent; should equal DoubleHash(payload), which the Go node never checks. */
  hash: Uint8Array;
  /** msgpack of the SmartTransaction: the bytes that were hashed and signed. */
  payload: Uint8Array;
  /** Milliseconds, set by whoever built the envelope. */
  timestamp: bigint;
  /** The signature with its length prefix removed: 64-byte r‖s or DER. */
  signature: Uint8Array;
}

/** Strips the EncodeLength prefix that `TxSignature` carries; the prefix must cover the rest exactly. */
function unwrapSignature(prefixed: Uint8Array, context: string): Uint8Array {
  const { data, next } = readLengthPrefixed(prefixed, 0, context);
  if (next !== prefixed.length) {
    throw new CodecError(`${context}: ${prefixed.length - next} bytes after the signature`);
  }
  if (data.length === 0) throw new CodecError(`${context}: empty signature`);
  return data;
}

export function decodeSmartContractEnvelope(bytes: Uint8Array): SmartContractEnvelope {
  if (bytes.length === 0) throw new CodecError('empty transaction');
  const type = bytes[0];
  if (!SMART_TX_TYPES.has(type)) {
    throw new CodecError(`transaction type ${type} is not a smart-contract envelope (3, 5 or 6)`);
  }
  const context = `type-${type} transaction`;
  const map = expectMap(decode(bytes.subarray(1)), context);
  const fields = new FieldReader(map, context);

  const payload = fields.required('Payload');
  if (!(payload instanceof Uint8Array) || payload.length === 0) {
    throw new CodecError(`${context}.Payload: expected non-empty bin, got ${msgTypeName(payload)}`);
  }
  const hash = fields.required('Hash');
  if (!(hash instanceof Uint8Array) || hash.length === 0) {
    throw new CodecError(`${context}.Hash: expected non-empty bin, got ${msgTypeName(hash)}`);
  }
  const timestamp = fields.required('Timestamp');
  if (!(timestamp instanceof MsgInt)) {
    throw new CodecError(`${context}.Timestamp: expected an integer, got ${msgTypeName(timestamp)}`);
  }
  const signature = fields.required('TxSignature');
  if (!(signature instanceof Uint8Array)) {
    throw new CodecError(`${context}.TxSignature: expected bin, got ${msgTypeName(signature)}`);
  }
  const txSmart = map.get('TxSmart') ?? null;

  return {
    type: type as SmartTxType,
    txSmart: txSmart === null ? null : smartTransactionFromMap(txSmart, `${context}.TxSmart`),
    hash,
    payload,
    timestamp: fields.int64('Timestamp'),
    signature: unwrapSignature(signature, `${context}.TxSignature`),
  };
}

export interface SmartContractEnvelopeInput {
  /** Derived from the payload when omitted. */
  type?: SmartTxType;
  payload: Uint8Array;
  hash: Uint8Array;
  timestamp: bigint;
  /** The bare signature; the length prefix is added here. */
  signature: Uint8Array;
}

/**
 * Emits the five keys the node reads, in the SDK's relative order. `TxSmart` is the payload spliced
 * in verbatim, so the two copies cannot disagree.
 */
export function encodeSmartContractEnvelope(input: SmartContractEnvelopeInput): Uint8Array {
  const type = input.type ?? smartTxType(decodeSmartTransactionPayload(input.payload));
  const body = encode(
    mp.map([
      ['TxSmart', mp.raw(input.payload)],
      ['Hash', mp.bin(input.hash)],
      ['Payload', mp.bin(input.payload)],
      ['Timestamp', mp.int64(input.timestamp)],
      ['TxSignature', mp.bin(concatBytes(encodeLength(input.signature.length), input.signature))],
    ]),
  );
  return concatBytes(Uint8Array.of(type), body);
}

export interface ClientEnvelope {
  payload: Uint8Array;
  signature: Uint8Array;
}

export function decodeClientEnvelope(bytes: Uint8Array): ClientEnvelope {
  if (bytes.length === 0) throw new CodecError('empty transaction');
  if (bytes[0] !== TX_TYPE.clientEnvelope) {
    throw new CodecError(`transaction type ${bytes[0]} is not a 0x80 client envelope`);
  }
  const payload = readLengthPrefixed(bytes, 1, '0x80 envelope payload');
  if (payload.data.length === 0) throw new CodecError('0x80 envelope: empty payload');
  const signature = readLengthPrefixed(bytes, payload.next, '0x80 envelope signature');
  if (signature.data.length === 0) throw new CodecError('0x80 envelope: empty signature');
  if (signature.next !== bytes.length) {
    throw new CodecError(`0x80 envelope: ${bytes.length - signature.next} bytes after the signature`);
  }
  return { payload: payload.data, signature: signature.data };
}

export function encodeClientEnvelope(payload: Uint8Array, signature: Uint8Array): Uint8Array {
  return concatBytes(
    Uint8Array.of(TX_TYPE.clientEnvelope),
    encodeLength(payload.length),
    payload,
    encodeLength(signature.length),
    signature,
  );
}

export interface ConvertedClientTransaction {
  tx: SmartTransaction;
  hash: Uint8Array;
  /** The type 3/5/6 form, which is what a node stores and broadcasts. */
  envelope: Uint8Array;
}

/** What the node does with a 0x80 tx (formats.md §2.4): hash the payload, decode it, re-wrap as 3/5/6. */
export function convertClientEnvelope(
  client: ClientEnvelope,
  timestampMs: bigint,
  hash: HashFn,
): ConvertedClientTransaction {
  const tx = decodeSmartTransactionPayload(client.payload);
  const digest = txHash(client.payload, hash);
  const envelope = encodeSmartContractEnvelope({
    type: smartTxType(tx),
    payload: client.payload,
    hash: digest,
    timestamp: timestampMs,
    signature: client.signature,
  });
  return { tx, hash: digest, envelope };
}

/**
 * The FirstBlock (genesis) transaction, type byte 1 (formats.md §2.9, §3.4). It carries no signature:
 * the block signature covers it. Its Timestamp is the first block time all slot arithmetic starts from.
 */
import { HashFn, bytesEqual, concatBytes, doubleHash } from './bytes';
import { CodecError } from './errors';
import { FieldReader, expectMap } from './fields';
import { MsgValue, decode, encode, mp, msgTypeName } from './gomsgpack';
import { TX_TYPE } from './tx-type';

export interface FirstBlockData {
  /** key_id of the founder's account. */
  keyId: bigint;
  /** Seconds. */
  time: bigint;
  /** Founder public key, 64 bytes. */
  publicKey: Uint8Array;
  /** Public key of the first (and by default only) honor node, 64 bytes. */
  nodePublicKey: Uint8Array;
  /** PEM bundle that stop-network certificates must chain to; may be empty. */
  stopNetworkCertBundle: Uint8Array;
  test: boolean;
  privateBlockchain: boolean;
}

export interface FirstBlockTransaction {
  data: FirstBlockData;
  /** Milliseconds. */
  timestamp: bigint;
  /** DoubleHash(payload). */
  txHash: Uint8Array;
  /** msgpack of `data`: the hashed bytes. */
  payload: Uint8Array;
  /** The whole binary, type byte included. */
  bytes: Uint8Array;
}

function binOrNil(bytes: Uint8Array): MsgValue {
  return bytes.length === 0 ? mp.nil() : mp.bin(bytes);
}

export function encodeFirstBlockPayload(data: FirstBlockData): Uint8Array {
  return encode(
    mp.map([
      ['KeyID', mp.int64(data.keyId)],
      ['Time', mp.int64(data.time)],
      ['PublicKey', binOrNil(data.publicKey)],
      ['NodePublicKey', binOrNil(data.nodePublicKey)],
      ['StopNetworkCertBundle', binOrNil(data.stopNetworkCertBundle)],
      // The reference keeps these flags as int64 / uint64; the decoder also takes msgpack bools.
      ['Test', mp.int64(data.test ? 1 : 0)],
      ['PrivateBlockchain', mp.uint64(data.privateBlockchain ? 1 : 0)],
    ]),
  );
}

export function buildFirstBlockTransaction(
  data: FirstBlockData,
  timestampMs: bigint,
  hash: HashFn,
): FirstBlockTransaction {
  const payload = encodeFirstBlockPayload(data);
  const txHash = doubleHash(payload, hash);
  const body = encode(
    mp.map([
      ['Logger', mp.nil()],
      ['DbTransaction', mp.nil()],
      ['Data', mp.raw(payload)],
      ['Timestamp', mp.int64(timestampMs)],
      ['TxHash', mp.bin(txHash)],
      ['Payload', mp.bin(payload)],
    ]),
  );
  const bytes = concatBytes(Uint8Array.of(TX_TYPE.firstBlock), body);
  return { data, timestamp: timestampMs, txHash, payload, bytes };
}

function firstBlockDataFromMap(value: MsgValue, context: string): FirstBlockData {
  const fields = new FieldReader(expectMap(value, context), context);
  return {
    keyId: fields.int64('KeyID'),
    time: fields.int64('Time'),
    publicKey: fields.bytes('PublicKey'),
    nodePublicKey: fields.bytes('NodePublicKey'),
    stopNetworkCertBundle: fields.bytes('StopNetworkCertBundle'),
    test: fields.bool('Test'),
    privateBlockchain: fields.bool('PrivateBlockchain'),
  };
}

function sameFirstBlockData(a: FirstBlockData, b: FirstBlockData): boolean {
  return (
    a.keyId === b.keyId &&
    a.time === b.time &&
    bytesEqual(a.publicKey, b.publicKey) &&
    bytesEqual(a.nodePublicKey, b.nodePublicKey) &&
    bytesEqual(a.stopNetworkCertBundle, b.stopNetworkCertBundle) &&
    a.test === b.test &&
    a.privateBlockchain === b.privateBlockchain
  );
}

/**
 * `data` comes from Payload (the hashed bytes); a `Data` copy, when present, must agree with it.
 * With `hash`, TxHash is also checked against DoubleHash(Payload).
 */
export function decodeFirstBlockTransaction(bytes: Uint8Array, hash?: HashFn): FirstBlockTransaction {
  if (bytes.length === 0) throw new CodecError('empty transaction');
  if (bytes[0] !== TX_TYPE.firstBlock) {
    throw new CodecError(`transaction type ${bytes[0]} is not a first-block transaction`);
  }
  const context = 'first-block transaction';
  const map = expectMap(decode(bytes.subarray(1)), context);
  const fields = new FieldReader(map, context);

  const payload = fields.required('Payload');
  if (!(payload instanceof Uint8Array) || payload.length === 0) {
    throw new CodecError(`${context}.Payload: expected non-empty bin, got ${msgTypeName(payload)}`);
  }
  const data = firstBlockDataFromMap(decode(payload), `${context}.Payload`);
  const dataCopy = map.get('Data') ?? null;
  if (dataCopy !== null && !sameFirstBlockData(data, firstBlockDataFromMap(dataCopy, `${context}.Data`))) {
    throw new CodecError(`${context}: Data differs from Payload`);
  }
  const txHash = fields.bytes('TxHash');
  if (hash !== undefined && !bytesEqual(txHash, doubleHash(payload, hash))) {
    throw new CodecError(`${context}: TxHash is not DoubleHash(Payload)`);
  }
  return { data, timestamp: fields.int64('Timestamp'), txHash, payload, bytes };
}

/**
 * The signed payload of a contract call, UTXO transfer or TransferSelf: msgpack of the Go
 * `SmartTransaction` (formats.md §2.2). Its double hash is the transaction hash.
 */
import { HashFn, doubleHash } from './bytes';
import { CodecError } from './errors';
import { FieldReader, expectMap } from './fields';
import { MsgMap, MsgValue, decode, encode, mp } from './gomsgpack';
import { TX_TYPE } from './tx-type';

export interface TransferSelf {
  /** Positive integer string, minimal units. */
  value: string;
  /** "UTXO" or "Account" (case-insensitive). */
  source: string;
  target: string;
}

export interface UtxoTransfer {
  toId: bigint;
  value: string;
  comment: string;
}

export interface SmartTransaction {
  /** Contract id: 5000 + row id in 1_contracts. */
  id: number;
  ecosystemId: bigint;
  keyId: bigint;
  /** Client time in seconds; signed, never validated. */
  time: bigint;
  networkId: bigint;
  /** 64 bytes X‖Y (a 65-byte 04-prefixed key is stripped on decode); may be empty. */
  publicKey: Uint8Array;
  maxSum: string;
  payOver: string;
  lang: string;
  expedite: string;
  signedBy: bigint;
  transferSelf: TransferSelf | null;
  utxo: UtxoTransfer | null;
  /** Contract arguments; each value records its msgpack type, which param typing depends on. */
  params: MsgMap;
}

export const SMART_TX_TYPE = {
  contract: TX_TYPE.contract,
  utxo: TX_TYPE.utxo,
  transferSelf: TX_TYPE.transferSelf,
} as const;
export type SmartTxType = (typeof SMART_TX_TYPE)[keyof typeof SMART_TX_TYPE];

/** The wire type byte follows from the content, TransferSelf taking precedence (formats.md §2.1). */
export function smartTxType(tx: SmartTransaction): SmartTxType {
  if (tx.transferSelf !== null) return SMART_TX_TYPE.transferSelf;
  if (tx.utxo !== null) return SMART_TX_TYPE.utxo;
  return SMART_TX_TYPE.contract;
}

/**
 * The SDK's exact layout (formats.md §8): 14 keys in Go declaration order, `ID` as a fixed uint32,
 * int64 fields as `d3`. An empty public key is written as nil, as Go writes a nil []byte.
 */
export function encodeSmartTransactionPayload(tx: SmartTransaction): Uint8Array {
  const transferSelf =
    tx.transferSelf === null
      ? mp.nil()
      : mp.map([
          ['Value', mp.str(tx.transferSelf.value)],
          ['Source', mp.str(tx.transferSelf.source)],
          ['Target', mp.str(tx.transferSelf.target)],
        ]);
  const utxo =
    tx.utxo === null
      ? mp.nil()
      : mp.map([
          ['ToID', mp.int64(tx.utxo.toId)],
          ['Value', mp.str(tx.utxo.value)],
          ['Comment', mp.str(tx.utxo.comment)],
        ]);
  return encode(
    mp.map([
      ['ID', mp.uint32(tx.id)],
      ['EcosystemID', mp.int64(tx.ecosystemId)],
      ['KeyID', mp.int64(tx.keyId)],
      ['Time', mp.int64(tx.time)],
      ['NetworkID', mp.int64(tx.networkId)],
      ['PublicKey', tx.publicKey.length === 0 ? mp.nil() : mp.bin(tx.publicKey)],
      ['MaxSum', mp.str(tx.maxSum)],
      ['PayOver', mp.str(tx.payOver)],
      ['Lang', mp.str(tx.lang)],
      ['Expedite', mp.str(tx.expedite)],
      ['SignedBy', mp.int64(tx.signedBy)],
      ['TransferSelf', transferSelf],
      ['UTXO', utxo],
      ['Params', tx.params],
    ]),
  );
}

const CONTEXT = 'SmartTransaction';

/** The fields of Go's embedded `Header` struct: the only ones a nested `Header` map may set. */
const HEADER_KEYS = new Set(['ID', 'EcosystemID', 'KeyID', 'Time', 'NetworkID', 'PublicKey']);

function emptySmartTransaction(): SmartTransaction {
  return {
    id: 0,
    ecosystemId: 0n,
    keyId: 0n,
    time: 0n,
    networkId: 0n,
    publicKey: new Uint8Array(0),
    maxSum: '',
    payOver: '',
    lang: '',
    expedite: '',
    signedBy: 0n,
    transferSelf: null,
    utxo: null,
    params: new Map(),
  };
}

function stripUncompressedPrefix(key: Uint8Array): Uint8Array {
  return key.length === 65 && key[0] === 0x04 ? key.slice(1) : key;
}

function applyHeaderField(tx: SmartTransaction, fields: FieldReader, key: string): void {
  switch (key) {
    case 'ID':
      tx.id = fields.safeUint(key);
      return;
    case 'EcosystemID':
      tx.ecosystemId = fields.int64(key);
      return;
    case 'KeyID':
      tx.keyId = fields.int64(key);
      return;
    case 'Time':
      tx.time = fields.int64(key);
      return;
    case 'NetworkID':
      tx.networkId = fields.int64(key);
      return;
    case 'PublicKey':
      tx.publicKey = stripUncompressedPrefix(fields.bytes(key));
      return;
  }
}

function readTransferSelf(fields: FieldReader): TransferSelf | null {
  const nested = fields.nested('TransferSelf');
  if (nested === null) return null;
  return { value: nested.string('Value'), source: nested.string('Source'), target: nested.string('Target') };
}

function readUtxo(fields: FieldReader): UtxoTransfer | null {
  const nested = fields.nested('UTXO');
  if (nested === null) return null;
  return { toId: nested.int64('ToID'), value: nested.string('Value'), comment: nested.string('Comment') };
}

/**
 * Reads a SmartTransaction from an already decoded map. Accepts the flattened header keys (Go SDK)
 * and a nested `Header` map (Weaver, multikey); keys are applied in wire order, so a later one wins,
 * as in Go's decoder. Unknown keys are ignored.
 */
export function smartTransactionFromMap(value: MsgValue, context = CONTEXT): SmartTransaction {
  const map = expectMap(value, context);
  const fields = new FieldReader(map, context);
  const tx = emptySmartTransaction();
  for (const key of map.keys()) {
    if (HEADER_KEYS.has(key)) {
      applyHeaderField(tx, fields, key);
      continue;
    }
    switch (key) {
      case 'Header': {
        const headerMap = fields.optionalMap(key);
        if (headerMap === null) break;
        const header = new FieldReader(headerMap, `${context}.Header`);
        for (const headerKey of headerMap.keys()) applyHeaderField(tx, header, headerKey);
        break;
      }
      case 'MaxSum':
        tx.maxSum = fields.string(key);
        break;
      case 'PayOver':
        tx.payOver = fields.string(key);
        break;
      case 'Lang':
        tx.lang = fields.string(key);
        break;
      case 'Expedite':
        tx.expedite = fields.string(key);
        break;
      case 'SignedBy':
        tx.signedBy = fields.int64(key);
        break;
      case 'TransferSelf':
        tx.transferSelf = readTransferSelf(fields);
        break;
      case 'UTXO':
        tx.utxo = readUtxo(fields);
        break;
      case 'Params':
        tx.params = fields.optionalMap(key) ?? new Map();
        break;
    }
  }
  return tx;
}

export function decodeSmartTransactionPayload(payload: Uint8Array): SmartTransaction {
  if (payload.length === 0) throw new CodecError(`${CONTEXT}: empty payload`);
  return smartTransactionFromMap(decode(payload));
}

/** The transaction hash: DoubleHash(payload) with the configured hasher. */
export function txHash(payload: Uint8Array, hash: HashFn): Uint8Array {
  return doubleHash(payload, hash);
}

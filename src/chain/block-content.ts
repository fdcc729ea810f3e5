import {
  TX_TYPE,
  decodeFirstBlockTransaction,
  decodeSmartContractEnvelope,
  decodeSmartTransactionPayload,
  formatSize,
  parseBlock,
  toPlain,
  type BlockHeader,
  type MsgValue,
  type PlainValue,
  type SmartTransaction,
} from './codec';
import type { ObjectRegistry } from '../vm';

/** JSON-ready params: bytes as base64 (Go's []byte), integers exact. */
export type JsonParam =
  null | boolean | string | bigint | number | JsonParam[] | { [key: string]: JsonParam };

/** One transaction of a stored block, as the block and transaction reads show it. */
export interface BlockTransaction {
  hash: Buffer;
  type: number;
  /** `@<eco><Name>`, or "" for genesis, UTXO and TransferSelf transactions. */
  contractName: string;
  /** The call's Params map; null when the transaction has none of its own (genesis). */
  params: { [key: string]: JsonParam } | null;
  /** Type 6 / type 5 bodies, shown instead of params. */
  transferSelf?: { Value: string; Source: string; Target: string };
  utxo?: { ToID: bigint; Value: string; Comment: string };
  keyId: bigint;
  ecosystemId: bigint;
  expedite: string;
  /** Envelope time, ms. */
  time: bigint;
  /** Bytes of the payload (formatSize for the wire). */
  payloadSize: number;
}

export interface BlockContent {
  header: BlockHeader;
  merkleRoot: string;
  transactions: BlockTransaction[];
}

export function jsonParam(value: PlainValue): JsonParam {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(jsonParam);
  if (value !== null && typeof value === 'object') {
    if (!('constructor' in value) || value.constructor === Object) {
      return Object.fromEntries(
        Object.entries(value as Record<string, PlainValue>).map(([key, item]) => [key, jsonParam(item)]),
      );
    }
    return null; // msgpack extension values have no JSON form
  }
  return value as JsonParam;
}

function paramsOf(params: Map<string, MsgValue>): { [key: string]: JsonParam } {
  return jsonParam(toPlain(params)) as { [key: string]: JsonParam };
}

function smartTransactionEntry(
  tx: SmartTransaction,
  hash: Buffer,
  type: number,
  time: bigint,
  payloadSize: number,
  registry: ObjectRegistry,
): BlockTransaction {
  const entry: BlockTransaction = {
    hash,
    type,
    contractName: '',
    params: null,
    keyId: tx.keyId,
    ecosystemId: tx.ecosystemId,
    expedite: tx.expedite,
    time,
    payloadSize,
  };
  if (tx.transferSelf) {
    entry.transferSelf = {
      Value: tx.transferSelf.value,
      Source: tx.transferSelf.source,
      Target: tx.transferSelf.target,
    };
  } else if (tx.utxo) {
    entry.utxo = { ToID: tx.utxo.toId, Value: tx.utxo.value, Comment: tx.utxo.comment };
  } else {
    entry.contractName = registry.getById(tx.id)?.key ?? '';
    entry.params = paramsOf(tx.params);
  }
  return entry;
}

/** Decodes a `block_chain.data` blob and its transactions. */
export function readBlockContent(data: Uint8Array, registry: ObjectRegistry): BlockContent {
  const block = parseBlock(data);
  const transactions = block.txs.map((bytes): BlockTransaction => {
    if (bytes[0] === TX_TYPE.firstBlock) {
      const first = decodeFirstBlockTransaction(bytes);
      return {
        hash: Buffer.from(first.txHash),
        type: TX_TYPE.firstBlock,
        contractName: '',
        params: null,
        keyId: block.header.keyId,
        ecosystemId: 1n,
        expedite: '',
        time: first.timestamp,
        payloadSize: first.payload.length,
      };
    }
    const envelope = decodeSmartContractEnvelope(bytes);
    return smartTransactionEntry(
      decodeSmartTransactionPayload(envelope.payload),
      Buffer.from(envelope.hash),
      envelope.type,
      envelope.timestamp,
      envelope.payload.length,
      registry,
    );
  });
  return { header: block.header, merkleRoot: block.merkleRoot, transactions };
}

/** `params` as the block lists show a transaction: its own Params, or its transfer under a Go name. */
export function listedParams(tx: BlockTransaction, names: { transferSelf: string; utxo: string }) {
  if (tx.transferSelf) return { [names.transferSelf]: tx.transferSelf };
  if (tx.utxo) return { [names.utxo]: tx.utxo };
  return tx.params;
}

export { formatSize };

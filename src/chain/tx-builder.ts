import type { Signer } from '../crypto';
import {
  encodeClientEnvelope,
  encodeSmartContractEnvelope,
  encodeSmartTransactionPayload,
  smartTxType,
  type MsgMap,
  type SmartTransaction,
} from './codec';

export interface SignedTransaction {
  /** The transaction as a client sends it and a node stores it. */
  bytes: Uint8Array;
  /** DoubleHash(payload): the transaction's identity everywhere. */
  hash: Uint8Array;
  payload: Uint8Array;
  signature: Uint8Array;
}

export interface TransactionFields {
  contractId: number;
  ecosystemId: bigint;
  keyId: bigint;
  networkId: bigint;
  publicKey: Uint8Array;
  params?: MsgMap;
  /** Unix seconds; default now. Signed, so two calls in the same second with the same fields are one tx. */
  time?: bigint;
  expedite?: string;
  signedBy?: bigint;
  lang?: string;
  maxSum?: string;
  transferSelf?: SmartTransaction['transferSelf'];
  utxo?: SmartTransaction['utxo'];
}

export function smartTransaction(fields: TransactionFields): SmartTransaction {
  return {
    id: fields.contractId,
    ecosystemId: fields.ecosystemId,
    keyId: fields.keyId,
    time: fields.time ?? BigInt(Math.floor(Date.now() / 1000)),
    networkId: fields.networkId,
    publicKey: fields.publicKey,
    maxSum: fields.maxSum ?? '',
    payOver: '',
    lang: fields.lang ?? '',
    expedite: fields.expedite ?? '',
    signedBy: fields.signedBy ?? 0n,
    transferSelf: fields.transferSelf ?? null,
    utxo: fields.utxo ?? null,
    params: fields.params ?? new Map(),
  };
}

/**
 * Signs a transaction the way every IBAX client does: the payload's double hash is the tx hash, and the
 * signature is over that hash (so the curve signs H(hash)). `format` picks the Go SDK's type 3/5/6
 * envelope or the 0x80 client envelope of Weaver and multikey.
 */
export function signTransaction(
  signer: Signer,
  privateKey: Uint8Array,
  tx: SmartTransaction,
  options: { format?: 'sdk' | 'client'; timestampMs?: bigint } = {},
): SignedTransaction {
  const payload = encodeSmartTransactionPayload(tx);
  const hash = signer.hasher.doubleHash(payload);
  const signature = signer.sign(privateKey, hash);
  const bytes =
    options.format === 'client'
      ? encodeClientEnvelope(payload, signature)
      : encodeSmartContractEnvelope({
          type: smartTxType(tx),
          payload,
          hash,
          timestamp: options.timestampMs ?? BigInt(Date.now()),
          signature,
        });
  return { bytes, hash, payload, signature };
}

/** One of the node's own keys (node or founder) as a signer of transactions. */
export interface OwnKey {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  keyId: bigint;
}

/**
 * A call in ecosystem 1 that the node signs with one of its own keys (delayed-contract calls, bad-block
 * reports, the honor-node listing), carrying the key's public key so that no registration is needed.
 */
export function ownContractCall(
  signer: Signer,
  key: OwnKey,
  call: { contractId: number; networkId: bigint; params: MsgMap; time?: bigint; timestampMs?: bigint },
): SignedTransaction {
  const tx = smartTransaction({
    contractId: call.contractId,
    ecosystemId: 1n,
    keyId: key.keyId,
    networkId: call.networkId,
    publicKey: key.publicKey,
    params: call.params,
    time: call.time,
  });
  return signTransaction(signer, key.privateKey, tx, { timestampMs: call.timestampMs });
}

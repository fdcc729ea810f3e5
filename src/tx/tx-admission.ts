import { Inject, Injectable } from '@nestjs/common';
import {
  CodecError,
  TX_TYPE,
  bytesEqual,
  decodeClientEnvelope,
  decodeSmartContractEnvelope,
  decodeSmartTransactionPayload,
  encodeSmartContractEnvelope,
  smartTxType,
  type SmartTransaction,
  type SmartTxType,
} from '../chain/codec';
import { AdmittedTxs } from '../chain/admitted-txs';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { CryptoError } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { KeyEntity } from '../accounts/entities/key.entity';
import type { CompiledContract, Value } from '../vm';
import { contractArguments, ParamsError } from '../chain/rules/contract-params';
import type { TxRefusalReason } from '../prometheus/prometheus-metrics';
import { TX_EXPIRY_MS } from '../chain/rules/tx-limits';

/** A transaction the node refuses; `hash` is known when the bytes got that far (its status records it). */
export class TxRefusal extends Error {
  /** Which group of checks refused it (the Prometheus label); bytes that do not decode by default. */
  reason: TxRefusalReason = 'malformed';

  constructor(
    message: string,
    readonly hash?: Buffer,
    readonly keyId?: bigint,
    /** An E_ code when the refusal has its own (E_LIMITTXSIZE); E_SERVER otherwise. */
    readonly code?: 'E_LIMITTXSIZE',
    readonly size?: number,
  ) {
    super(message);
  }

  as(reason: TxRefusalReason): this {
    this.reason = reason;
    return this;
  }
}

/** A transaction that passed every check and may be queued. */
export interface AdmittedTx {
  hash: Buffer;
  type: SmartTxType;
  tx: SmartTransaction;
  /** The type 3/5/6 envelope as the node stores and puts in blocks. */
  stored: Buffer;
  /** Envelope time, ms: the client's for SDK transactions, the node's for 0x80 ones. */
  timestampMs: bigint;
  /** Type 3: the contract called and its checked arguments. */
  contract?: CompiledContract;
  args?: Map<string, Value>;
  /** `Expedite` as the whole number the queue orders by. */
  expedite: string;
}

export interface AdmissionLimits {
  /** Platform parameter max_tx_size: bytes of type byte + payload. */
  maxTxSize: number;
  nowMs: number;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const POSITIVE_INTEGER = /^0*[1-9]\d*$/;
const TRANSFER_SIDES = new Set(['utxo', 'account']);

/**
 * Everything the node checks before a transaction may wait for a block (decisions.md, Admission): the
 * envelope, the hash recomputed from the payload, the payload decoded from its signed bytes (never the
 * envelope's copy), network id, header values, size, time window, signature, and for contract calls that
 * the contract exists and the arguments fit its fields. Database-wide checks (replays, duplicates) are
 * the caller's, done for a whole request at once.
 */
const KEYS = new EntityTable(KeyEntity);
/** The public key registered for the key $1 in any ecosystem. */
const KNOWN_PUBLIC_KEY = `SELECT ${KEYS.select('pub')} FROM ${KEYS.name}
  WHERE ${KEYS.column('id')} = $1 AND length(${KEYS.column('pub')}) > 0 LIMIT 1`;

@Injectable()
export class TxAdmission {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crypto: NodeCrypto,
    private readonly contracts: ContractsService,
    private readonly identity: NodeIdentity,
    private readonly db: DatabaseService,
    private readonly admittedTxs: AdmittedTxs,
  ) {}

  /**
   * {@link admit} for several transactions at once: each one's admission or its refusal, in their order.
   * Their signature checks go to the verifying thread together. Any other error (this node's own) is thrown.
   */
  async admitEach(
    transactions: readonly Uint8Array[],
    limits: AdmissionLimits,
  ): Promise<(AdmittedTx | TxRefusal)[]> {
    const outcomes = await Promise.allSettled(transactions.map((bytes) => this.admit(bytes, limits)));
    return outcomes.map((outcome) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      if (outcome.reason instanceof TxRefusal) return outcome.reason;
      throw outcome.reason;
    });
  }

  async admit(bytes: Uint8Array, limits: AdmissionLimits): Promise<AdmittedTx> {
    if (bytes.length === 0) throw new TxRefusal('empty transaction buffer');
    const envelope = this.openEnvelope(bytes, limits.nowMs);
    const { payload, signature, hash, timestampMs, type } = envelope;
    let tx: SmartTransaction;
    try {
      tx = decodeSmartTransactionPayload(payload);
    } catch (error) {
      throw new TxRefusal(`transaction payload: ${(error as Error).message}`, hash);
    }
    const refuseAs = (reason: TxRefusalReason) => (message: string) =>
      new TxRefusal(message, hash, tx.keyId).as(reason);
    const refuse = refuseAs('malformed');
    if (type !== undefined && type !== smartTxType(tx)) {
      throw refuse(`transaction type ${type} does not match its payload (type ${smartTxType(tx)})`);
    }
    const size = 1 + payload.length;
    if (size > limits.maxTxSize) {
      throw new TxRefusal(`The size of tx is too big (${size})`, hash, tx.keyId, 'E_LIMITTXSIZE', size).as(
        'size',
      );
    }
    this.checkHeader(tx, refuseAs('header'));
    this.checkTime(timestampMs, limits.nowMs, refuseAs('time'));
    await this.checkSignature(tx, hash, signature, refuseAs('signature'));

    const admitted: AdmittedTx = {
      hash,
      type: smartTxType(tx),
      tx,
      stored: Buffer.from(
        encodeSmartContractEnvelope({
          type: smartTxType(tx),
          payload,
          hash,
          timestamp: timestampMs,
          signature,
        }),
      ),
      timestampMs,
      expedite: wholeExpedite(tx.expedite),
    };
    if (admitted.type === TX_TYPE.contract) {
      const contract = this.contracts.vm.registry.getById(tx.id);
      if (!contract) throw refuseAs('contract')(`unknown contract ${tx.id}`);
      try {
        admitted.args = contractArguments(contract, tx.params);
      } catch (error) {
        if (error instanceof ParamsError) throw refuseAs('contract')(error.message);
        throw error;
      }
      admitted.contract = contract;
    }
    this.admittedTxs.remember(hash, admitted.stored, { tx, timestampMs });
    return admitted;
  }

  private openEnvelope(bytes: Uint8Array, nowMs: number) {
    const hashOf = (payload: Uint8Array) => Buffer.from(this.crypto.hasher.doubleHash(payload));
    try {
      if (bytes[0] === TX_TYPE.clientEnvelope) {
        const client = decodeClientEnvelope(bytes);
        return {
          payload: client.payload,
          signature: client.signature,
          hash: hashOf(client.payload),
          timestampMs: BigInt(nowMs),
          type: undefined,
        };
      }
      if (bytes[0] === TX_TYPE.contract || bytes[0] === TX_TYPE.utxo || bytes[0] === TX_TYPE.transferSelf) {
        const envelope = decodeSmartContractEnvelope(bytes);
        const hash = hashOf(envelope.payload);
        if (!bytesEqual(hash, envelope.hash)) {
          throw new TxRefusal(
            `the transaction hash ${Buffer.from(envelope.hash).toString('hex')} does not match its payload (${hash.toString('hex')})`,
            hash,
          );
        }
        return {
          payload: envelope.payload,
          signature: envelope.signature,
          hash,
          timestampMs: envelope.timestamp,
          type: envelope.type,
        };
      }
    } catch (error) {
      if (error instanceof CodecError) throw new TxRefusal(error.message);
      throw error;
    }
    throw new TxRefusal(`unsupported tx type ${bytes[0]}`);
  }

  private checkHeader(tx: SmartTransaction, refuse: (message: string) => TxRefusal): void {
    if (tx.networkId !== this.config.networkId) throw refuse('error networkid invalid');
    if (tx.keyId === 0n) throw refuse('KeyID is empty');
    if (tx.ecosystemId <= 0n) throw refuse(`ecosystem ${tx.ecosystemId} is not valid`);
    if (tx.expedite !== '' && !DECIMAL.test(tx.expedite.trim())) {
      throw refuse(`expedite ${JSON.stringify(tx.expedite)} must be a decimal number ≥ 0`);
    }
    if ([...tx.lang].length > 2) throw refuse('the language must be at most 2 characters');
    if (tx.maxSum !== '' && !POSITIVE_INTEGER.test(tx.maxSum)) {
      throw refuse(`MaxSum ${JSON.stringify(tx.maxSum)} must be a positive integer`);
    }
    if (tx.utxo) {
      if (!POSITIVE_INTEGER.test(tx.utxo.value)) throw refuse('UTXO value must be a positive integer');
      if (tx.utxo.toId === 0n) throw refuse('UTXO ToID must be an account');
    }
    if (tx.transferSelf) {
      const { value, source, target } = tx.transferSelf;
      if (!POSITIVE_INTEGER.test(value)) throw refuse('TransferSelf value must be a positive integer');
      if (!TRANSFER_SIDES.has(source.toLowerCase()) || !TRANSFER_SIDES.has(target.toLowerCase())) {
        throw refuse('TransferSelf source and target must be UTXO or Account');
      }
      if (source.toLowerCase() === target.toLowerCase()) {
        throw refuse('TransferSelf source and target must differ');
      }
    }
  }

  private checkTime(timestampMs: bigint, nowMs: number, refuse: (message: string) => TxRefusal): void {
    const seconds = timestampMs / 1000n;
    if (seconds > BigInt(Math.floor(nowMs / 1000))) throw refuse('Early transaction time');
    if (timestampMs < BigInt(nowMs - TX_EXPIRY_MS)) throw refuse('Transaction processing time is expired');
  }

  /**
   * The signer is the key the transaction names: its `PublicKey`, which must be that key's, or the key
   * registered for it. A transaction the node signs for someone (`SignedBy`) must carry the node's key.
   */
  private async checkSignature(
    tx: SmartTransaction,
    hash: Buffer,
    signature: Uint8Array,
    refuse: (message: string) => TxRefusal,
  ): Promise<void> {
    let publicKey: Uint8Array;
    if (tx.signedBy !== 0n) {
      const node = this.identity.keys.node;
      if (tx.signedBy !== node.keyId) throw refuse(`SignedBy ${tx.signedBy} is not this node's key`);
      publicKey = node.publicKey;
    } else if (tx.publicKey.length > 0) {
      let owner: bigint;
      try {
        owner = this.crypto.keyId(tx.publicKey);
      } catch (error) {
        throw refuse(`public key: ${(error as Error).message}`);
      }
      if (owner !== tx.keyId) throw refuse(`the public key does not belong to the key ${tx.keyId}`);
      publicKey = tx.publicKey;
    } else {
      const row = await this.db.one<Pick<KeyEntity, 'pub'>>(KNOWN_PUBLIC_KEY, [tx.keyId.toString()]);
      if (!row) throw refuse(`the key ${tx.keyId} has no public key; send it with the transaction`);
      publicKey = asBuffer(row.pub);
    }
    try {
      // Off the event loop: a client's batch is checked while blocks run.
      await this.crypto.signer.verifyLater(publicKey, hash, signature);
    } catch (error) {
      if (error instanceof CryptoError) throw refuse(error.message);
      throw error;
    }
  }
}

/** numeric(30) holds whole tokens only; the fraction the SDK sends rounds away (formats.md §2.8). */
function wholeExpedite(expedite: string): string {
  const text = expedite.trim();
  if (text === '') return '0';
  return text.split('.')[0].replace(/^0+(?=\d)/, '');
}

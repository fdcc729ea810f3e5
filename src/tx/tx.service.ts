import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { readBlockContent, type BlockTransaction } from '../chain/block-content';
import { decodeSmartContractEnvelope, formatSize } from '../chain/codec';
import { AdmittedTxs } from '../chain/admitted-txs';
import { ChainEvents } from '../chain/chain-events';
import { NodeCrypto } from '../chain/node-crypto.service';
import { BlockProducer } from '../producer/block-producer.service';
import { ORDINARY_RATE } from '../producer/block-executor';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { ApiError } from '../common/api-error';
import { NodeStateService } from '../common/node-state.service';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { ContractsService } from '../contracts/contracts.service';
import { asBuffer, bindList, DatabaseService, type Sql } from '../database/database.service';
import { formatBanTime, KeyBans } from '../chain/rules/key-bans';
import { type QueuedShare, TxQueueBound } from './tx-queue-bound';
import { TxAdmission, TxRefusal, type AdmittedTx } from './tx-admission';
import { STATUS_ERROR_LENGTH } from '../chain/rules/tx-limits';
import type { TxInfoData, TxStatus } from './tx.answers';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { RollbackTxEntity } from '../blocks/entities/rollback-tx.entity';
import { ConfirmationEntity } from './entities/confirmation.entity';
import { LogTransactionEntity } from './entities/log-transaction.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { TransactionStatusEntity } from './entities/transaction-status.entity';

/** One transaction of a sendTx request and the name it came under (form field, file part or RPC key). */
export interface IncomingTx {
  name: string;
  bytes: Uint8Array;
  /** Set when the request carried something that is not a transaction at all (bad hex, bad base64). */
  malformed?: string;
}

export interface SentTx {
  name: string;
  hash: string;
}

export interface TxInfo {
  blockId: bigint;
  confirm: number;
  data?: TxInfoData;
}

const STATUSES = new EntityTable(TransactionStatusEntity);
const STATUS = STATUSES.select('hash', 'blockId', 'error', 'penalty');
type StatusRow = RowOf<typeof STATUS>;
const QUEUE = new EntityTable(TransactionEntity);
const QUEUED = QUEUE.select('hash', 'data');
const QUEUE_COLUMNS = QUEUE.columnList(
  'hash',
  'data',
  'highRate',
  'expedite',
  'time',
  'type',
  'keyId',
  'queuedAt',
  'used',
  'sent',
  'verified',
);
const MINED = new EntityTable(LogTransactionEntity);
const MINED_AT = MINED.select('block', 'ecosystemId', 'status');
/** Which of the hashes ($1, hex texts) are mined or queued already. */
const KNOWN_AMONG = `WITH "h" AS (SELECT decode("x", 'hex') AS "hash" FROM unnest($1::text[]) AS "x")
  SELECT ${MINED.select('hash')} FROM ${MINED.name} WHERE ${MINED.column('hash')} IN (SELECT "hash" FROM "h")
  UNION ALL SELECT ${QUEUE.select('hash')} FROM ${QUEUE.name} WHERE ${QUEUE.column('hash')} IN (SELECT "hash" FROM "h")`;
const CONFIRMATIONS = new EntityTable(ConfirmationEntity);
const CONFIRMED = CONFIRMATIONS.select('good');
const BLOCKS = new EntityTable(BlockEntity);
const BLOCK_WHOLE = BLOCKS.select('hash', 'data');
const JOURNAL = new EntityTable(RollbackTxEntity);
const JOURNAL_ENTRY = JOURNAL.select('tableName', 'tableId');

const HASH_HEX = /^[0-9a-fA-F]*$/;
/** Rows per INSERT: 8 bound values each stay far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1000;

/** What an admitted transaction takes of the queue's bound. */
function queuedShare(tx: AdmittedTx): QueuedShare {
  return { bytes: tx.stored.length, keyId: tx.tx.keyId };
}

export function hashBytes(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!HASH_HEX.test(trimmed) || trimmed.length % 2 !== 0) return undefined;
  return Buffer.from(trimmed, 'hex');
}

/**
 * The transaction operations: admission (sendTx) and the reads of a transaction's fate (status, info,
 * records). Admitted transactions are in the database before the answer: a status row (block 0, no
 * error) and a `transactions` row the block producer takes them from.
 */
@Injectable()
export class TxService {
  constructor(
    private readonly db: DatabaseService,
    private readonly admission: TxAdmission,
    private readonly bans: KeyBans,
    private readonly parameters: PlatformParametersService,
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
    private readonly producer: BlockProducer,
    private readonly metrics: PrometheusMetrics,
    private readonly nodeState: NodeStateService,
    private readonly bound: TxQueueBound,
    private readonly admittedTxs: AdmittedTxs,
    private readonly events: ChainEvents,
  ) {}

  async send(caller: Caller, incoming: readonly IncomingTx[]): Promise<SentTx[]> {
    // A stopping node queues nothing more (graceful stop): the client sends it to another node, or again.
    if (this.nodeState.draining) throw new ApiError('E_STOPPING');
    const bannedTill = this.bans.bannedTill(caller.keyId);
    if (bannedTill) {
      this.metrics.txRefused('banned', incoming.length);
      throw new ApiError('E_BANNED', caller.keyId, formatBanTime(bannedTill));
    }
    if (incoming.length === 0) throw ApiError.server('no transactions in the request');
    const maxTxSize = Number((await this.parameters.get('max_tx_size')) ?? 33_554_432);
    if (incoming.length > maxTxSize) {
      this.metrics.txRefused('size', incoming.length);
      this.bans.strike(caller.keyId);
      throw new ApiError('E_LIMITTXSIZE', incoming.length);
    }
    try {
      await this.bound.refuseWhenFull(
        incoming.length,
        incoming.reduce((total, tx) => total + tx.bytes.length, 0),
      );
    } catch (error) {
      this.metrics.txRefused('busy', incoming.length);
      throw error;
    }
    const nowMs = Date.now();
    const admitted: AdmittedTx[] = [];
    const refused: TxRefusal[] = [];
    const wellFormed = incoming.filter((tx) => !tx.malformed);
    const outcomes = await this.admission.admitEach(
      wellFormed.map((tx) => tx.bytes),
      { maxTxSize, nowMs },
    );
    let next = 0;
    for (const tx of incoming) {
      const outcome = tx.malformed ? new TxRefusal(tx.malformed) : outcomes[next++];
      if (outcome instanceof TxRefusal) refused.push(outcome);
      else admitted.push(outcome);
    }
    if (refused.length > 0) {
      for (const refusal of refused) this.metrics.txRefused(refusal.reason);
      await this.recordRefusals(refused);
      this.bans.strike(caller.keyId);
      const first = refused[0];
      if (first.code === 'E_LIMITTXSIZE') throw new ApiError('E_LIMITTXSIZE', first.size ?? 0);
      throw ApiError.server(first.message);
    }
    // A transaction sent again once it is in a block is accepted, as the reference accepts it, and not queued
    // again: its status stays the one of its block (a client that retries is told how its transaction went).
    const mined = await this.minedAmong(admitted.map((tx) => tx.hash));
    const fresh = admitted.filter((tx) => !mined.has(tx.hash.toString('hex')));
    if (fresh.length > 0) {
      // Refused whole when the queue is full (E_BUSY): nothing is stored, and the key is not to blame.
      const shares = fresh.map(queuedShare);
      try {
        await this.bound.reserve(shares);
      } catch (error) {
        this.metrics.txRefused('busy', fresh.length);
        throw error;
      }
      await this.queueReserved(fresh, shares);
      this.events.transactionsAccepted(fresh.map((tx) => tx.stored));
    }
    return incoming.map((tx, index) => ({ name: tx.name, hash: admitted[index].hash.toString('hex') }));
  }

  /**
   * Transactions that did not come from a client of this node: passed on by another honor node, or made
   * by the node itself. Each is admitted as a client's would be; one refused, already queued or already
   * mined is left out without an error (a peer sends what it has, and may send it twice). A peer's are cut
   * to what the queue's bound still lets in (its sender keeps them queued); the node's own are not. The
   * ones cut are checked all the same and wait in memory (`AdmittedTxs`), not in the queue: this node's
   * blocks take them by age beside the queue's, and when another node's block brings them, checking them
   * again would hold up the chain (the next leader waits for this node's replay). Returns the ones queued
   * now, as stored.
   */
  async receive(txs: readonly Uint8Array[], from: 'peer' | 'self' = 'peer'): Promise<Buffer[]> {
    if (this.nodeState.draining || txs.length === 0) return [];
    const maxTxSize = Number((await this.parameters.get('max_tx_size')) ?? 33_554_432);
    const nowMs = Date.now();
    const admitted: AdmittedTx[] = [];
    for (const outcome of await this.admission.admitEach(txs, { maxTxSize, nowMs })) {
      if (outcome instanceof TxRefusal) this.metrics.txRefused(outcome.reason);
      else admitted.push(outcome);
    }
    const known = await this.knownAmong(admitted.map((tx) => tx.hash));
    let fresh = admitted.filter((tx) => !known.has(tx.hash.toString('hex')));
    if (fresh.length === 0) return [];
    let shares: QueuedShare[] = [];
    if (from === 'peer') {
      shares = fresh.map(queuedShare);
      const fitting = await this.bound.reserveWhatFits(shares);
      if (fitting < fresh.length) this.metrics.txRefused('busy', fresh.length - fitting);
      for (const cut of fresh.slice(fitting)) this.admittedTxs.waitOutside(cut.hash.toString('hex'));
      fresh = fresh.slice(0, fitting);
      shares = shares.slice(0, fitting);
      if (fresh.length === 0) return [];
    }
    await this.queueReserved(fresh, shares);
    return fresh.map((tx) => tx.stored);
  }

  /**
   * Queues `admitted` in one database transaction, in the room reserved for `shares` (none for the node's
   * own): the room becomes the queue's once committed, and is given back if the write fails.
   */
  private async queueReserved(
    admitted: readonly AdmittedTx[],
    shares: readonly QueuedShare[],
  ): Promise<void> {
    try {
      await this.db.transaction((sql) => this.queue(sql, admitted));
    } catch (error) {
      this.bound.release(shares);
      throw error;
    }
    this.bound.settle(shares);
    this.metrics.txAdmitted(admitted.length);
    this.producer.requestBlock();
  }

  /** The hashes among `hashes` already mined or waiting in the queue. */
  private async knownAmong(hashes: readonly Buffer[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db.query<Pick<TransactionEntity, 'hash'>>(KNOWN_AMONG, [
      hashes.map((hash) => hash.toString('hex')),
    ]);
    return new Set(rows.map((row) => asBuffer(row.hash).toString('hex')));
  }

  /**
   * Checks the transactions of a received block as admission does, at the block's time: the refusal of the
   * first that fails, or undefined. One this node admitted lately with the very same bytes (a client's, or a
   * peer's passed on to it), or that waits in its queue so, passed admission here. A thrown error is this
   * node's own failure, no verdict on the block.
   */
  async checkInBlock(txs: readonly Uint8Array[], blockTimeMs: number): Promise<string | undefined> {
    const unknown: { bytes: Uint8Array; hash: string }[] = [];
    for (const bytes of txs) {
      let hash: string;
      try {
        hash = Buffer.from(decodeSmartContractEnvelope(bytes).hash).toString('hex');
      } catch (error) {
        return (error as Error).message;
      }
      if (!this.admittedTxs.holds(hash, bytes)) unknown.push({ bytes, hash });
    }
    if (unknown.length === 0) return undefined;
    // Queued before this node last started, or admitted long enough ago to be forgotten.
    const queued = await this.db.query<RowOf<typeof QUEUED>>(
      `SELECT ${QUEUED} FROM ${QUEUE.name}
        WHERE ${QUEUE.column('hash')} IN (SELECT decode("x", 'hex') FROM unnest($1::text[]) AS "x")`,
      [unknown.map((tx) => tx.hash)],
    );
    const queuedData = new Map(queued.map((row) => [asBuffer(row.hash).toString('hex'), asBuffer(row.data)]));
    const maxTxSize = Number((await this.parameters.get('max_tx_size')) ?? 33_554_432);
    const toAdmit = unknown.filter(({ bytes, hash }) => !queuedData.get(hash)?.equals(bytes));
    // A transaction's own second may be the block's: "now" is the end of that second.
    const outcomes = await this.admission.admitEach(
      toAdmit.map((tx) => tx.bytes),
      { maxTxSize, nowMs: blockTimeMs + 999 },
    );
    return outcomes.find((outcome) => outcome instanceof TxRefusal)?.message;
  }

  /** Status and queue rows for admitted transactions; a pending one sent again is simply kept. */
  async queue(sql: Sql, admitted: readonly AdmittedTx[], highRate = ORDINARY_RATE): Promise<void> {
    if (this.nodeState.draining) throw new ApiError('E_STOPPING');
    for (let start = 0; start < admitted.length; start += INSERT_CHUNK) {
      const chunk = admitted.slice(start, start + INSERT_CHUNK);
      const statusParams: unknown[] = [];
      const statusRows = chunk.map(
        (tx) =>
          `(${bindList(
            [
              tx.hash,
              tx.timestampMs.toString(),
              tx.type,
              tx.tx.ecosystemId.toString(),
              tx.tx.keyId.toString(),
            ],
            statusParams,
          )})`,
      );
      // A transaction refused or failed before may be sent again; a mined one never reaches here.
      await sql.query(
        `INSERT INTO ${STATUSES.name} (${STATUSES.columnList('hash', 'time', 'type', 'ecosystem', 'walletId')})
         VALUES ${statusRows.join(', ')}
         ON CONFLICT (${STATUSES.column('hash')})
         DO UPDATE SET ${STATUSES.column('error')} = '', ${STATUSES.column('penalty')} = 0
         WHERE ${STATUSES.qualified('blockId')} = 0`,
        statusParams,
      );
      const queueParams: unknown[] = [];
      const queuedAt = String(Date.now());
      const queueRows = chunk.map(
        (tx) =>
          `(${bindList(
            [
              tx.hash,
              tx.stored,
              String(highRate),
              tx.expedite,
              tx.timestampMs.toString(),
              tx.type,
              tx.tx.keyId.toString(),
              queuedAt,
            ],
            queueParams,
          )}, 0, 0, 1)`,
      );
      await sql.query(
        `INSERT INTO ${QUEUE.name} (${QUEUE_COLUMNS})
         VALUES ${queueRows.join(', ')} ON CONFLICT (${QUEUE.column('hash')}) DO NOTHING`,
        queueParams,
      );
    }
  }

  private async minedAmong(hashes: readonly Buffer[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const params: unknown[] = [];
    const rows = await this.db.query<Pick<LogTransactionEntity, 'hash'>>(
      `SELECT ${MINED.select('hash')} FROM ${MINED.name} WHERE ${MINED.column('hash')} IN (${bindList(hashes, params)})`,
      params,
    );
    return new Set(rows.map((row) => asBuffer(row.hash).toString('hex')));
  }

  /** A refused transaction whose hash is known reports its error in its status (never over a mined one). */
  private async recordRefusals(refused: readonly TxRefusal[]): Promise<void> {
    const known = refused.filter((refusal) => refusal.hash !== undefined);
    if (known.length === 0) return;
    const params: unknown[] = [];
    const rows = known.map(
      (refusal) =>
        `(${bindList(
          [
            refusal.hash,
            String(Date.now()),
            (refusal.keyId ?? 0n).toString(),
            refusal.message.slice(0, STATUS_ERROR_LENGTH),
          ],
          params,
        )}, 3)`,
    );
    await this.db.query(
      `INSERT INTO ${STATUSES.name} (${STATUSES.columnList('hash', 'time', 'walletId', 'error', 'type')})
       VALUES ${rows.join(', ')}
       ON CONFLICT (${STATUSES.column('hash')}) DO UPDATE SET ${STATUSES.column('error')} = EXCLUDED.${STATUSES.column('error')}
       WHERE ${STATUSES.qualified('blockId')} = 0`,
      params,
    );
  }

  /** Statuses by hash, keyed as given; an unknown or malformed hash fails the whole call. */
  async status(hashes: readonly string[]): Promise<Record<string, TxStatus>> {
    const known = await this.knownStatuses(hashes);
    for (const text of hashes) if (!known[text]) throw new ApiError('E_HASHNOTFOUND', text);
    return known;
  }

  /**
   * Statuses of the hashes the node knows, keyed as given, in one query; hashes it has not seen yet are left
   * out (a subscriber may follow a transaction before sending it). A malformed hash is E_HASHWRONG.
   */
  async knownStatuses(hashes: readonly string[]): Promise<Record<string, TxStatus>> {
    const parsed = hashes.map((text) => {
      const bytes = hashBytes(text);
      if (!bytes) throw new ApiError('E_HASHWRONG');
      return { text, bytes };
    });
    const results: Record<string, TxStatus> = {};
    if (parsed.length === 0) return results;
    const params: unknown[] = [];
    const rows = await this.db.query<StatusRow>(
      `SELECT ${STATUS} FROM ${STATUSES.name}
        WHERE ${STATUSES.column('hash')} IN (${bindList(
          parsed.map((item) => item.bytes),
          params,
        )})`,
      params,
    );
    const byHash = new Map(rows.map((row) => [asBuffer(row.hash).toString('hex'), row]));
    for (const { text, bytes } of parsed) {
      const row = byHash.get(bytes.toString('hex'));
      if (row) results[text] = statusOf(row);
    }
    return results;
  }

  /** Where a transaction is: its block and confirmations, and with `contractInfo` what it was. */
  async info(hashText: string, contractInfo: boolean): Promise<TxInfo> {
    const hash = hashBytes(hashText);
    if (!hash || hash.length === 0) throw new ApiError('E_HASHWRONG');
    const row = await this.db.one<RowOf<typeof MINED_AT>>(
      `SELECT ${MINED_AT} FROM ${MINED.name} WHERE ${MINED.column('hash')} = $1`,
      [hash],
    );
    if (!row) return { blockId: 0n, confirm: 0 };
    const blockId = BigInt(row.block);
    const confirmation = await this.db.one<RowOf<typeof CONFIRMED>>(
      `SELECT ${CONFIRMED} FROM ${CONFIRMATIONS.name} WHERE ${CONFIRMATIONS.column('blockId')} = $1`,
      [blockId.toString()],
    );
    const info: TxInfo = { blockId, confirm: Number(confirmation?.good ?? 0) };
    if (!contractInfo) return info;
    const block = await this.db.one<RowOf<typeof BLOCK_WHOLE>>(
      `SELECT ${BLOCK_WHOLE} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = $1`,
      [blockId.toString()],
    );
    if (!block) throw ApiError.server('not found');
    const content = readBlockContent(asBuffer(block.data), this.contracts.vm.registry);
    const tx = content.transactions.find((item) => item.hash.equals(hash));
    const described = tx ? this.describe(tx) : undefined;
    // Member order as the reference writes the struct; a transaction missing from its block has only
    // the block's members filled.
    const data = {
      block_id: blockId,
      block_hash: asBuffer(block.hash).toString('hex'),
      address: described?.address ?? '',
      ecosystem: BigInt(row.ecosystemId),
      hash: described?.hash ?? '',
      expedite: described?.expedite ?? '',
      contract_name: described?.contract_name ?? '',
      params: described?.params ?? null,
      created_at: described?.created_at ?? 0n,
      size: described?.size ?? '',
      status: Number(row.status),
    };
    info.data = data as TxInfoData;
    return info;
  }

  private describe(tx: BlockTransaction) {
    let params: unknown = tx.params;
    if (tx.transferSelf) params = { transferSelf: tx.transferSelf };
    else if (tx.utxo) params = { utxo: tx.utxo };
    return {
      address: this.crypto.address(tx.keyId),
      hash: tx.hash.toString('hex'),
      expedite: tx.expedite,
      contract_name: tx.contractName,
      params,
      created_at: tx.time,
      size: formatSize(tx.payloadSize),
    };
  }

  /**
   * For each hash, the current rows its transaction wrote (by its journal), all values as text; null for
   * a hash with no records. Key rows and schema changes are left out, as the reference does.
   */
  async records(hashTexts: readonly string[]): Promise<(Record<string, string>[] | null)[]> {
    const results: (Record<string, string>[] | null)[] = [];
    for (const text of hashTexts) {
      const hash = hashBytes(text);
      if (!hash || hash.length === 0) {
        results.push(null);
        continue;
      }
      const journal = await this.db.query<RowOf<typeof JOURNAL_ENTRY>>(
        `SELECT ${JOURNAL_ENTRY} FROM ${JOURNAL.name}
          WHERE ${JOURNAL.column('txHash')} = $1 AND ${JOURNAL.column('tableName')} NOT IN ('1_keys', '@system')
          ORDER BY ${JOURNAL.column('id')}`,
        [hash],
      );
      if (journal.length === 0) {
        results.push(null);
        continue;
      }
      const rows: Record<string, string>[] = [];
      for (const record of journal) {
        if (!/^[a-z0-9_]+$/.test(record.tableName)) continue;
        const [id, ecosystem] = record.tableId.split(',');
        const params = ecosystem === undefined ? [id] : [id, ecosystem];
        const condition = ecosystem === undefined ? `"id" = $1` : `"id" = $1 AND "ecosystem" = $2`;
        const row = await this.db.one<Record<string, unknown>>(
          `SELECT * FROM "${record.tableName}" WHERE ${condition}`,
          params,
        );
        if (row) rows.push(textRow(row));
      }
      results.push(rows);
    }
    return results;
  }
}

function statusOf(row: StatusRow): TxStatus {
  const blockId = BigInt(row.blockId);
  const penalty = Number(row.penalty);
  if (blockId > 0n && penalty !== 1) return { blockid: blockId.toString(), result: row.error, penalty };
  // Member order of the reference's struct: blockid, errmsg (omitted when empty), result, penalty.
  return {
    blockid: blockId > 0n ? blockId.toString() : '',
    errmsg: row.error ? errorMessage(row.error) : undefined,
    result: '',
    penalty,
  };
}

/** The stored error text: the VM's JSON `{type, error, id}`, or plain text as a txError. */
export function errorMessage(text: string): { type?: string; error?: string; id?: string } {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (
      parsed &&
      typeof parsed === 'object' &&
      !Array.isArray(parsed) &&
      ('type' in parsed || 'error' in parsed)
    ) {
      const message: { type?: string; error?: string; id?: string } = {};
      if (parsed.type) message.type = String(parsed.type);
      if (parsed.error) message.error = String(parsed.error);
      if (parsed.id) message.id = String(parsed.id);
      return message;
    }
  } catch {
    // not JSON: a plain refusal text
  }
  return { type: 'txError', error: text };
}

function textRow(row: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => {
      if (value === null || value === undefined) return [name, ''];
      if (value instanceof Uint8Array) return [name, Buffer.from(value).toString('latin1')];
      if (value instanceof Date) return [name, value.toISOString()];
      if (typeof value === 'object') return [name, JSON.stringify(value)];
      return [name, String(value)];
    }),
  );
}

import { Inject, Injectable } from '@nestjs/common';
import { mp } from '../chain/codec';
import { NodeIdentity } from '../chain/node-identity.service';
import { BlockProducer } from '../producer/block-producer.service';
import { ownContractCall } from '../chain/tx-builder';
import { ChainEvents } from '../chain/chain-events';
import { NodeCrypto } from '../chain/node-crypto.service';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { bytesToHex } from '../crypto';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { TransactionStatusEntity } from './entities/transaction-status.entity';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { CONTRACT_ID_OFFSET } from '../vm';
import { TxAdmission, TxRefusal } from './tx-admission';
import { TxService } from './tx.service';

/** How long a login waits for its registration block: the reference's 2 × 3 × 2 s at most. */
export const REGISTRATION_WAIT_MS = 12_000;
const POLL_MS = 25;

/**
 * Registers an unknown key at its first login: a real `NewUser` transaction signed by the node, queued
 * ahead of client transactions, mined in a block the producer is asked for at once. The login waits for
 * that block (bounded), as the reference does, and tells the client when it did not come in time.
 */
const STATUSES = new EntityTable(TransactionStatusEntity);
const OUTCOME = STATUSES.select('blockId', 'error');
const OUTCOME_OF = `SELECT ${OUTCOME} FROM ${STATUSES.name} WHERE ${STATUSES.column('hash')} = $1`;

@Injectable()
export class KeyRegistration {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identity: NodeIdentity,
    private readonly crypto: NodeCrypto,
    private readonly contracts: ContractsService,
    private readonly admission: TxAdmission,
    private readonly txs: TxService,
    private readonly producer: BlockProducer,
    private readonly db: DatabaseService,
    private readonly metrics: PrometheusMetrics,
    private readonly events: ChainEvents,
  ) {}

  async register(publicKey: Uint8Array, ecosystem: bigint): Promise<void> {
    const newUser = this.contracts.vm.getContract('@1NewUser', 1);
    if (!newUser?.meta.tableId) throw ApiError.server('the NewUser contract is missing');
    const signed = ownContractCall(this.crypto.signer, this.identity.keys.node, {
      contractId: newUser.meta.tableId + CONTRACT_ID_OFFSET,
      networkId: this.config.networkId,
      params: mp.map([
        ['NewPubkey', mp.str(bytesToHex(publicKey))],
        ['Ecosystem', mp.int64(ecosystem)],
      ]),
    });
    let admitted;
    try {
      admitted = await this.admission.admit(signed.bytes, {
        maxTxSize: Number.MAX_SAFE_INTEGER,
        nowMs: Date.now(),
      });
    } catch (error) {
      if (error instanceof TxRefusal) throw ApiError.server(`registering the key: ${error.message}`);
      throw error;
    }
    await this.db.transaction((sql) => this.txs.queue(sql, [admitted], 1));
    this.metrics.txAdmitted(1);
    // In a network the block may come from another node: it gets the registration too.
    this.events.transactionsAccepted([admitted.stored]);
    this.producer.requestBlock();
    await this.waitForBlock(admitted.hash);
  }

  private async waitForBlock(hash: Buffer): Promise<void> {
    const deadline = Date.now() + REGISTRATION_WAIT_MS;
    while (Date.now() < deadline) {
      const status = await this.db.one<RowOf<typeof OUTCOME>>(OUTCOME_OF, [hash]);
      if (status && BigInt(status.blockId) > 0n) return;
      if (status?.error) throw ApiError.server('encountered some problems when login account');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new ApiError('E_NEWUSER');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import type { Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { DelayedContractEntity } from '../contracts/entities/delayed-contract.entity';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { CONTRACT_ID_OFFSET } from '../vm';
import { mp } from '../chain/codec';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { ownContractCall } from '../chain/tx-builder';

/** The contract the producer calls for every due row; it counts the run and calls the row's contract. */
export const CALL_DELAYED_CONTRACT = '@1CallDelayedContract';

/** A transaction the producer puts at the head of a block, before the queue's. */
export interface LeadingTx {
  hash: Buffer;
  data: Buffer;
}

export interface DueDelayedContract {
  id: bigint;
  contract: string;
}

const DELAYED = new EntityTable(DelayedContractEntity);
const DUE_ROW = DELAYED.select('id', 'contract');
const DUE_ROWS = dueRowsStatement();
const TIP = new EntityTable(InfoBlockEntity);
const TIP_ROW = TIP.select('blockId');
const TIP_HEIGHT = `SELECT ${TIP_ROW} FROM ${TIP.name} LIMIT 1`;

/**
 * The rows of `1_delayed_contracts` due in block `$1`: every `every_block` blocks (block ids that are
 * multiples of it) from `block_id` on, until `limit` runs (0: no limit), unless deleted; only the rows whose
 * key is this node's (`$2`): a node calls contracts in its own name only. Highest `high_rate` first, then by
 * id, so the same block made again from the same state calls the same contracts in the same order.
 */
function dueRowsStatement(): string {
  const [every, limit] = [DELAYED.column('everyBlock'), DELAYED.column('limit')];
  return `SELECT ${DUE_ROW} FROM ${DELAYED.name}
   WHERE ${DELAYED.column('deleted')} = 0 AND ${every} > 0 AND ${DELAYED.column('blockId')} <= $1::bigint
     AND $1::bigint % ${every} = 0 AND (${limit} = 0 OR ${DELAYED.column('counter')} < ${limit})
     AND ${DELAYED.column('keyId')} = $2
   ORDER BY ${DELAYED.column('highRate')} DESC, ${DELAYED.column('id')}`;
}

/**
 * Delayed contracts: rows of `1_delayed_contracts` the platform runs itself every so many blocks (genesis has
 * `@1CheckNodesBan` every 10). For each row due in a block, the producer puts at the head of the block a call of
 * `@1CallDelayedContract` {Id, Block} signed with the node key, as the reference's producer makes a transaction
 * for each; that contract counts the run, moves `block_id` on and calls the row's contract. The calls are real
 * transactions of the block (in its data, `log_transactions` and the journal), so a rollback takes their effects
 * back with the block and making the block again calls them again.
 */
@Injectable()
export class DelayedContracts {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identity: NodeIdentity,
    private readonly crypto: NodeCrypto,
    private readonly contracts: ContractsService,
  ) {}

  /** Whether a row is due in the block after the tip: such a block is made even when no transaction waits. */
  async dueAfterTip(sql: Sql): Promise<boolean> {
    const tip = await sql.one<RowOf<typeof TIP_ROW>>(TIP_HEIGHT);
    return tip !== undefined && (await this.due(sql, BigInt(tip.blockId) + 1n)).length > 0;
  }

  async due(sql: Sql, blockId: bigint): Promise<DueDelayedContract[]> {
    const rows = await sql.query<RowOf<typeof DUE_ROW>>(DUE_ROWS, [
      blockId.toString(),
      this.identity.keys.node.keyId.toString(),
    ]);
    return rows.map((row) => ({ id: BigInt(row.id), contract: row.contract }));
  }

  /**
   * The calls of block `blockId`, signed by the node with the block's time as their time. Each names its block
   * (`Block`): blocks follow each other within a second here, and two calls of a row with the same time would
   * otherwise be one transaction, left out of the second block as already mined.
   */
  async calls(sql: Sql, blockId: bigint, blockTime: bigint): Promise<LeadingTx[]> {
    const tableId = this.contracts.vm.getContract(CALL_DELAYED_CONTRACT, 1)?.meta.tableId;
    if (!tableId) return [];
    const node = this.identity.keys.node;
    return (await this.due(sql, blockId)).map((row) => {
      const signed = ownContractCall(this.crypto.signer, node, {
        contractId: tableId + CONTRACT_ID_OFFSET,
        networkId: this.config.networkId,
        params: mp.map([
          ['Id', mp.int64(row.id)],
          ['Block', mp.int64(blockId)],
        ]),
        time: blockTime,
        timestampMs: blockTime * 1000n,
      });
      return { hash: Buffer.from(signed.hash), data: Buffer.from(signed.bytes) };
    });
  }
}

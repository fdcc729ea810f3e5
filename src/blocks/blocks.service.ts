import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { asBuffer, DatabaseService } from '../database/database.service';

export interface BlockSummary {
  id: bigint;
  hash: Buffer;
  rollbacksHash: Buffer;
  ecosystemId: bigint;
  keyId: bigint;
  time: bigint;
  txCount: number;
  nodePosition: bigint;
  consensusMode: number;
}

interface BlockRow {
  id: string;
  hash: unknown;
  rollbacks_hash: unknown;
  ecosystem_id: string;
  key_id: string;
  time: string;
  tx: number;
  node_position: string;
  consensus_mode: number;
}

/** Reads of `block_chain`: the chain's height and its blocks. */
@Injectable()
export class BlocksService {
  constructor(private readonly db: DatabaseService) {}

  /** The highest block id; E_NOTFOUND on an empty chain. */
  async maxBlockId(): Promise<bigint> {
    const height = await this.height();
    if (height === 0n) throw new ApiError('E_NOTFOUND');
    return height;
  }

  /** The highest block id, 0 on an empty chain. */
  async height(): Promise<bigint> {
    const row = await this.db.one<{ id: string | null }>('SELECT max("id") AS "id" FROM "block_chain"');
    return row?.id ? BigInt(row.id) : 0n;
  }

  async block(id: bigint): Promise<BlockSummary> {
    const row = await this.db.one<BlockRow>(
      `SELECT "id", "hash", "rollbacks_hash", "ecosystem_id", "key_id", "time", "tx", "node_position", "consensus_mode"
         FROM "block_chain" WHERE "id" = $1`,
      [id.toString()],
    );
    if (!row) throw new ApiError('E_NOTFOUND');
    return {
      id: BigInt(row.id),
      hash: asBuffer(row.hash),
      rollbacksHash: asBuffer(row.rollbacks_hash),
      ecosystemId: BigInt(row.ecosystem_id),
      keyId: BigInt(row.key_id),
      time: BigInt(row.time),
      txCount: Number(row.tx),
      nodePosition: BigInt(row.node_position),
      consensusMode: Number(row.consensus_mode),
    };
  }

  /** Sum of transactions over all blocks. */
  async transactionCount(): Promise<bigint> {
    const row = await this.db.one<{ total: string | null }>('SELECT sum("tx") AS "total" FROM "block_chain"');
    return row?.total ? BigInt(row.total) : 0n;
  }
}

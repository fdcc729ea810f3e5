import { Injectable } from '@nestjs/common';
import { ChainEvents } from '../chain/chain-events';
import { ApiError } from '../common/api-error';
import { INT64_MAX } from '../common/dto/validators';
import { ContractsService } from '../contracts/contracts.service';
import { asBuffer, DatabaseService } from '../database/database.service';
import { readBlockContent, type BlockContent } from '../chain/block-content';

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

/** A stored block with its decoded content, for the block lists and details. */
export interface StoredBlock extends BlockSummary {
  data: Buffer;
  content: BlockContent;
}

/** Which block `detailedBlock` and `getTransactionCount` mean: by height or by hash. */
export type BlockRef = { id: bigint } | { hash: Buffer };

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

/** Blocks kept in memory at most; past it they are all forgotten (they are read again when asked). */
const MAX_KEPT_BLOCKS = 10_000;

/**
 * Reads of `block_chain`: the chain's height and its blocks. The height and block summaries are kept in
 * memory while ChainEvents vouches that every change reaches this process (a new block moves the height,
 * a rollback forgets everything), so the hottest reads cost no database round trip.
 */
@Injectable()
export class BlocksService {
  private keptHeight?: bigint;
  private readonly keptBlocks = new Map<bigint, BlockSummary>();
  /** Bumped on every chain change: a read that raced with one does not keep what it read. */
  private changes = 0;

  constructor(
    private readonly db: DatabaseService,
    private readonly contracts: ContractsService,
    private readonly events: ChainEvents,
  ) {
    events.subscribe((change) => {
      this.changes++;
      if (change.kind === 'block') {
        if (this.keptHeight !== undefined && change.height > this.keptHeight) this.keptHeight = change.height;
        return;
      }
      this.keptHeight = undefined;
      this.keptBlocks.clear();
    });
  }

  /** The highest block id; E_NOTFOUND on an empty chain. */
  async maxBlockId(): Promise<bigint> {
    const height = await this.height();
    if (height === 0n) throw new ApiError('E_NOTFOUND');
    return height;
  }

  /** The highest block id, 0 on an empty chain. */
  async height(): Promise<bigint> {
    if (this.keptHeight !== undefined && this.events.reliable) return this.keptHeight;
    const before = this.changes;
    const row = await this.db.one<{ id: string | null }>('SELECT max("id") AS "id" FROM "block_chain"');
    const height = row?.id ? BigInt(row.id) : 0n;
    if (before === this.changes && this.events.reliable) this.keptHeight = height;
    return height;
  }

  async block(id: bigint): Promise<BlockSummary> {
    const kept = this.events.reliable ? this.keptBlocks.get(id) : undefined;
    if (kept) return kept;
    const before = this.changes;
    const row = await this.db.one<BlockRow>(
      `SELECT "id", "hash", "rollbacks_hash", "ecosystem_id", "key_id", "time", "tx", "node_position", "consensus_mode"
         FROM "block_chain" WHERE "id" = $1`,
      [id.toString()],
    );
    if (!row) throw new ApiError('E_NOTFOUND');
    const summary = summaryOf(row);
    if (before === this.changes && this.events.reliable) {
      if (this.keptBlocks.size >= MAX_KEPT_BLOCKS) this.keptBlocks.clear();
      this.keptBlocks.set(id, summary);
    }
    return summary;
  }

  /**
   * Blocks `first` … `first + count - 1` that exist, in height order; E_NOTFOUND when none does. The last
   * is held to the highest block id there can be, so a range near it is not out of the column's range.
   */
  async range(first: bigint, count: bigint): Promise<StoredBlock[]> {
    const last = first + count - 1n;
    const rows = await this.db.query<BlockRow & { data: unknown }>(
      `SELECT "id", "hash", "rollbacks_hash", "ecosystem_id", "key_id", "time", "tx", "node_position", "consensus_mode", "data"
         FROM "block_chain" WHERE "id" >= $1 AND "id" <= $2 ORDER BY "id"`,
      [first.toString(), (last < INT64_MAX ? last : INT64_MAX).toString()],
    );
    if (rows.length === 0) throw new ApiError('E_NOTFOUND');
    return rows.map((row) => this.decode(row));
  }

  private decode(row: BlockRow & { data: unknown }): StoredBlock {
    const data = asBuffer(row.data);
    let content: BlockContent;
    try {
      content = readBlockContent(data, this.contracts.vm.registry);
    } catch (error) {
      throw ApiError.server(`block ${row.id} cannot be decoded: ${(error as Error).message}`);
    }
    return { ...summaryOf(row), data, content };
  }

  /** One block by height or hash, with its content; E_NOTFOUND when it does not exist. */
  async stored(ref: BlockRef): Promise<StoredBlock> {
    const [condition, value] = 'id' in ref ? ['"id" = $1', ref.id.toString()] : ['"hash" = $1', ref.hash];
    const row = await this.db.one<BlockRow & { data: unknown }>(
      `SELECT "id", "hash", "rollbacks_hash", "ecosystem_id", "key_id", "time", "tx", "node_position", "consensus_mode", "data"
         FROM "block_chain" WHERE ${condition}`,
      [value],
    );
    if (!row) throw new ApiError('E_NOTFOUND');
    return this.decode(row);
  }

  /** Transactions in one block. */
  async blockTransactionCount(ref: BlockRef): Promise<number> {
    const [condition, value] = 'id' in ref ? ['"id" = $1', ref.id.toString()] : ['"hash" = $1', ref.hash];
    const row = await this.db.one<{ tx: number }>(`SELECT "tx" FROM "block_chain" WHERE ${condition}`, [
      value,
    ]);
    if (!row) throw new ApiError('E_NOTFOUND');
    return Number(row.tx);
  }

  /** Blocks made by the node at `position` in consensus mode `mode`, and the height. */
  async countByNode(position: bigint, mode: number): Promise<{ total: bigint; partial: bigint }> {
    const total = await this.maxBlockId();
    const row = await this.db.one<{ count: string }>(
      `SELECT count(*) AS "count" FROM "block_chain" WHERE "node_position" = $1 AND "consensus_mode" = $2`,
      [position.toString(), mode],
    );
    return { total, partial: BigInt(row?.count ?? 0) };
  }

  /** Sum of transactions over all blocks. */
  async transactionCount(): Promise<bigint> {
    const row = await this.db.one<{ total: string | null }>('SELECT sum("tx") AS "total" FROM "block_chain"');
    return row?.total ? BigInt(row.total) : 0n;
  }
}

function summaryOf(row: BlockRow): BlockSummary {
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

import { Injectable } from '@nestjs/common';
import { ChainEvents } from '../chain/chain-events';
import { ApiError } from '../common/api-error';
import { INT64_MAX } from '../common/dto/validators';
import { ContractsService } from '../contracts/contracts.service';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { readBlockContent, type BlockContent } from '../chain/block-content';
import { BlockEntity } from './entities/block.entity';

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

const BLOCKS = new EntityTable(BlockEntity);
/** What a block's summary reads; the stored block adds its bytes. */
const SUMMARY_MEMBERS = [
  'id',
  'hash',
  'rollbacksHash',
  'ecosystemId',
  'keyId',
  'time',
  'tx',
  'nodePosition',
  'consensusMode',
] as const;
const SUMMARY = BLOCKS.select(...SUMMARY_MEMBERS);
const STORED = BLOCKS.select(...SUMMARY_MEMBERS, 'data');
const TX_COUNT = BLOCKS.select('tx');
const ID = BLOCKS.column('id');
const HASH = BLOCKS.column('hash');

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
    const row = await this.db.one<{ id: string | null }>(`SELECT max(${ID}) AS "id" FROM ${BLOCKS.name}`);
    const height = row?.id ? BigInt(row.id) : 0n;
    if (before === this.changes && this.events.reliable) this.keptHeight = height;
    return height;
  }

  async block(id: bigint): Promise<BlockSummary> {
    const kept = this.events.reliable ? this.keptBlocks.get(id) : undefined;
    if (kept) return kept;
    const before = this.changes;
    const row = await this.db.one<RowOf<typeof SUMMARY>>(
      `SELECT ${SUMMARY} FROM ${BLOCKS.name} WHERE ${ID} = $1`,
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
    const rows = await this.db.query<RowOf<typeof STORED>>(
      `SELECT ${STORED} FROM ${BLOCKS.name} WHERE ${ID} >= $1 AND ${ID} <= $2 ORDER BY ${ID}`,
      [first.toString(), (last < INT64_MAX ? last : INT64_MAX).toString()],
    );
    if (rows.length === 0) throw new ApiError('E_NOTFOUND');
    return rows.map((row) => this.decode(row));
  }

  private decode(row: RowOf<typeof STORED>): StoredBlock {
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
    const [column, value] = 'id' in ref ? [ID, ref.id.toString()] : [HASH, ref.hash];
    const row = await this.db.one<RowOf<typeof STORED>>(
      `SELECT ${STORED} FROM ${BLOCKS.name} WHERE ${column} = $1`,
      [value],
    );
    if (!row) throw new ApiError('E_NOTFOUND');
    return this.decode(row);
  }

  /** Transactions in one block. */
  async blockTransactionCount(ref: BlockRef): Promise<number> {
    const [column, value] = 'id' in ref ? [ID, ref.id.toString()] : [HASH, ref.hash];
    const row = await this.db.one<RowOf<typeof TX_COUNT>>(
      `SELECT ${TX_COUNT} FROM ${BLOCKS.name} WHERE ${column} = $1`,
      [value],
    );
    if (!row) throw new ApiError('E_NOTFOUND');
    return Number(row.tx);
  }

  /** Blocks made by the node at `position` in consensus mode `mode`, and the height. */
  async countByNode(position: bigint, mode: number): Promise<{ total: bigint; partial: bigint }> {
    const total = await this.maxBlockId();
    const row = await this.db.one<{ count: string }>(
      `SELECT count(*) AS "count" FROM ${BLOCKS.name}
        WHERE ${BLOCKS.column('nodePosition')} = $1 AND ${BLOCKS.column('consensusMode')} = $2`,
      [position.toString(), mode],
    );
    return { total, partial: BigInt(row?.count ?? 0) };
  }

  /** Sum of transactions over all blocks. */
  async transactionCount(): Promise<bigint> {
    const row = await this.db.one<{ total: string | null }>(
      `SELECT sum(${BLOCKS.column('tx')}) AS "total" FROM ${BLOCKS.name}`,
    );
    return row?.total ? BigInt(row.total) : 0n;
  }
}

function summaryOf(row: RowOf<typeof SUMMARY>): BlockSummary {
  return {
    id: BigInt(row.id),
    hash: asBuffer(row.hash),
    rollbacksHash: asBuffer(row.rollbacksHash),
    ecosystemId: BigInt(row.ecosystemId),
    keyId: BigInt(row.keyId),
    time: BigInt(row.time),
    txCount: Number(row.tx),
    nodePosition: BigInt(row.nodePosition),
    consensusMode: Number(row.consensusMode),
  };
}

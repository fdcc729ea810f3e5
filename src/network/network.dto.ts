import { ArrayMaxSize, IsArray, IsBase64, IsHexadecimal, IsString, Length, Min } from 'class-validator';
import { Describe } from '../common/dto/dto-fields';
import { IsInt64, IsSafeInt, MinInt64 } from '../common/dto/validators';

/** Blocks one request may ask for: a batch of blocks is also cut short at NodeController's byte bound. */
export const MAX_BLOCKS_PER_REQUEST = 50;
/** Block hashes one request may ask for (fork search reaches back `rollback_blocks`, 60 by default). */
export const MAX_HASHES_PER_REQUEST = 1000;
/** Transactions one request may pass on. */
export const MAX_TXS_PER_REQUEST = 1000;

/** `GET /node/v1/blocks` and `/node/v1/hashes`: a range of blocks. */
export class BlockRangeQuery {
  @IsInt64()
  @MinInt64(1n)
  @Describe('first block id')
  from!: bigint;

  @IsInt64()
  @MinInt64(1n)
  @Describe('how many blocks')
  count!: bigint;
}

/** `POST /node/v1/announce`: a block its producer just committed. */
export class BlockAnnouncementBody {
  @IsString()
  @Length(1, 19)
  @Describe('block id')
  block_id!: string;

  @IsString()
  @IsHexadecimal()
  @Length(64, 64)
  @Describe('block hash, hex')
  hash!: string;

  @IsArray()
  @ArrayMaxSize(100_000)
  @IsHexadecimal({ each: true })
  @Describe('the hex hashes of its transactions')
  txs!: string[];

  @IsSafeInt()
  @Min(0)
  @Describe('when it committed on its producer, ms')
  committed_at_ms!: number;
}

/** `POST /node/v1/txs`: transactions a peer passes on. */
export class PassedTransactionsBody {
  @IsArray()
  @ArrayMaxSize(MAX_TXS_PER_REQUEST)
  @IsBase64(undefined, { each: true })
  @Describe('transactions as stored (type 3, 5 or 6 envelopes), base64')
  txs!: string[];
}

/** `admin.isolatePeers`: tests only. */
export class IsolatePeersParams {
  @IsArray()
  @IsString({ each: true })
  @Describe('API addresses of the peers to cut this node off from; empty: heal')
  peers!: string[];
}

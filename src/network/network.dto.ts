import {
  ArrayMaxSize,
  IsArray,
  IsBase64,
  IsHexadecimal,
  IsString,
  Length,
  Matches,
  Min,
  ValidateBy,
} from 'class-validator';
import { Describe } from '../common/dto/dto-fields';
import { IsInt64, IsSafeInt, MinInt64 } from '../common/dto/validators';

/** Blocks one request may ask for: a batch of blocks is also cut short at NodeController's byte bound. */
export const MAX_BLOCKS_PER_REQUEST = 50;
/** Block hashes one request may ask for (fork search reaches back `rollback_blocks`, 60 by default). */
export const MAX_HASHES_PER_REQUEST = 1000;
/** Votes one request may carry. */
export const MAX_VOTES_PER_REQUEST = 2000;
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

  @IsString()
  @IsHexadecimal()
  @Length(64, 64)
  @Describe("its parent's hash, hex")
  prev_hash!: string;

  @IsString()
  @Matches(/^\d{1,19}$/)
  @Describe('its time, Unix seconds')
  time!: string;

  @IsString()
  @Matches(/^\d{1,19}$/)
  @Describe("its producer's position")
  position!: string;

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

/** `GET /node/v1/votes`: the votes recorded from a height on. */
export class VotesQuery {
  @IsInt64()
  @MinInt64(1n)
  @Describe('first block id')
  from!: bigint;
}

/** One honor node's signed vote: block id, block hash, the voter's node key and its signature (hex r‖s). */
const SIGNED_VOTE = {
  block_id: /^\d{1,19}$/,
  hash: /^[0-9a-fA-F]{64}$/,
  public_key: /^(04)?[0-9a-fA-F]{128}$/,
  signature: /^[0-9a-fA-F]{128}$/,
} as const;

/** Every element an object with exactly the fields of {@link SIGNED_VOTE}, each of its shape. */
const IsSignedVoteList = () =>
  ValidateBy({
    name: 'isSignedVoteList',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.every(
          (vote) =>
            typeof vote === 'object' &&
            vote !== null &&
            Object.entries(SIGNED_VOTE).every(([field, shape]) => {
              const text = (vote as Record<string, unknown>)[field];
              return typeof text === 'string' && shape.test(text);
            }),
        ),
      defaultMessage: () =>
        'votes must be objects of block_id (digits), hash (64 hex), public_key (128 hex) and signature (128 hex)',
    },
  });

/** `POST /node/v1/votes`: an honor node's new votes. */
export class VotesBody {
  @IsArray()
  @ArrayMaxSize(MAX_VOTES_PER_REQUEST)
  @IsSignedVoteList()
  @Describe('the votes: block_id, hash, public_key and signature, hex')
  votes!: { block_id: string; hash: string; public_key: string; signature: string }[];
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

import { IsOptional, ValidateBy } from 'class-validator';
import { isLosslessNumber } from 'lossless-json';
import { schema as s } from '../api-docs/schema';
import { AbsentAsNil, Describe, FromPath } from '../common/dto/dto-fields';
import {
  INT64_MAX,
  INT64_MIN,
  IsInt64,
  IsJsonValue,
  IsLenientInt64,
  handlerRule,
  MinInt64,
  NotNilParams,
  paramsValueInvalid,
} from '../common/dto/validators';
import type { BlockRef } from './blocks.service';

/** `GET block/:id`: a path id that is not a number is block 0, which does not exist (the reference's way). */
export class BlockPath {
  @FromPath()
  @IsLenientInt64()
  @Describe('block id')
  id!: bigint;
}

/** `GET blocks` and `GET detailed_blocks`. */
export class BlocksRangeForm {
  @IsOptional()
  @IsInt64()
  @MinInt64(0n, { message: 'parameter is invalid' })
  @Describe('first block (0 or absent: 1)')
  block_id?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe('how many blocks: 25 by default (also for 0 or less), at most 1000')
  count?: bigint;
}

/** `getBlockInfo blockId`. */
export class BlockIdParams {
  @IsInt64()
  @Describe('block id')
  blockId!: bigint;
}

/**
 * `getBlocksTxInfo blockId count` and `detailedBlocks blockId count`. A first block of 0 or less is refused
 * by the handler, whose text names the value ("params 0 invalid") without the argument's number.
 */
export class BlocksRangeParams {
  @MinInt64(1n, handlerRule(paramsValueInvalid))
  @IsInt64()
  @Describe('first block (> 0)')
  blockId!: bigint;

  @IsInt64()
  @Describe('how many: 0 or less → 25, at most 100')
  count!: bigint;
}

/**
 * A BlockIdOrHash (json-rpc.md §6.3) as the reference's decoder reads it: a 64-character hash, a block id
 * as text, or `{"id": n}` / `{"hash": "…"}`. `problem` is its refusal text when the value has none of these
 * shapes; `ref` is undefined when it has one but names no block (an id ≤ 0, a hash that is not 64 hex).
 */
export function readBlockIdOrHash(raw: unknown): { ref?: BlockRef; problem?: string } {
  let id: bigint | undefined;
  let hash: string | undefined;
  if (typeof raw === 'string') {
    if (raw.length === 64) hash = raw;
    else {
      if (!/^[0-9A-Za-z]+$/.test(raw)) return { problem: 'invalid block id or block hash' };
      if (!/^\d+$/.test(raw)) return { problem: `strconv.ParseInt: parsing "${raw}": invalid syntax` };
      id = BigInt(raw);
      if (id > INT64_MAX) return { problem: `strconv.ParseInt: parsing "${raw}": value out of range` };
    }
  } else if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !isLosslessNumber(raw)) {
    const object = raw as { id?: unknown; hash?: unknown };
    if (object.id !== undefined && object.hash !== undefined && object.hash !== '') {
      return { problem: 'block id or block hash must be only choose one' };
    }
    if (isLosslessNumber(object.id) && /^-?\d+$/.test(object.id.value)) {
      id = BigInt(object.id.value);
      if (id > INT64_MAX || id < INT64_MIN) {
        return {
          problem: `json: cannot unmarshal number ${object.id.value} into Go struct field BlockIdOrHash.id of type int64`,
        };
      }
    }
    if (typeof object.hash === 'string') hash = object.hash;
  } else {
    return { problem: `json: cannot unmarshal ${goKind(raw)} into Go value of type string` };
  }
  if (hash !== undefined && /^[0-9a-fA-F]{64}$/.test(hash))
    return { ref: { hash: Buffer.from(hash, 'hex') } };
  if (id !== undefined && id > 0n) return { ref: { id } };
  return {};
}

/** The JSON kind of a value as Go's decoder names it in its messages. */
function goKind(raw: unknown): string {
  if (raw === null) return 'null';
  if (isLosslessNumber(raw)) return 'number';
  if (typeof raw === 'boolean') return 'bool';
  if (Array.isArray(raw)) return 'array';
  return typeof raw;
}

/** The value has one of BlockIdOrHash's shapes; refused with the reference decoder's text otherwise. */
const IsBlockIdOrHash = () =>
  ValidateBy({
    name: 'isBlockIdOrHash',
    validator: {
      validate: (value) => readBlockIdOrHash(value).problem === undefined,
      defaultMessage: (args) => readBlockIdOrHash(args?.value).problem ?? '',
    },
  });

/** `detailedBlock block` and `getTransactionCount block`. */
export class BlockIdOrHashParams {
  @IsJsonValue()
  @IsBlockIdOrHash()
  @Describe(
    'a block hash (64 hex), a block id as text, or {"id": n} / {"hash": "…"}; absent or null is refused',
    s.oneOf(s.string(), s.object({ id: s.integer() }), s.object({ hash: s.hex() })),
  )
  @AbsentAsNil()
  @NotNilParams()
  block!: unknown;
}

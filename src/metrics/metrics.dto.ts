import { IsIn } from 'class-validator';
import { Describe, FromPath } from '../common/dto/dto-fields';
import {
  IsInt32,
  IsInt64,
  IsLenientInt64,
  handlerRule,
  MinInt64,
  PARAMS_CAN_NOT_BE_EMPTY,
} from '../common/dto/validators';

/** `GET metrics/blockper/:node/:mode`: path numbers read leniently (text that is not a number is 0). */
export class BlockPerPath {
  @FromPath()
  @IsLenientInt64()
  @Describe('node position')
  node!: bigint;

  @FromPath()
  @IsLenientInt64()
  @Describe('consensus mode: 1 or 2')
  mode!: bigint;
}

/** `getBlocksCountByNode nodePosition consensusMode`. */
export class BlocksCountByNodeParams {
  @IsInt64()
  @MinInt64(0n, handlerRule(PARAMS_CAN_NOT_BE_EMPTY))
  @Describe('node position')
  nodePosition!: bigint;

  @IsInt32()
  @IsIn([1, 2], handlerRule(PARAMS_CAN_NOT_BE_EMPTY))
  @Describe('consensus mode: 1 or 2')
  consensusMode!: number;
}

import { Describe, FromPath } from '../common/dto/dto-fields';
import { IsInt32, IsInt64, IsLenientInt64 } from '../common/dto/validators';

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
  @Describe('node position')
  nodePosition!: bigint;

  @IsInt32()
  @Describe('consensus mode: 1 or 2')
  consensusMode!: number;
}

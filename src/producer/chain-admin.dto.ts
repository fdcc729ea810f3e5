import { IsBoolean, IsOptional } from 'class-validator';
import { Describe } from '../common/dto/dto-fields';
import { handlerRule, IsInt64, MaxInt64, MinInt64, paramsValueInvalid } from '../common/dto/validators';

/**
 * `admin.rollbackBlocks count [force]`. A count out of its range (1 to 1,000,000) is refused as a handler
 * refuses it, naming the value ("params 0 invalid") without the argument's number.
 */
export class RollbackBlocksParams {
  @MaxInt64(1_000_000n, handlerRule(paramsValueInvalid))
  @MinInt64(1n, handlerRule(paramsValueInvalid))
  @IsInt64()
  @Describe('how many blocks (1 to 1,000,000)')
  count!: bigint;

  @IsOptional()
  @IsBoolean()
  @Describe('take back final blocks too (refused without it)')
  force?: boolean;
}

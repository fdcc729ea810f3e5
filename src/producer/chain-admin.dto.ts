import { IsBoolean, IsOptional } from 'class-validator';
import { Describe } from '../common/dto/dto-fields';
import { IsInt64 } from '../common/dto/validators';

/**
 * `admin.rollbackBlocks count [force]`. Its range (1 to 1,000,000) is checked by the handler, whose refusal names
 * the value ("params 0 invalid") without the argument's number.
 */
export class RollbackBlocksParams {
  @IsInt64()
  @Describe('how many blocks (1 to 1,000,000)')
  count!: bigint;

  @IsOptional()
  @IsBoolean()
  @Describe('take back final blocks too (refused without it)')
  force?: boolean;
}

import { Describe } from '../../common/dto/dto-fields';
import { IsInt64 } from '../../common/dto/validators';

/**
 * `admin.rollbackBlocks count`. Its range (1 to 1,000,000) is checked by the handler, whose refusal names
 * the value ("params 0 invalid") without the argument's number.
 */
export class RollbackBlocksParams {
  @IsInt64()
  @Describe('how many blocks (1 to 1,000,000)')
  count!: bigint;
}

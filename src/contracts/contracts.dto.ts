import { IsOptional, IsString } from 'class-validator';
import { Describe, FromPath } from '../common/dto/dto-fields';
import { IsInt64, NotEmptyParams } from '../common/dto/validators';

/** `GET contract/:name`. */
export class ContractPath {
  @FromPath()
  @IsString()
  @Describe("contract name: Name (caller's ecosystem), @Name (ecosystem 1) or @<ecosystem>Name")
  name!: string;
}

/**
 * `GET contracts`. An offset below 0 counts as 0, a limit of 0 or less as 25. `limit` is declared first:
 * when both values fail to convert, the refusal names it, as the reference's does.
 */
export class ContractsPageForm {
  @IsOptional()
  @IsInt64()
  @Describe('25 by default, at most 1000')
  limit?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe('rows to skip')
  offset?: bigint;
}

/** `getContractInfo contractName`. */
export class ContractInfoParams {
  @IsString()
  @Describe('Name, @Name or @<ecosystem>Name; empty is refused')
  @NotEmptyParams()
  contractName!: string;
}

/** `getContracts [offset [limit]]`. */
export class ContractsPageParams {
  @IsOptional()
  @IsInt64()
  @Describe('rows to skip')
  offset?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe('25 by default, at most 100')
  limit?: bigint;
}

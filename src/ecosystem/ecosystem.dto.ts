import { IsOptional, IsString } from 'class-validator';
import { Describe, FirstOfRepeated, FromPath } from '../common/dto/dto-fields';
import { IsInt64, IsLenientInt64 } from '../common/dto/validators';

/**
 * `GET ecosystemname`. The id is read leniently, as the reference reads it (`r.FormValue`, the first of
 * repeated values): absent or not a number is ecosystem 0, which has no name (E_PARAMNOTFOUND), rather
 * than a form error.
 */
export class EcosystemNameForm {
  @IsOptional()
  @FirstOfRepeated()
  @IsLenientInt64()
  @Describe('ecosystem id')
  id?: bigint;
}

/** `GET keyinfo/:wallet`. The handler reads the wallet, so that a bad one is E_INVALIDWALLET naming it. */
export class KeyInfoPath {
  @FromPath()
  @IsString()
  @Describe('key id or account address')
  wallet!: string;
}

/** `ecosystemInfo ecosystemId`. */
export class EcosystemInfoParams {
  @IsInt64()
  @Describe('ecosystem id')
  ecosystemId!: bigint;
}

/** `getKeyInfo account`. */
export class KeyInfoParams {
  @IsString()
  @Describe('key id or account address')
  account!: string;
}

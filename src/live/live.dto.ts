import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { schema as s } from '../api-docs/schema';
import { Describe } from '../common/dto/dto-fields';
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from './live.answers';

/** `subscribe [kind, hashes]`. */
export class SubscribeParams {
  @IsString()
  @IsIn(SUBSCRIPTION_KINDS, { message: `kind must be one of ${SUBSCRIPTION_KINDS.join(', ')}` })
  @Describe('newBlocks, txStatus or notifications', { type: 'string', enum: [...SUBSCRIPTION_KINDS] })
  kind!: SubscriptionKind;

  @IsOptional()
  @IsArray({ message: 'hashes must be a list of transaction hashes' })
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(/^[0-9a-fA-F]{64}$/, { each: true, message: 'a transaction hash is 64 hex digits' })
  @Describe('txStatus: the transactions to follow (hex hashes, at most 1000)', s.array(s.hex()))
  hashes?: string[];
}

/** `unsubscribe [id]`. */
export class UnsubscribeParams {
  @IsString()
  @Describe('the id subscribe answered')
  id!: string;
}

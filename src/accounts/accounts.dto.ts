import { IsOptional, IsString, ValidateBy, type ValidationOptions } from 'class-validator';
import { isLosslessNumber } from 'lossless-json';
import { schema as s } from '../api-docs/schema';
import { TextInPath } from '../common/dto/common-fields';
import { Describe, FromPath } from '../common/dto/dto-fields';
import {
  handlerRule,
  INT64_MAX,
  INT64_MIN,
  IsInt64,
  IsJsonValue,
  IsLenientInt64,
  MaxInt64,
  MinInt64,
  ReadsWith,
} from '../common/dto/validators';
import { addressToId, hasValidChecksum } from '../crypto';
import { decodeInteger, member } from '../rpc/rpc-params';
import type { WalletSearch } from './accounts.service';

const WALLET = 'account address, or account id as signed or unsigned decimal';
const ECOSYSTEM = 'ecosystem id; 0 or absent: the session ecosystem';

/** Where the wallet is a path parameter the handler reads, so that a bad one is E_INVALIDWALLET naming it. */
const WalletInPath = () => TextInPath(WALLET);

/** `GET balance/:wallet`. */
export class BalanceForm {
  @WalletInPath()
  wallet!: string;

  @IsOptional()
  @IsInt64()
  @Describe(ECOSYSTEM)
  ecosystem?: bigint;
}

/** `GET member/:ecosystem/:account` and `GET avatar/:ecosystem/:account`. */
export class MemberPath {
  @FromPath()
  @IsLenientInt64()
  @Describe('ecosystem id')
  ecosystem!: bigint;

  @WalletInPath()
  account!: string;
}

const WALLET_SEARCHES: readonly string[] = ['all', 'income', 'outcome'] satisfies WalletSearch[];

/** `income`, `outcome` or `all`, in any case. */
const IsWalletSearch = () =>
  ValidateBy({
    name: 'isWalletSearch',
    validator: {
      validate: (value) => typeof value === 'string' && WALLET_SEARCHES.includes(value.toLowerCase()),
      defaultMessage: () => 'searchType must be income, outcome or all',
    },
  });

/** `GET walletHistory`: 0 for `page` or `limit` means its default. */
export class WalletHistoryForm {
  @IsOptional()
  @IsString()
  @IsWalletSearch()
  @Describe('income, outcome or all (the default), in any case')
  searchType?: string;

  @IsOptional()
  @IsInt64()
  @MinInt64(0n, { message: 'page must be at least 1' })
  @Describe('page number from 1; 0 or absent: 1')
  page?: bigint;

  @IsOptional()
  @IsInt64()
  @MinInt64(0n, { message: 'limit must be between 1 and 500' })
  @MaxInt64(500n, { message: 'limit must be between 1 and 500' })
  @Describe('transfers per page, 1…500; 0 or absent: 20')
  limit?: bigint;
}

/**
 * AccountOrKeyId (json-rpc.md §6.2): the key id of an address or decimal account id sent as a string, or
 * of `{key_id}` / `{account}` (a non-zero key_id wins). Bare numbers are refused, as the reference's clients
 * never send them. Throws with the reference's text.
 */
export function accountOrKeyId(raw: unknown): bigint {
  if (typeof raw === 'string') {
    const keyId = addressToId(raw);
    if (keyId === 0n) throw new Error('invalid key id or account address');
    return keyId;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw)) {
    const kind = isLosslessNumber(raw) ? 'number' : Array.isArray(raw) ? 'array' : typeof raw;
    throw new Error(`json: cannot unmarshal ${kind} into Go value of type string`);
  }
  const object = raw as Record<string, unknown>;
  const keyIdRaw = member(object, 'key_id');
  const keyId =
    keyIdRaw === undefined || keyIdRaw === null ? 0n : decodeInteger(keyIdRaw, 'int64', INT64_MIN, INT64_MAX);
  if (keyId !== 0n) {
    if (!hasValidChecksum(keyId)) throw new Error('invalid key id');
    return keyId;
  }
  const account = member(object, 'account');
  const fromAccount = typeof account === 'string' ? addressToId(account) : 0n;
  if (fromAccount === 0n) throw new Error('invalid Account');
  return fromAccount;
}

/** `getBalance [account] [ecosystem]`; the handler answers a missing account after the ecosystem check. */
export class BalanceParams {
  @IsOptional()
  @IsJsonValue()
  @ReadsWith('isAccountOrKeyId', accountOrKeyId)
  @Describe(
    'the account: an address or decimal account id, or {key_id} / {account} (a non-zero key_id wins)',
    s.oneOf(
      s.string(WALLET),
      s.object({ key_id: s.integer(), account: s.string() }, { optional: ['key_id', 'account'] }),
    ),
  )
  account?: unknown;

  @IsOptional()
  @IsInt64()
  @Describe(ECOSYSTEM)
  ecosystem?: bigint;
}

/** An address or decimal account id whose check digit holds (the reference's `converter.AddressToID` is not 0). */
const IsAccountAddress = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isAccountAddress',
      validator: { validate: (value) => typeof value === 'string' && addressToId(value) !== 0n },
    },
    options,
  );

/** `getMember account ecosystemId`, each refused with the text the reference's handler gives. */
export class MemberParams {
  @IsAccountAddress(
    handlerRule((args) => `account[${typeof args.value === 'string' ? args.value : ''}] address invalid`),
  )
  @IsString()
  @Describe(WALLET)
  account!: string;

  @MinInt64(1n, handlerRule('ecosystem id invalid'))
  @IsInt64()
  @Describe('ecosystem id, from 1')
  ecosystemId!: bigint;
}

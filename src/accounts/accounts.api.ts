import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { isLosslessNumber } from 'lossless-json';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { lenientInt64, walletKeyId } from '../common/http/path-params';
import { Auth, BlockchainRoute, CurrentCaller } from '../common/http/request-gates';
import { RawBody } from '../common/http/responses';
import type { Caller } from '../auth/caller';
import { addressToId, hasValidChecksum, keyIdToAddress } from '../crypto';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { decodeInteger, member as memberOf } from '../rpc/rpc-params';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { AccountsService, type Member, type WalletRecord, type WalletSearch } from './accounts.service';

const WALLET_SEARCHES = new Set<string>(['all', 'income', 'outcome']);

const TOKEN = {
  digits: s.integer('decimal places of the token'),
  token_symbol: s.string(),
  token_name: s.string(),
};
const AMOUNTS = {
  amount: s.string('the account balance in minimal units; "" when the key has no account there'),
  total: s.decimalString('amount + utxo'),
  utxo: s.decimalString('unspent outputs'),
};
const WALLET = 'account address, or account id as signed or unsigned decimal';
const ECOSYSTEM_PATH = { description: 'ecosystem id', schema: s.integer() };

/**
 * AccountOrKeyId (json-rpc.md §6.2): an address or decimal account id as a string, or `{key_id}` /
 * `{account}` (a non-zero key_id wins). Bare numbers are refused, as the reference's clients never send them.
 */
function accountOrKeyId(raw: unknown): bigint {
  if (typeof raw === 'string') {
    const keyId = addressToId(raw);
    if (keyId === 0n) throw new Error('invalid key id or account address');
    return keyId;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw)) {
    throw new Error(
      `json: cannot unmarshal ${isLosslessNumber(raw) ? 'number' : Array.isArray(raw) ? 'array' : typeof raw} into Go value of type string`,
    );
  }
  const object = raw as Record<string, unknown>;
  const keyIdRaw = memberOf(object, 'key_id');
  const keyId =
    keyIdRaw === undefined || keyIdRaw === null
      ? 0n
      : decodeInteger(keyIdRaw, 'int64', -(2n ** 63n), 2n ** 63n - 1n);
  if (keyId !== 0n) {
    if (!hasValidChecksum(keyId)) throw new Error('invalid key id');
    return keyId;
  }
  const account = memberOf(object, 'account');
  const fromAccount = typeof account === 'string' ? addressToId(account) : 0n;
  if (fromAccount === 0n) throw new Error('invalid Account');
  return fromAccount;
}

/** The reference writes members with its Go field names on REST. */
function restMember(member: Member) {
  return {
    ID: member.id,
    MemberName: member.memberName,
    ImageID: member.imageId,
    MemberInfo: member.memberInfo,
  };
}

function walletRecord(record: WalletRecord) {
  return {
    ID: record.id,
    SenderID: record.senderId,
    SenderAdd: keyIdToAddress(record.senderId),
    RecipientID: record.recipientId,
    RecipientAdd: keyIdToAddress(record.recipientId),
    Amount: record.amount,
    Comment: record.comment,
    BlockID: record.blockId,
    TxHash: record.txHash,
    CreatedAt: record.createdAt,
    Money: record.money,
  };
}

@Controller('api/v2')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ecosystems: EcosystemService,
  ) {}

  /** The superset of decisions.md: the interface's `money` beside the reference's members. */
  @ApiRoute({
    summary: 'Balance of an account: account, unspent outputs, their total, and the token',
    path: { wallet: WALLET },
    form: {
      ecosystem: { description: 'ecosystem id; 0 or absent: the session ecosystem', schema: s.integer() },
    },
    answer: s.object({
      amount: AMOUNTS.amount,
      money: s.string('the total in whole tokens'),
      total: AMOUNTS.total,
      utxo: AMOUNTS.utxo,
      ...TOKEN,
    }),
    errors: ['E_INVALIDWALLET', 'E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('balance/:wallet')
  @BlockchainRoute()
  async balance(@Param('wallet') wallet: string, @Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { ecosystem: 'int64' });
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, req.caller.ecosystemId);
    const balance = await this.accounts.balance(walletKeyId(wallet), ecosystem);
    return {
      amount: balance.amount,
      money: balance.money,
      total: balance.total,
      utxo: balance.utxo,
      digits: balance.digits,
      token_symbol: balance.tokenSymbol,
      token_name: balance.tokenName,
    };
  }

  @ApiRoute({
    summary: 'The member of an ecosystem with an account (all zero when there is none)',
    path: { ecosystem: ECOSYSTEM_PATH, account: WALLET },
    answer: s.object({
      ID: s.integer(),
      MemberName: s.string(),
      ImageID: s.nullable(s.integer('the avatar: a binary id')),
      MemberInfo: s.string('JSON text'),
    }),
  })
  @Get('member/:ecosystem/:account')
  async member(@Param('ecosystem') ecosystem: string, @Param('account') account: string) {
    return restMember(await this.accounts.member(lenientInt64(ecosystem), account));
  }

  @ApiRoute({
    summary: "A member's avatar image (bytes, with its content type)",
    path: { ecosystem: ECOSYSTEM_PATH, account: WALLET },
    answer: s.string('the image bytes'),
    errors: ['E_NOTFOUND'],
  })
  @Get('avatar/:ecosystem/:account')
  async avatar(@Param('ecosystem') ecosystem: string, @Param('account') account: string) {
    const image = await this.accounts.avatar(lenientInt64(ecosystem), account);
    return new RawBody(image.data, image.mimeType);
  }

  /**
   * The caller's token transfers in the session's ecosystem, newest first: `searchType` income, outcome
   * or all; `page` from 1; `limit` 1…500 (0 or absent: 20).
   */
  @ApiRoute({
    summary: "The session account's token transfers in its ecosystem, newest first",
    form: {
      searchType: 'income, outcome or all (default)',
      page: { description: 'page number from 1 (default 1)', schema: s.integer() },
      limit: { description: 'transfers per page, 1…500 (default 20)', schema: s.integer() },
    },
    answer: s.array(
      s.object({
        ID: s.integer(),
        SenderID: s.integer(),
        SenderAdd: s.string(),
        RecipientID: s.integer(),
        RecipientAdd: s.string(),
        Amount: s.decimalString('minimal units'),
        Comment: s.string(),
        BlockID: s.integer(),
        TxHash: s.hex(),
        CreatedAt: s.integer('Unix seconds'),
        Money: s.string('the amount in whole tokens'),
      }),
    ),
    errors: ['E_SERVER'],
  })
  @Get('walletHistory')
  @Auth()
  @BlockchainRoute()
  async walletHistory(@Req() req: ApiRequest, @CurrentCaller() caller: Caller) {
    const form = parseForm(FormValues.of(req), { searchType: 'string', page: 'int64', limit: 'int64' });
    const search = (form.searchType ?? 'all').toLowerCase();
    if (!WALLET_SEARCHES.has(search)) throw ApiError.server('searchType must be income, outcome or all');
    const page = form.page === undefined || form.page === 0n ? 1n : form.page;
    if (page < 1n) throw ApiError.server('page must be at least 1');
    const limit = form.limit === undefined || form.limit === 0n ? 20n : form.limit;
    if (limit < 1n || limit > 500n) throw ApiError.server('limit must be between 1 and 500');
    const records = await this.accounts.walletHistory(
      caller.ecosystemId,
      caller.keyId,
      search as WalletSearch,
      page,
      limit,
    );
    return records.map(walletRecord);
  }
}

@Injectable()
export class AccountsRpc {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ecosystems: EcosystemService,
  ) {}

  @RpcMethod('getBalance', {
    summary: 'Balance of an account: account, unspent outputs, their total, and the token',
    result: s.object({
      amount: AMOUNTS.amount,
      digits: TOKEN.digits,
      total: AMOUNTS.total,
      utxo: AMOUNTS.utxo,
      token_symbol: TOKEN.token_symbol,
      token_name: TOKEN.token_name,
    }),
    params: [
      {
        name: 'account',
        type: accountOrKeyId,
        optional: true,
        schema: s.oneOf(
          s.string(WALLET),
          s.object({ key_id: s.integer(), account: s.string() }, { optional: ['key_id', 'account'] }),
        ),
      },
      { name: 'ecosystem', type: 'int64', optional: true },
    ],
  })
  async getBalance([keyId, requested]: [bigint?, bigint?], { caller }: RpcCallContext) {
    let ecosystem: bigint;
    try {
      ecosystem = await this.ecosystems.resolve(requested, caller.ecosystemId);
    } catch (error) {
      // The reference reports this one as a bad parameter here (-32010), unlike the parameter reads.
      if (error instanceof ApiError) throw RpcError.invalidParams(error.rpcMessage);
      throw error;
    }
    if (keyId === undefined) throw RpcError.invalidParams('params can not be empty');
    const balance = await this.accounts.balance(keyId, ecosystem);
    return {
      amount: balance.amount,
      digits: balance.digits,
      total: balance.total,
      utxo: balance.utxo,
      token_symbol: balance.tokenSymbol,
      token_name: balance.tokenName,
    };
  }

  @RpcMethod('getMember', {
    summary: 'The member of an ecosystem with an account (all zero when there is none)',
    result: s.object({
      id: s.integer(),
      member_name: s.string(),
      image_id: s.nullable(s.integer()),
      member_info: s.string('JSON text'),
    }),
    params: [
      { name: 'account', type: 'string' },
      { name: 'ecosystemId', type: 'int64' },
    ],
  })
  async getMember([account, ecosystem]: [string, bigint]) {
    if (addressToId(account) === 0n) throw RpcError.invalidParams(`account[${account}] address invalid`);
    if (ecosystem <= 0n) throw RpcError.invalidParams('ecosystem id invalid');
    const member = await this.accounts.member(ecosystem, account);
    return {
      id: member.id,
      member_name: member.memberName,
      image_id: member.imageId,
      member_info: member.memberInfo,
    };
  }
}

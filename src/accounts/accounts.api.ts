import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { ApiError } from '../common/api-error';
import { PARAMS_CAN_NOT_BE_EMPTY } from '../common/dto/validators';
import { Form } from '../http/form';
import { walletKeyId } from '../http/path-params';
import { Auth, BlockchainRoute, CurrentCaller } from '../http/request-gates';
import { RawBody } from '../http/responses';
import type { Caller } from '../common/caller';
import { keyIdToAddress } from '../crypto';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import {
  accountOrKeyId,
  BalanceForm,
  BalanceParams,
  MemberParams,
  MemberPath,
  WalletHistoryForm,
} from './accounts.dto';
import { AccountsService, type Member, type WalletRecord, type WalletSearch } from './accounts.service';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getBalance: 'Balance of an account: account, unspent outputs, their total, and the token',
  getMember: 'The member of an ecosystem with an account (all zero when there is none)',
} as const;

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
    summary: SUMMARY.getBalance,
    description:
      "Reads the key's `amount` in `1_keys`, its unspent outputs in `spent_info` and the token in " +
      '`1_ecosystems`; amounts are decimal strings in minimal units, `money` the total in whole tokens ' +
      '(`digits` places), and `amount` is "" when the key has no account in the ecosystem. The wallet is an ' +
      'address or a signed or unsigned decimal account id with a valid check digit, else E_INVALIDWALLET; ' +
      "`ecosystem` 0 or absent means the session's (1 when anonymous), one that does not exist is " +
      'E_ECOSYSTEM, one that is not an integer E_SERVER. Not served on CLB nodes. JSON-RPC: `ibax.getBalance` ' +
      '(without `money`).',
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
  async balance(@Form() form: BalanceForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    const balance = await this.accounts.balance(walletKeyId(form.wallet), ecosystem);
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
    summary: SUMMARY.getMember,
    description:
      'Reads `1_members` and answers with the Go field names the reference uses; `MemberInfo` is the ' +
      'member_info JSON as text. The account is an address or a decimal account id (looked up by its ' +
      'address); the ecosystem is read leniently (not a number: 0). No member is not an error: 200 with ID 0, ' +
      'empty texts and ImageID null. JSON-RPC: `ibax.getMember` (snake_case members).',
    answer: s.object({
      ID: s.integer(),
      MemberName: s.string(),
      ImageID: s.nullable(s.integer('the avatar: a binary id')),
      MemberInfo: s.string('JSON text'),
    }),
  })
  @Get('member/:ecosystem/:account')
  async member(@Form() { ecosystem, account }: MemberPath) {
    return restMember(await this.accounts.member(ecosystem, account));
  }

  @ApiRoute({
    summary: "A member's avatar image (bytes, with its content type)",
    description:
      "The raw bytes of the `1_binaries` row the member's `image_id` names, with its stored content type " +
      '(application/octet-stream when it has none). No such member, or no image: 404 E_NOTFOUND "Record not ' +
      'found"; an image row that is missing or empty: 404 E_NOTFOUND "Page not found". No session needed.',
    answer: s.string('the image bytes'),
    errors: ['E_NOTFOUND'],
  })
  @Get('avatar/:ecosystem/:account')
  async avatar(@Form() { ecosystem, account }: MemberPath) {
    const image = await this.accounts.avatar(ecosystem, account);
    return new RawBody(image.data, image.mimeType);
  }

  /**
   * The caller's token transfers in the session's ecosystem, newest first: `searchType` income, outcome
   * or all; `page` from 1; `limit` 1…500 (0 or absent: 20).
   */
  @ApiRoute({
    summary: "The session account's token transfers in its ecosystem, newest first",
    description:
      'Rows of `1_history` in the session ecosystem that the session key received (`searchType` income), sent ' +
      '(outcome) or both (all, the default); `page` from 1 and `limit` 1…500 (0 or absent: 1 and 20). ' +
      '`Amount` is in minimal units, `Money` in whole tokens, `TxHash` hex, `CreatedAt` Unix seconds. Another ' +
      '`searchType`, a negative `page` or `limit`, or a `limit` above 500 is E_SERVER; not served on CLB nodes.',
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
  async walletHistory(@Form() form: WalletHistoryForm, @CurrentCaller() caller: Caller) {
    const records = await this.accounts.walletHistory(
      caller.ecosystemId,
      caller.keyId,
      (form.searchType ?? 'all').toLowerCase() as WalletSearch,
      // 0 (or absent) is the first page, and 20 transfers.
      form.page || 1n,
      form.limit || 20n,
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
    summary: SUMMARY.getBalance,
    description:
      '`account` is an address or decimal account id as a string, or `{key_id}` / `{account}` (a bare number ' +
      "is refused); `ecosystem` 0 or absent means the caller's (1 when anonymous). An ecosystem that does not " +
      "exist and a missing account are invalid params (`ecosystem N doesn't exist`, `params can not be " +
      'empty`). Amounts are decimal strings in minimal units; `amount` is "" when the key has no account there.',
    result: s.object({
      amount: AMOUNTS.amount,
      digits: TOKEN.digits,
      total: AMOUNTS.total,
      utxo: AMOUNTS.utxo,
      token_symbol: TOKEN.token_symbol,
      token_name: TOKEN.token_name,
    }),
  })
  async getBalance({ account, ecosystem: requested }: BalanceParams, { caller }: RpcCallContext) {
    let ecosystem: bigint;
    try {
      ecosystem = await this.ecosystems.resolve(requested, caller.ecosystemId);
    } catch (error) {
      // The reference reports this one as a bad parameter here (-32010), unlike the parameter reads.
      if (error instanceof ApiError) throw RpcError.invalidParams(error.rpcMessage);
      throw error;
    }
    // The one input rule left in a handler: the reference refuses a missing account only after it found
    // the ecosystem, a database lookup no DTO can run, so the check follows it here.
    if (account === undefined) throw RpcError.invalidParams(PARAMS_CAN_NOT_BE_EMPTY);
    const balance = await this.accounts.balance(accountOrKeyId(account), ecosystem);
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
    summary: SUMMARY.getMember,
    description:
      '`account` must be a valid address or decimal account id and `ecosystemId` at least 1, else invalid ' +
      "params; the member is looked up by the account's address. No member: id 0, empty texts, image_id null.",
    result: s.object({
      id: s.integer(),
      member_name: s.string(),
      image_id: s.nullable(s.integer()),
      member_info: s.string('JSON text'),
    }),
  })
  async getMember({ account, ecosystemId: ecosystem }: MemberParams) {
    const member = await this.accounts.member(ecosystem, account);
    return {
      id: member.id,
      member_name: member.memberName,
      image_id: member.imageId,
      member_info: member.memberInfo,
    };
  }
}

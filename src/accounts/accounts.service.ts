import { ChainEvents } from '../chain/chain-events';
import { ChainMemo } from '../chain/chain-memo';
import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ApiError } from '../common/api-error';
import { addressToId, keyIdToAddress } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BinaryEntity } from '../binaries/entities/binary.entity';
import { EcosystemEntity } from '../ecosystem/entities';
import { HistoryEntity } from './entities/history.entity';
import { KeyEntity } from './entities/key.entity';
import { MemberEntity } from './entities/member.entity';
import { SpentInfoEntity } from './entities/spent-info.entity';

export interface Balance {
  /** The account's `amount` column in minimal units; "" when the key has no row in the ecosystem. */
  amount: string;
  /** amount + utxo, in the ecosystem's whole tokens (`digits` decimal places). */
  money: string;
  total: string;
  utxo: string;
  digits: number;
  tokenSymbol: string;
  tokenName: string;
}

export interface Member {
  id: bigint;
  memberName: string;
  imageId: bigint | null;
  /** The jsonb column as PostgreSQL prints it; "" for a member that does not exist. */
  memberInfo: string;
}

export interface Image {
  data: Buffer;
  mimeType: string;
}

export type WalletSearch = 'all' | 'income' | 'outcome';

export interface WalletRecord {
  id: bigint;
  senderId: bigint;
  recipientId: bigint;
  amount: string;
  money: string;
  comment: string;
  blockId: bigint;
  txHash: string;
  createdAt: bigint;
}

/** The part of a wallet's history a search asks for: fixed SQL, never built from the request. */
const KEYS = new EntityTable(KeyEntity);
const UTXOS = new EntityTable(SpentInfoEntity);
const ECOSYSTEMS = new EntityTable(EcosystemEntity);
const MEMBERS = new EntityTable(MemberEntity);
const BINARIES = new EntityTable(BinaryEntity);
const HISTORY = new EntityTable(HistoryEntity);

/** A key's amount and unspent outputs in an ecosystem ($1 the key, $2 the ecosystem), and the token's terms. */
const BALANCE = `SELECT
    (SELECT ${KEYS.column('amount')} FROM ${KEYS.name}
      WHERE ${KEYS.column('id')} = $1 AND ${KEYS.column('ecosystem')} = $2) AS "amount",
    (SELECT coalesce(sum(${UTXOS.column('outputValue')}), 0)::text FROM ${UTXOS.name}
      WHERE ${UTXOS.column('inputTxHash')} IS NULL AND ${UTXOS.column('outputKeyId')} = $1
        AND ${UTXOS.column('ecosystem')} = $2) AS "utxo",
    ${ECOSYSTEMS.selectIn('e', 'digits', 'tokenSymbol', 'tokenName')}
  FROM (SELECT 1) AS "one" LEFT JOIN ${ECOSYSTEMS.name} "e" ON ${ECOSYSTEMS.column('id', 'e')} = $2`;
/** The ecosystem's columns are null when it does not exist (the left join found no row). */
type BalanceRow = { amount: string | null; utxo: string } & {
  [K in 'digits' | 'tokenSymbol' | 'tokenName']: EcosystemEntity[K] | null;
};

const MEMBER_COLUMNS = MEMBERS.select('id', 'memberName', 'imageId');
/** With the member's info as the wire gives it: the jsonb as PostgreSQL prints it. */
const MEMBER = `${MEMBER_COLUMNS}, ${MEMBERS.column('memberInfo')}::text AS "memberInfo"`;
type MemberRow = RowOf<typeof MEMBER_COLUMNS> & { memberInfo: string };
const IMAGE = BINARIES.select('data', 'mimeType');

const TRANSFER = `${HISTORY.selectIn('h', 'id', 'senderId', 'recipientId', 'amount', 'comment', 'blockId', 'txhash', 'createdAt')},
  ${ECOSYSTEMS.column('digits', 'e')}`;
type TransferRow = Pick<
  HistoryEntity,
  'id' | 'senderId' | 'recipientId' | 'amount' | 'comment' | 'blockId' | 'txhash' | 'createdAt'
> &
  Pick<EcosystemEntity, 'digits'>;
const SENDER = HISTORY.column('senderId', 'h');
const RECIPIENT = HISTORY.column('recipientId', 'h');
const WALLET_SEARCH: Record<WalletSearch, string> = {
  all: `(${SENDER} = $2 OR ${RECIPIENT} = $2)`,
  income: `${RECIPIENT} = $2`,
  outcome: `${SENDER} = $2`,
};

const NO_MEMBER: Member = { id: 0n, memberName: '', imageId: null, memberInfo: '' };

/** Minimal units → whole tokens, printed plainly (no exponent, no trailing zeros). */
function inTokens(units: Decimal, digits: number): string {
  return units.div(new Decimal(10).pow(digits)).toFixed();
}

/**
 * The member's account text for a lookup: an account id (signed or unsigned decimal) or address becomes
 * its address; anything else is looked up as given and simply finds nothing.
 */
export function memberAccount(text: string): string {
  const keyId = addressToId(text);
  return keyId === 0n ? text : keyIdToAddress(keyId);
}

/** What a client reads about accounts: balances, members and their avatars, the transfer history. */
@Injectable()
export class AccountsService {
  /** Balances (accounts, outputs and tokens change only with blocks), kept until the chain changes. */
  private readonly balances: ChainMemo<Balance>;

  constructor(
    private readonly db: DatabaseService,
    events: ChainEvents,
  ) {
    this.balances = new ChainMemo(events);
  }

  /** A key's account balance, unspent outputs and their sum in an ecosystem, with the token's description. */
  balance(keyId: bigint, ecosystem: bigint): Promise<Balance> {
    return this.balances.get(`${keyId}:${ecosystem}`, () => this.balanceNow(keyId, ecosystem));
  }

  private async balanceNow(keyId: bigint, ecosystem: bigint): Promise<Balance> {
    const row = await this.db.one<BalanceRow>(BALANCE, [keyId.toString(), ecosystem.toString()]);
    const amount = row?.amount ?? '';
    const utxo = new Decimal(row?.utxo ?? '0');
    const total = utxo.plus(new Decimal(amount || '0'));
    const digits = Number(row?.digits ?? 0);
    return {
      amount,
      money: inTokens(total, digits),
      total: total.toFixed(),
      utxo: utxo.toFixed(),
      digits,
      tokenSymbol: row?.tokenSymbol ?? '',
      tokenName: row?.tokenName ?? '',
    };
  }

  /** The member row of an account in an ecosystem; an all-zero member when there is none (reference). */
  async member(ecosystem: bigint, account: string): Promise<Member> {
    if (account.includes('\0')) return NO_MEMBER;
    const row = await this.db.one<MemberRow>(
      `SELECT ${MEMBER} FROM ${MEMBERS.name} WHERE ${MEMBERS.column('ecosystem')} = $1 AND ${MEMBERS.column('account')} = $2`,
      [ecosystem.toString(), memberAccount(account)],
    );
    if (!row) return NO_MEMBER;
    return {
      id: BigInt(row.id),
      memberName: row.memberName,
      imageId: row.imageId === null ? null : BigInt(row.imageId),
      memberInfo: row.memberInfo,
    };
  }

  /** The member's avatar: the binary its `image_id` names. */
  async avatar(ecosystem: bigint, account: string): Promise<Image> {
    const member = await this.member(ecosystem, account);
    if (member.id === 0n || member.imageId === null) {
      throw new ApiError('E_NOTFOUND').withMessage('Record not found');
    }
    const binary = await this.db.one<RowOf<typeof IMAGE>>(
      `SELECT ${IMAGE} FROM ${BINARIES.name} WHERE ${BINARIES.column('id')} = $1`,
      [member.imageId.toString()],
    );
    const data = binary ? asBuffer(binary.data) : Buffer.alloc(0);
    if (data.length === 0) throw new ApiError('E_NOTFOUND');
    return { data, mimeType: binary!.mimeType || 'application/octet-stream' };
  }

  /** Token transfers of a key in an ecosystem, newest first: received, sent, or both. */
  async walletHistory(
    ecosystem: bigint,
    keyId: bigint,
    search: WalletSearch,
    page: bigint,
    limit: bigint,
  ): Promise<WalletRecord[]> {
    const offset = (page - 1n) * limit;
    // Beyond the largest OFFSET PostgreSQL takes there are no rows anyway.
    if (offset > 2n ** 63n - 1n) return [];
    const rows = await this.db.query<TransferRow>(
      `SELECT ${TRANSFER}
         FROM ${HISTORY.name} "h" JOIN ${ECOSYSTEMS.name} "e" ON ${ECOSYSTEMS.column('id', 'e')} = ${HISTORY.column('ecosystem', 'h')}
        WHERE ${HISTORY.column('ecosystem', 'h')} = $1 AND ${WALLET_SEARCH[search]}
        ORDER BY ${HISTORY.column('id', 'h')} DESC OFFSET $3 LIMIT $4`,
      [ecosystem.toString(), keyId.toString(), offset.toString(), limit.toString()],
    );
    return rows.map((row) => ({
      id: BigInt(row.id),
      senderId: BigInt(row.senderId),
      recipientId: BigInt(row.recipientId),
      amount: row.amount,
      money: inTokens(new Decimal(row.amount), Number(row.digits)),
      comment: row.comment,
      blockId: BigInt(row.blockId),
      txHash: asBuffer(row.txhash).toString('hex'),
      createdAt: BigInt(row.createdAt),
    }));
  }
}

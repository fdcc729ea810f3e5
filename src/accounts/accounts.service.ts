import { ChainEvents } from '../chain/chain-events';
import { ChainMemo } from '../chain/chain-memo';
import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ApiError } from '../common/api-error';
import { addressToId, keyIdToAddress } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';

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
const WALLET_SEARCH: Record<WalletSearch, string> = {
  all: '(h."sender_id" = $2 OR h."recipient_id" = $2)',
  income: 'h."recipient_id" = $2',
  outcome: 'h."sender_id" = $2',
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
    const row = await this.db.one<{
      amount: string | null;
      utxo: string;
      digits: string | null;
      token_symbol: string | null;
      token_name: string | null;
    }>(
      `SELECT (SELECT "amount"::text FROM "1_keys" WHERE "id" = $1 AND "ecosystem" = $2) AS "amount",
              (SELECT coalesce(sum("output_value"), 0)::text FROM "spent_info"
                WHERE "input_tx_hash" IS NULL AND "output_key_id" = $1 AND "ecosystem" = $2) AS "utxo",
              e."digits"::text AS "digits", e."token_symbol", e."token_name"
         FROM (SELECT 1) AS "one" LEFT JOIN "1_ecosystems" e ON e."id" = $2`,
      [keyId.toString(), ecosystem.toString()],
    );
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
      tokenSymbol: row?.token_symbol ?? '',
      tokenName: row?.token_name ?? '',
    };
  }

  /** The member row of an account in an ecosystem; an all-zero member when there is none (reference). */
  async member(ecosystem: bigint, account: string): Promise<Member> {
    if (account.includes('\0')) return NO_MEMBER;
    const row = await this.db.one<{ id: string; member_name: string; image_id: string | null; info: string }>(
      `SELECT "id"::text AS "id", "member_name", "image_id"::text AS "image_id", "member_info"::text AS "info"
         FROM "1_members" WHERE "ecosystem" = $1 AND "account" = $2`,
      [ecosystem.toString(), memberAccount(account)],
    );
    if (!row) return NO_MEMBER;
    return {
      id: BigInt(row.id),
      memberName: row.member_name,
      imageId: row.image_id === null ? null : BigInt(row.image_id),
      memberInfo: row.info,
    };
  }

  /** The member's avatar: the binary its `image_id` names. */
  async avatar(ecosystem: bigint, account: string): Promise<Image> {
    const member = await this.member(ecosystem, account);
    if (member.id === 0n || member.imageId === null) {
      throw new ApiError('E_NOTFOUND').withMessage('Record not found');
    }
    const binary = await this.db.one<{ data: unknown; mime_type: string }>(
      'SELECT "data", "mime_type" FROM "1_binaries" WHERE "id" = $1',
      [member.imageId.toString()],
    );
    const data = binary ? asBuffer(binary.data) : Buffer.alloc(0);
    if (data.length === 0) throw new ApiError('E_NOTFOUND');
    return { data, mimeType: binary!.mime_type || 'application/octet-stream' };
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
    const rows = await this.db.query<{
      id: string;
      sender_id: string;
      recipient_id: string;
      amount: string;
      comment: string;
      block_id: string;
      txhash: unknown;
      created_at: string;
      digits: string;
    }>(
      `SELECT h."id"::text AS "id", h."sender_id"::text AS "sender_id", h."recipient_id"::text AS "recipient_id",
              h."amount"::text AS "amount", h."comment", h."block_id"::text AS "block_id", h."txhash",
              h."created_at"::text AS "created_at", e."digits"::text AS "digits"
         FROM "1_history" h JOIN "1_ecosystems" e ON e."id" = h."ecosystem"
        WHERE h."ecosystem" = $1 AND ${WALLET_SEARCH[search]}
        ORDER BY h."id" DESC OFFSET $3 LIMIT $4`,
      [ecosystem.toString(), keyId.toString(), offset.toString(), limit.toString()],
    );
    return rows.map((row) => ({
      id: BigInt(row.id),
      senderId: BigInt(row.sender_id),
      recipientId: BigInt(row.recipient_id),
      amount: row.amount,
      money: inTokens(new Decimal(row.amount), Number(row.digits)),
      comment: row.comment,
      blockId: BigInt(row.block_id),
      txHash: asBuffer(row.txhash).toString('hex'),
      createdAt: BigInt(row.created_at),
    }));
  }
}

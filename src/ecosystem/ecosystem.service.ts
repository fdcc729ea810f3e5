import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ApiError } from '../common/api-error';
import { jsonObject } from '../common/json-object';
import { PLATFORM_TOTAL_AMOUNT } from '../genesis/first-ecosystem';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NotifyService } from '../notify/notify.service';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { KeyEntity } from '../accounts/entities/key.entity';
import { ParameterEntity } from '../params/entities/parameter.entity';
import type { EcosystemInfo, KeyInfoEcosystem, KeyInfoRole } from './ecosystem.answers';
import { EcosystemEntity, RoleParticipantEntity } from './entities';

export interface KeyInfo {
  account: string;
  keyId: bigint;
  ecosystems: KeyInfoEcosystem[];
}

const ECOSYSTEMS = new EntityTable(EcosystemEntity);
const KEYS = new EntityTable(KeyEntity);
const PARAMETERS = new EntityTable(ParameterEntity);
const PARTICIPANTS = new EntityTable(RoleParticipantEntity);
const PARAMETER_VALUE = PARAMETERS.select('value');
/** A row when the ecosystem $1 exists: the check behind E_ECOSYSTEM, here, at login and in table names. */
export const ECOSYSTEM_EXISTS = `SELECT 1 FROM ${ECOSYSTEMS.name} WHERE ${ECOSYSTEMS.column('id')} = $1`;
const ROLE = PARTICIPANTS.select('role');
/** A key's registrations with their ecosystems' names and digits (k: the key's row, e: its ecosystem's). */
const KEY_IN_ECOSYSTEMS = `SELECT ${KEYS.column('ecosystem', 'k')}, ${KEYS.column('account', 'k')},
    ${ECOSYSTEMS.column('name', 'e')}, ${ECOSYSTEMS.column('digits', 'e')}
  FROM ${KEYS.name} "k" JOIN ${ECOSYSTEMS.name} "e" ON ${ECOSYSTEMS.column('id', 'e')} = ${KEYS.column('ecosystem', 'k')}
  WHERE ${KEYS.column('id', 'k')} = $1 ORDER BY ${KEYS.column('ecosystem', 'k')}`;
type KeyInEcosystem = Pick<KeyEntity, 'ecosystem' | 'account'> & Pick<EcosystemEntity, 'name' | 'digits'>;

@Injectable()
export class EcosystemService {
  constructor(
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly notify: NotifyService,
    // Low-rate reads go through the entity's repository; the rest stays SQL (docs/architecture.md, Storage).
    @InjectRepository(EcosystemEntity) private readonly ecosystems: Repository<EcosystemEntity>,
  ) {}

  async count(): Promise<bigint> {
    return BigInt(await this.ecosystems.count());
  }

  /** Accounts registered in ecosystem 1. */
  async keysCount(): Promise<bigint> {
    const row = await this.db.one<{ count: string }>(
      `SELECT count(*) AS "count" FROM ${KEYS.name} WHERE ${KEYS.column('ecosystem')} = 1`,
    );
    return BigInt(row?.count ?? 0);
  }

  /**
   * The ecosystem a read names with its `ecosystem` value (rest-api.md §2.5): 0, negative or absent means
   * the caller's own; any other must exist (stricter than the reference, which only compares with the
   * highest id), else E_ECOSYSTEM.
   */
  async resolve(requested: bigint | undefined, callerEcosystem: bigint): Promise<bigint> {
    if (requested === undefined || requested <= 0n) return callerEcosystem;
    const row = await this.db.one(ECOSYSTEM_EXISTS, [requested.toString()]);
    if (!row) throw new ApiError('E_ECOSYSTEM', requested);
    return requested;
  }

  async name(id: bigint): Promise<string> {
    const row = await this.ecosystems.findOne({ select: { name: true }, where: { id: id.toString() } });
    if (!row) throw new ApiError('E_PARAMNOTFOUND', 'name');
    return row.name;
  }

  async info(id: bigint): Promise<EcosystemInfo> {
    const row = await this.ecosystems.findOne({
      select: {
        id: true,
        name: true,
        digits: true,
        tokenSymbol: true,
        tokenName: true,
        info: true,
        emissionAmount: true,
        typeEmission: true,
        typeWithdraw: true,
      },
      where: { id: id.toString() },
    });
    const founder = await this.db.one<RowOf<typeof PARAMETER_VALUE>>(
      `SELECT ${PARAMETER_VALUE} FROM ${PARAMETERS.name}
        WHERE ${PARAMETERS.column('ecosystem')} = $1 AND ${PARAMETERS.column('name')} = 'founder_account'`,
      [id.toString()],
    );
    if (!row || !founder || !/^-?\d+$/.test(founder.value.trim())) throw new ApiError('E_NOTFOUND');
    const info = jsonObject(row.info);
    const sums = sumEmissions(row.emissionAmount);
    return {
      id: BigInt(row.id),
      name: row.name,
      digits: Number(row.digits),
      token_symbol: row.tokenSymbol,
      token_name: row.tokenName,
      total_amount: id === 1n ? PLATFORM_TOTAL_AMOUNT : sums.issue,
      is_withdraw: row.typeWithdraw === '1',
      withdraw: sums.burn,
      is_emission: row.typeEmission === '1',
      emission: sums.emission,
      introduction: typeof info.description === 'string' ? info.description : '',
      logo: /^\d+$/.test(String(info.logo ?? '')) ? BigInt(String(info.logo)) : 0n,
      creator: this.crypto.address(BigInt(founder.value.trim())),
    };
  }

  /** The ecosystems in which a key is registered, with its roles and open notification counts there. */
  async keyInfo(keyId: bigint): Promise<KeyInfo> {
    const rows = await this.db.query<KeyInEcosystem>(KEY_IN_ECOSYSTEMS, [keyId.toString()]);
    if (rows.length === 0) {
      const [first] = await this.ecosystems.find({
        select: { id: true, name: true },
        order: { id: 'ASC' },
        take: 1,
      });
      return {
        account: this.crypto.address(keyId),
        keyId,
        ecosystems: [
          {
            ecosystem: first?.id ?? '1',
            name: first?.name ?? '',
            digits: 0,
            notifications: [{ role_id: '', count: 0 }],
          },
        ],
      };
    }
    const account = rows[0].account.trim();
    const ecosystems: KeyInfoEcosystem[] = [];
    for (const row of rows) {
      const roles = await this.roles(BigInt(row.ecosystem), row.account.trim());
      const entry: KeyInfoEcosystem = {
        ecosystem: row.ecosystem,
        name: row.name,
        digits: Number(row.digits),
      };
      if (roles.length > 0) entry.roles = roles;
      entry.notifications = await this.notify.openCounts(
        BigInt(row.ecosystem),
        row.account.trim(),
        roles.map((role) => role.id),
      );
      ecosystems.push(entry);
    }
    return { account, keyId, ecosystems };
  }

  /** Active roles of an account in an ecosystem. */
  async roles(ecosystem: bigint, account: string): Promise<KeyInfoRole[]> {
    const rows = await this.db.query<RowOf<typeof ROLE>>(
      `SELECT ${ROLE} FROM ${PARTICIPANTS.name}
        WHERE ${PARTICIPANTS.column('ecosystem')} = $1 AND ${PARTICIPANTS.column('member')}->>'account' = $2
          AND ${PARTICIPANTS.column('deleted')} = 0
        ORDER BY ${PARTICIPANTS.column('id')}`,
      [ecosystem.toString(), account],
    );
    return rows.map(({ role }) => {
      const value = jsonObject(role);
      return { id: String(value.id ?? ''), name: String(value.name ?? '') };
    });
  }
}

function sumEmissions(list: unknown): { issue: string; emission: string; burn: string } {
  const totals = { issue: new Decimal(0), emission: new Decimal(0), burn: new Decimal(0) };
  const entries = typeof list === 'string' ? safeParse(list) : list;
  if (Array.isArray(entries)) {
    for (const entry of entries as Record<string, unknown>[]) {
      const type = String(entry?.type ?? '') as keyof typeof totals;
      if (!(type in totals)) continue;
      try {
        totals[type] = totals[type].plus(new Decimal(String(entry.val ?? '0')));
      } catch {
        // an entry that is not a number adds nothing
      }
    }
  }
  return { issue: totals.issue.toFixed(), emission: totals.emission.toFixed(), burn: totals.burn.toFixed() };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

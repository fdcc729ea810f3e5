import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { ApiError } from '../common/api-error';
import { formatGoDuration } from '../common/go-duration';
import { APP_CONFIG, type AppConfig } from '../config';
import { CryptoError, parsePublicKey, stringToAddress, utf8 } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { KeyEntity } from '../accounts/entities/key.entity';
import { RoleParticipantEntity } from '../ecosystem/entities';
import { ECOSYSTEM_EXISTS } from '../ecosystem/ecosystem.service';
import { ParameterEntity } from '../params/entities/parameter.entity';
import { NotifyService } from '../notify/notify.service';
import { KeyRegistration } from '../tx/key-registration';
import type { Caller } from '../common/caller';
import { TokenService } from '../common/token.service';
import type { AuthStatus, GetUidAnswer, LoginResult } from './auth.answers';
import type { LoginInput } from './auth.dto';

/** A getuid token lives five seconds; a session lasts `expire` seconds, 8 hours by default. */
export const UID_TOKEN_LIFETIME = 5;
export const DEFAULT_SESSION_LIFETIME = 28_800;
const MAX_SESSION_LIFETIME = 10 * 365 * 24 * 3600;

// Auth owns no table: a login reads the key (accounts/), its ecosystem and roles (ecosystem/) and the
// ecosystem's parameters (params/), each through its owner's entity.
const KEYS = new EntityTable(KeyEntity);
const PARAMETERS = new EntityTable(ParameterEntity);
const PARTICIPANTS = new EntityTable(RoleParticipantEntity);
const KEY = KEYS.select('pub', 'deleted', 'account');
const KEY_BY_ID = `SELECT ${KEY} FROM ${KEYS.name} WHERE ${KEYS.column('id')} = $1 AND ${KEYS.column('ecosystem')} = $2`;
const PARAMETER_VALUE = PARAMETERS.select('value');
/** An account's active memberships in an ecosystem. */
const MEMBERSHIPS = `${PARTICIPANTS.name}
  WHERE ${PARTICIPANTS.column('ecosystem')} = $1 AND ${PARTICIPANTS.column('member')}->>'account' = $2
    AND ${PARTICIPANTS.column('deleted')} = 0`;
const ROLE = PARTICIPANTS.column('role');

@Injectable()
export class AuthService {
  /** Uids already used to log in, until their token would have expired anyway: a uid signs in once. */
  private readonly usedUids = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokenService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
    private readonly db: DatabaseService,
    private readonly registration: KeyRegistration,
    private readonly notify: NotifyService,
  ) {}

  getUid(caller: Caller): GetUidAnswer {
    const common = {
      network_id: this.config.networkId.toString(),
      cryptoer: this.config.cryptoer,
      hasher: this.config.hasher,
    };
    if (caller.loggedIn) {
      const remainingMs = BigInt((caller.claims?.exp ?? 0) * 1000 - Date.now());
      return {
        expire: formatGoDuration(remainingMs * 1_000_000n),
        ecosystem_id: caller.ecosystemId.toString(),
        key_id: caller.keyId.toString(),
        address: this.crypto.address(caller.keyId),
        ...common,
      };
    }
    // A uniformly random non-negative 63-bit integer, from the system CSPRNG.
    const uid = (randomBytes(8).readBigUInt64BE() >> 1n).toString();
    const { token } = this.tokens.sign({ uid, ecosystem_id: '1' }, UID_TOKEN_LIFETIME);
    return { uid, token, ...common };
  }

  authStatus(caller: Caller): AuthStatus {
    if (caller.token !== 'valid') return { active: false };
    return { active: true, exp: caller.claims?.exp };
  }

  async login(input: LoginInput, caller: Caller): Promise<LoginResult> {
    const uid = this.uidOf(caller);
    const ecosystem = input.ecosystem && input.ecosystem > 0n ? input.ecosystem : caller.ecosystemId;
    const expire = this.lifetime(input.expire);
    const suppliedKey = this.suppliedPublicKey(input.publicKey);
    const wallet = this.walletOf(input.keyId, suppliedKey);
    if (!(await this.db.one(ECOSYSTEM_EXISTS, [ecosystem.toString()]))) {
      throw new ApiError('E_ECOSYSTEM', ecosystem);
    }
    const row = await this.db.one<RowOf<typeof KEY>>(KEY_BY_ID, [wallet.toString(), ecosystem.toString()]);
    const storedKey = row ? asBuffer(row.pub) : Buffer.alloc(0);
    const verificationKey = storedKey.length > 0 ? storedKey : suppliedKey;
    if (!verificationKey) throw new ApiError('E_EMPTYPUBLIC');

    // The signature is checked before anything else happens for this key.
    this.verifySignature(verificationKey, uid, input.signature);
    this.markUidUsed(uid, caller);

    let keyRow = row;
    if (storedKey.length === 0) {
      const open = ecosystem === 1n || (await this.ecosystemParameter(ecosystem, 'free_membership')) === '1';
      if (!open) throw new ApiError('E_STATELOGIN', this.crypto.address(wallet), ecosystem);
      if (this.config.nodeMode === 'clb') throw new ApiError('E_KEYNOTFOUND');
      await this.registration.register(verificationKey, ecosystem);
      keyRow = await this.db.one<RowOf<typeof KEY>>(KEY_BY_ID, [wallet.toString(), ecosystem.toString()]);
      if (!keyRow) throw ApiError.server('encountered some problems when login account');
    }
    if (keyRow!.deleted === '1') throw new ApiError('E_DELETEDKEY');
    const account = keyRow!.account.trim();
    const roleId = input.roleId ?? 0n;
    if (roleId > 0n && !(await this.holdsRole(ecosystem, account, roleId))) throw new ApiError('E_CHECKROLE');

    const founder = (await this.ecosystemParameter(ecosystem, 'founder_account'))?.trim();
    const { token } = this.tokens.sign(
      {
        ecosystem_id: ecosystem.toString(),
        key_id: wallet.toString(),
        account_id: account,
        role_id: roleId.toString(),
      },
      expire,
    );
    const roles = await this.roles(ecosystem, account);
    return {
      token,
      ecosystem_id: ecosystem.toString(),
      key_id: wallet.toString(),
      account,
      notify_key: this.notify.connectionToken(wallet, expire),
      isnode: wallet === this.identity.keys.node.keyId,
      isowner: founder !== undefined && founder === wallet.toString(),
      clb: this.config.nodeMode === 'clb',
      timestamp: Math.floor(Date.now() / 1000).toString(),
      roles: roles.length > 0 ? roles : undefined,
    };
  }

  /** The uid a login must sign: only a getuid token carries one. */
  private uidOf(caller: Caller): string {
    if (caller.token === 'expired') {
      throw new ApiError('E_TOKENEXPIRED', formatGoDuration(caller.expiredAgo ?? 0n));
    }
    const uid = caller.token === 'valid' ? caller.claims?.uid : undefined;
    if (!uid || this.usedUids.has(uid)) throw new ApiError('E_UNKNOWNUID');
    return uid;
  }

  private markUidUsed(uid: string, caller: Caller): void {
    const now = Date.now();
    for (const [used, until] of this.usedUids) if (until < now) this.usedUids.delete(used);
    this.usedUids.set(uid, (caller.claims?.exp ?? 0) * 1000 + 1000);
  }

  private lifetime(expire: bigint | undefined): number {
    if (expire === undefined || expire === 0n) return DEFAULT_SESSION_LIFETIME;
    if (expire < 0n || expire > BigInt(MAX_SESSION_LIFETIME)) {
      throw ApiError.server(`expire must be from 1 to ${MAX_SESSION_LIFETIME} seconds`);
    }
    return Number(expire);
  }

  private suppliedPublicKey(publicKey: Uint8Array | undefined): Uint8Array | undefined {
    if (!publicKey || publicKey.length === 0) return undefined;
    try {
      return parsePublicKey(publicKey);
    } catch (error) {
      throw new ApiError('E_EMPTYPUBLIC').withMessage((error as Error).message);
    }
  }

  private walletOf(keyIdText: string | undefined, publicKey: Uint8Array | undefined): bigint {
    const fromKey = publicKey ? this.crypto.keyId(publicKey) : undefined;
    if (keyIdText) {
      const wallet = stringToAddress(keyIdText);
      if (wallet === 0n) throw new ApiError('E_INVALIDWALLET', keyIdText);
      if (fromKey !== undefined && fromKey !== wallet) {
        throw ApiError.server('key_id and pubkey belong to different accounts');
      }
      return wallet;
    }
    if (fromKey === undefined) throw new ApiError('E_EMPTYPUBLIC');
    return fromKey;
  }

  private verifySignature(publicKey: Uint8Array, uid: string, signature: Uint8Array | undefined): void {
    const message = utf8(`LOGIN${this.config.networkId}${uid}`);
    try {
      this.crypto.signer.verify(publicKey, message, signature ?? new Uint8Array());
    } catch (error) {
      if (error instanceof CryptoError) {
        throw new ApiError('E_SIGNATURE').withMessage(`Signature is incorrect: ${error.message}`);
      }
      throw error;
    }
  }

  private async ecosystemParameter(ecosystem: bigint, name: string): Promise<string | undefined> {
    const row = await this.db.one<RowOf<typeof PARAMETER_VALUE>>(
      `SELECT ${PARAMETER_VALUE} FROM ${PARAMETERS.name}
        WHERE ${PARAMETERS.column('ecosystem')} = $1 AND ${PARAMETERS.column('name')} = $2`,
      [ecosystem.toString(), name],
    );
    return row?.value;
  }

  private async holdsRole(ecosystem: bigint, account: string, roleId: bigint): Promise<boolean> {
    const row = await this.db.one(`SELECT 1 FROM ${MEMBERSHIPS} AND ${ROLE}->>'id' = $3`, [
      ecosystem.toString(),
      account,
      roleId.toString(),
    ]);
    return row !== undefined;
  }

  private async roles(ecosystem: bigint, account: string): Promise<NonNullable<LoginResult['roles']>> {
    const rows = await this.db.query<{ role_id: string | null; role_name: string | null }>(
      `SELECT ${ROLE}->>'id' AS "role_id", ${ROLE}->>'name' AS "role_name" FROM ${MEMBERSHIPS}
        ORDER BY ${PARTICIPANTS.column('id')}`,
      [ecosystem.toString(), account],
    );
    return rows
      .filter((row) => row.role_id !== null && /^-?\d+$/.test(row.role_id))
      .map((row) => ({ role_id: BigInt(row.role_id!), role_name: row.role_name ?? '' }));
  }
}

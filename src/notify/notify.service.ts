import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, type AppConfig } from '../config';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { NotificationEntity } from './entities';
import { CentrifugoApi } from './centrifugo-api';
import type { NotificationCount } from './notify.answers';

/**
 * Notifications: the notification service (Centrifugo) clients connect to, the connection token a login
 * hands out (`notify_key`), and the open notifications of an account and its roles (`1_notifications`).
 */
@Injectable()
export class NotifyService {
  /** Signs connection tokens with the Centrifugo secret, not the session secret. */
  private readonly connectionTokens: JwtService;
  /** Centrifugo's server API, when configured (CENTRIFUGO_API_URL, CENTRIFUGO_API_KEY). */
  readonly api?: CentrifugoApi;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(NotificationEntity) private readonly notifications: Repository<NotificationEntity>,
  ) {
    this.connectionTokens = new JwtService({ secret: config.centrifugo.secret });
    const { api } = config.centrifugo;
    if (api) this.api = new CentrifugoApi(api.url, api.key);
  }

  /** The address clients connect to, or "" when the node has none (as `getNetwork` shows it). */
  get publicUrl(): string {
    return this.config.centrifugo.url ?? '';
  }

  /**
   * The address clients connect to, as a WebSocket address (`http:` → `ws:`, `https:` → `wss:`, as the
   * reference answers it). With the server API configured, Centrifugo is asked first (`info`) and its
   * failure is the answer, so a client is not sent to a service that is down; a node without an address
   * says so.
   */
  async centrifugoUrl(): Promise<string> {
    const url = this.config.centrifugo.url;
    if (!url) throw ApiError.server('the notification service (CENTRIFUGO_URL) is not configured');
    if (this.api) {
      await this.api.info().catch((error: Error) => {
        throw ApiError.server(error.message);
      });
    }
    return url.replace(/^http(s?):/, 'ws$1:');
  }

  /** A Centrifugo connection token for a key, valid as long as its session (HS256, `sub` the key id). */
  connectionToken(keyId: bigint, lifetimeSeconds: number): string {
    return this.connectionTokens.sign(
      { sub: keyId.toString(), exp: Math.floor(Date.now() / 1000) + lifetimeSeconds },
      { algorithm: 'HS256', noTimestamp: true },
    );
  }

  /** Open notifications of an account in an ecosystem: its own first (role "0"), then each of its roles'. */
  async openCounts(
    ecosystem: bigint,
    account: string,
    roleIds: readonly string[],
  ): Promise<NotificationCount[]> {
    const open = () =>
      this.notifications
        .createQueryBuilder('n')
        .where('n.ecosystem = :ecosystem AND n.closed = 0', { ecosystem: ecosystem.toString() });
    const personal = await open()
      .andWhere("n.notification->>'type' = '1' AND n.recipient->>'account' = :account", { account })
      .getCount();
    const counts = [{ role_id: '0', count: personal }];
    for (const roleId of roleIds) {
      const count = await open()
        .andWhere("n.notification->>'type' = '2' AND n.recipient->>'role_id' = :roleId", { roleId })
        .getCount();
      counts.push({ role_id: roleId, count });
    }
    return counts;
  }
}

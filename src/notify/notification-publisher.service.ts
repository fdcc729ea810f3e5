import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ChainEvents, type BlockNotices } from '../chain/chain-events';
import { ApiError } from '../common/api-error';
import { DatabaseService } from '../database/database.service';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { CentrifugoApi, type Publication } from './centrifugo-api';
import type { NotificationStat } from './notify.answers';
import { NotifyService } from './notify.service';

/** Accounts whose open notifications changed, by ecosystem. */
export type Recipients = Map<string, Set<string>>;

const ATTEMPTS = 5;
const FIRST_RETRY_MS = 250;

/**
 * Publishes the open-notification counts of the accounts a block touched to their Centrifugo channels
 * (`client<account>`), as the reference does after each block: a notification written, closed or processed
 * (a `1_notifications` row the block changed) touches its recipient — the account, or every member of the
 * role —, and a role given or taken (`1_roles_participants`) touches its member. One batch per block, sent
 * after the block committed and in block order, retried with backoff; it never delays the producer. A
 * failure is counted (`ibax_notification_publish_failures_total`) and logged once per outage.
 */
@Injectable()
export class NotificationPublisher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Notifications');
  private sending: Promise<void> = Promise.resolve();
  private outage = false;
  private stopped = false;

  constructor(
    private readonly events: ChainEvents,
    private readonly db: DatabaseService,
    private readonly notify: NotifyService,
    private readonly metrics: PrometheusMetrics,
  ) {}

  private get api(): CentrifugoApi | undefined {
    return this.notify.api;
  }

  /** Whether the node publishes (CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY are set). */
  get enabled(): boolean {
    return this.api !== undefined;
  }

  onModuleInit(): void {
    if (!this.api) {
      this.logger.log('notifications are off (CENTRIFUGO_API_URL is not set)');
      return;
    }
    // Only the blocks this process makes: with several processes on one database, or this one's own block
    // heard back over LISTEN, each block would be published more than once.
    this.events.subscribe((change) => {
      if (change.kind === 'block' && !change.heard) {
        const { height, notices } = change;
        this.enqueue(() => this.publishBlock(height, notices));
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.sending;
  }

  /**
   * Publishes the counts of the given accounts of an ecosystem now (`updnotificator`), after what the
   * blocks have queued; E_SERVER when notifications are off or Centrifugo does not answer.
   */
  async publishNow(ecosystem: bigint, accounts: readonly string[]): Promise<void> {
    if (!this.api) throw ApiError.server('the notification service (CENTRIFUGO_API_URL) is not configured');
    const recipients: Recipients = new Map([[ecosystem.toString(), new Set(accounts)]]);
    const done = this.sending.then(async () => this.send(await this.publicationsFor(recipients)));
    this.sending = done.catch(() => undefined);
    await done.catch((error: Error) => {
      throw ApiError.server(`the notification service did not take the counts: ${error.message}`);
    });
  }

  private enqueue(task: () => Promise<void>): void {
    this.sending = this.sending.then(task).catch((error: unknown) => {
      this.logger.error({ err: error }, 'notification counts were not published');
    });
  }

  private async publishBlock(height: bigint, notices?: BlockNotices): Promise<void> {
    if (this.stopped) return;
    const publications = await this.publicationsFor(await this.touchedBy(height, notices));
    await this.send(publications).catch(() => undefined);
  }

  /**
   * The recipients of the notifications and role memberships block `height` changed, and those its
   * transactions asked for (UpdateNotifications, UpdateRolesNotifications: `notices`).
   */
  async touchedBy(height: bigint, notices?: BlockNotices): Promise<Recipients> {
    const notifications = await this.db.query<{
      ecosystem: string;
      account: string | null;
      role: string | null;
    }>(
      `SELECT n."ecosystem"::text AS "ecosystem",
              CASE WHEN n."notification"->>'type' = '2' THEN NULL ELSE n."recipient"->>'account' END AS "account",
              CASE WHEN n."notification"->>'type' = '2' THEN n."recipient"->>'role_id' END AS "role"
         FROM "1_notifications" n
        WHERE n."id"::text IN (SELECT "table_id" FROM "rollback_tx"
                                WHERE "block_id" = $1 AND "table_name" = '1_notifications')`,
      [height.toString()],
    );
    const members = await this.db.query<{ ecosystem: string; account: string }>(
      `SELECT p."ecosystem"::text AS "ecosystem", p."member"->>'account' AS "account"
         FROM "1_roles_participants" p
        WHERE p."id"::text IN (SELECT "table_id" FROM "rollback_tx"
                                WHERE "block_id" = $1 AND "table_name" = '1_roles_participants')`,
      [height.toString()],
    );
    const recipients: Recipients = new Map();
    const add = (ecosystem: string, account: string | null) => {
      if (!account) return;
      let accounts = recipients.get(ecosystem);
      if (!accounts) recipients.set(ecosystem, (accounts = new Set()));
      accounts.add(account);
    };
    for (const { ecosystem, account, role } of notifications) {
      if (role === null) add(ecosystem, account);
      else for (const member of await this.membersOf(ecosystem, role)) add(ecosystem, member);
    }
    for (const { ecosystem, account } of members) add(ecosystem, account);
    for (const [ecosystem, accounts] of notices?.accounts ?? []) {
      for (const account of accounts) add(ecosystem.toString(), account);
    }
    for (const [ecosystem, roles] of notices?.roles ?? []) {
      for (const role of roles) {
        for (const member of await this.membersOf(ecosystem.toString(), role.toString())) {
          add(ecosystem.toString(), member);
        }
      }
    }
    return recipients;
  }

  private async membersOf(ecosystem: string, roleId: string): Promise<string[]> {
    const rows = await this.db.query<{ account: string }>(
      `SELECT DISTINCT "member"->>'account' AS "account" FROM "1_roles_participants"
        WHERE "ecosystem" = $1 AND "role"->>'id' = $2 AND "deleted" = 0`,
      [ecosystem, roleId],
    );
    return rows.map((row) => row.account).filter(Boolean);
  }

  private async publicationsFor(recipients: Recipients): Promise<Publication[]> {
    const publications: Publication[] = [];
    for (const [ecosystem, accounts] of recipients) {
      for (const account of [...accounts].sort()) {
        publications.push({
          channel: `client${account}`,
          data: await this.countsOf(BigInt(ecosystem), account),
        });
      }
    }
    return publications;
  }

  /** An account's open notifications in an ecosystem: its own (role 0), then each of its roles'. */
  async countsOf(ecosystem: bigint, account: string): Promise<NotificationStat[]> {
    const roles = await this.db.query<{ id: string }>(
      `SELECT DISTINCT "role"->>'id' AS "id" FROM "1_roles_participants"
        WHERE "ecosystem" = $1 AND "member"->>'account' = $2 AND "deleted" = 0 ORDER BY 1`,
      [ecosystem.toString(), account],
    );
    const counts = await this.notify.openCounts(
      ecosystem,
      account,
      roles.map((role) => role.id),
    );
    return counts.map(({ role_id, count }) => ({ ecosystem: ecosystem.toString(), role_id, count }));
  }

  /** Sends one batch, retrying with backoff; throws once every attempt failed. */
  private async send(publications: Publication[]): Promise<void> {
    if (!this.api || publications.length === 0) return;
    let lastError: unknown;
    for (let attempt = 0; attempt < ATTEMPTS && !this.stopped; attempt++) {
      if (attempt > 0)
        await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS * 2 ** (attempt - 1)));
      try {
        await this.api.publish(publications);
        this.metrics.notificationsSent(publications.length, 0);
        if (this.outage) this.logger.log('Centrifugo answers again: notification counts are published');
        this.outage = false;
        return;
      } catch (error) {
        lastError = error;
      }
    }
    this.metrics.notificationsSent(0, publications.length);
    if (!this.outage) {
      this.logger.warn(
        `notification counts are not reaching Centrifugo (${(lastError as Error).message}); ` +
          'counting the failures in ibax_notification_publish_failures_total, logging again when it answers',
      );
    }
    this.outage = true;
    throw lastError;
  }
}

import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { ChainEvents, type BlockNotices } from '../chain/chain-events';
import type { Caller } from '../common/caller';
import { APP_CONFIG, type AppConfig } from '../config';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { NotificationPublisher } from '../notify/notification-publisher.service';
import { RpcError } from '../rpc/rpc-error';
import type { RpcConnection } from '../rpc/rpc-registry.service';
import { TxService } from '../tx/tx.service';
import type { NewBlockPush, SubscriptionKind } from './live.answers';

interface Subscription {
  id: string;
  kind: SubscriptionKind;
  connection: RpcConnection;
  /** The namespace it was made in: pushes are `<namespace>.subscription`. */
  namespace: string;
  /** txStatus: the hashes (hex, lower case) not yet in a block or failed. */
  waiting?: Set<string>;
  /** notifications: whose counts. */
  caller?: Caller;
}

/**
 * Subscriptions of WebSocket connections: `newBlocks` (each block as it is added, in order), `txStatus`
 * (one message when each given transaction reaches a block or fails) and `notifications` (the caller's
 * open notification counts whenever a block changes them). Pushed as JSON-RPC notifications,
 * `{"jsonrpc":"2.0","method":"ibax.subscription","params":{"subscription":<id>,"result":…}}`, as Ethereum
 * nodes do. Blocks are read once per block whatever the number of subscribers.
 */
const BLOCKS = new EntityTable(BlockEntity);
const NEW_BLOCK = BLOCKS.select('id', 'hash', 'time', 'tx');

@Injectable()
export class LiveSubscriptions implements OnModuleInit {
  private readonly logger = new Logger('Subscriptions');
  private readonly byId = new Map<string, Subscription>();
  private readonly byConnection = new Map<number, Set<string>>();
  /** The last height pushed, so that a block heard twice (own and over LISTEN) is pushed once. */
  private pushedHeight = -1n;
  private work: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: ChainEvents,
    private readonly db: DatabaseService,
    private readonly txs: TxService,
    private readonly publisher: NotificationPublisher,
  ) {}

  onModuleInit(): void {
    this.events.subscribe((change) => {
      if (change.kind === 'rollback') this.pushedHeight = change.height;
      if (change.kind !== 'block' || this.byId.size === 0) return;
      const { height, notices } = change;
      this.work = this.work
        .then(() => this.onBlock(height, notices))
        .catch((error: unknown) => this.logger.error({ err: error }, 'subscriptions were not served'));
    });
  }

  get count(): number {
    return this.byId.size;
  }

  async subscribe(
    connection: RpcConnection | undefined,
    namespace: string,
    caller: Caller,
    kind: SubscriptionKind,
    hashes: readonly string[] = [],
  ): Promise<string> {
    if (!connection) {
      throw new RpcError(
        -32000,
        'notifications not supported: subscribe over a WebSocket connection (ws://…/)',
      );
    }
    const mine = this.byConnection.get(connection.id) ?? new Set<string>();
    if (mine.size >= this.config.webSocket.subscriptions) {
      throw new RpcError(
        -32000,
        `too many subscriptions on this connection (limit ${this.config.webSocket.subscriptions})`,
      );
    }
    if (kind === 'txStatus' && hashes.length === 0)
      throw RpcError.invalidParams('txStatus needs a list of hashes');
    if (kind !== 'txStatus' && hashes.length > 0) throw RpcError.invalidParams(`${kind} takes no hashes`);
    if (kind === 'notifications' && !caller.loggedIn) throw new ApiError('E_UNAUTHORIZED');
    const subscription: Subscription = {
      id: `0x${randomBytes(16).toString('hex')}`,
      kind,
      connection,
      namespace,
      waiting: kind === 'txStatus' ? new Set(hashes.map((hash) => hash.toLowerCase())) : undefined,
      caller: kind === 'notifications' ? caller : undefined,
    };
    if (!this.byConnection.has(connection.id)) {
      this.byConnection.set(connection.id, mine);
      connection.onClose(() => this.dropConnection(connection.id));
    }
    mine.add(subscription.id);
    this.byId.set(subscription.id, subscription);
    if (this.pushedHeight < 0n && kind === 'newBlocks') this.pushedHeight = await this.height();
    // A transaction may have been settled already: say so at once, after the subscription id is answered.
    if (kind === 'txStatus') setImmediate(() => void this.pushSettled(subscription).catch(() => undefined));
    return subscription.id;
  }

  unsubscribe(connection: RpcConnection | undefined, id: string): boolean {
    const subscription = this.byId.get(id);
    if (!connection || !subscription || subscription.connection.id !== connection.id) return false;
    this.byId.delete(id);
    this.byConnection.get(connection.id)?.delete(id);
    return true;
  }

  private dropConnection(connectionId: number): void {
    for (const id of this.byConnection.get(connectionId) ?? []) this.byId.delete(id);
    this.byConnection.delete(connectionId);
  }

  private async height(): Promise<bigint> {
    const row = await this.db.one<{ id: string | null }>(
      `SELECT max(${BLOCKS.column('id')}) AS "id" FROM ${BLOCKS.name}`,
    );
    return BigInt(row?.id ?? 0);
  }

  private async onBlock(height: bigint, notices?: BlockNotices): Promise<void> {
    const subscriptions = [...this.byId.values()];
    if (
      subscriptions.some((subscription) => subscription.kind === 'newBlocks') &&
      height > this.pushedHeight
    ) {
      const from = this.pushedHeight < 0n ? height : this.pushedHeight + 1n;
      const blocks = await this.db.query<RowOf<typeof NEW_BLOCK>>(
        `SELECT ${NEW_BLOCK} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} BETWEEN $1 AND $2 ORDER BY ${BLOCKS.column('id')}`,
        [from.toString(), height.toString()],
      );
      for (const row of blocks) {
        const block: NewBlockPush = {
          block_id: Number(row.id),
          hash: asBuffer(row.hash).toString('hex'),
          time: Number(row.time),
          tx_count: Number(row.tx),
        };
        for (const subscription of subscriptions) {
          if (subscription.kind === 'newBlocks') this.push(subscription, block);
        }
      }
    }
    if (height > this.pushedHeight) this.pushedHeight = height;
    for (const subscription of subscriptions) {
      if (subscription.kind === 'txStatus') await this.pushSettled(subscription);
    }
    const watchers = subscriptions.filter((subscription) => subscription.kind === 'notifications');
    if (watchers.length > 0) {
      const touched = await this.publisher.touchedBy(height, notices);
      for (const subscription of watchers) {
        const { ecosystemId, accountId } = subscription.caller!;
        if (!touched.get(ecosystemId.toString())?.has(accountId)) continue;
        this.push(subscription, await this.publisher.countsOf(ecosystemId, accountId));
      }
    }
  }

  /** Pushes each waiting transaction that reached a block or failed, once; one query for all of them. */
  private async pushSettled(subscription: Subscription): Promise<void> {
    const waiting = [...(subscription.waiting ?? [])];
    if (waiting.length === 0) return;
    const statuses = await this.txs.knownStatuses(waiting);
    for (const [hash, status] of Object.entries(statuses)) {
      const settled = (status.blockid !== '' && status.blockid !== '0') || status.errmsg !== undefined;
      if (!settled || !subscription.waiting?.delete(hash)) continue;
      this.push(subscription, { hash, ...status });
    }
  }

  private push(subscription: Subscription, result: unknown): void {
    if (!this.byId.has(subscription.id) || !subscription.connection.open) return;
    subscription.connection.push({
      jsonrpc: '2.0',
      method: `${subscription.namespace}.subscription`,
      params: { subscription: subscription.id, result },
    });
  }
}

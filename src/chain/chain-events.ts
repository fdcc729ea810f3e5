import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config';
import type { Sql } from '../database/database.service';

/**
 * The chain grew to `height`, or was rolled back to it; `unknown`: changes may have been missed. `heard`:
 * the change came over the database's LISTEN connection (made by any process, this one included), rather
 * than from this process's own producer or rollback.
 */
export type ChainChange =
  | {
      kind: 'block' | 'rollback';
      height: bigint;
      heard?: boolean;
      notices?: BlockNotices;
      /** Set when this process made the block (not received it): what its peers are told of it. */
      produced?: ProducedBlockNews;
    }
  | { kind: 'unknown' };

/** A block this node made, as announced to its peers. */
export interface ProducedBlockNews {
  hash: Buffer;
  prevHash: Buffer;
  /** Unix seconds. */
  time: bigint;
  position: number;
  txHashes: Buffer[];
  /** When its database transaction committed (ms): propagation is measured from here. */
  committedAtMs: number;
}

/**
 * What a block's transactions asked to have published (the UpdateNotifications and UpdateRolesNotifications
 * built-ins): by ecosystem, accounts and roles. Known only to the process that made the block.
 */
export interface BlockNotices {
  accounts: Map<bigint, Set<string>>;
  roles: Map<bigint, Set<bigint>>;
}

const CHANNEL = 'ibax_chain';
const RECONNECT_MS = 1_000;

/**
 * The node's one bus. Chain changes: tells readers in this process when the chain changes, so that they
 * may keep what they read of it (the height, blocks) until it does. The producer and the rollback announce
 * a change inside their database transaction (`pg_notify`, delivered when it commits) and publish it here
 * once committed. On a PostgreSQL server, other node processes sharing the database hear it on a LISTEN
 * connection; while that connection is down, `reliable` is false and readers must ask the database. The
 * embedded database lives in this process alone, so what is published here is all there is.
 *
 * Transactions accepted: what this node queued for its clients (their own transactions, a key's
 * registration), which a network passes on to its peers. Only this process hears of them.
 */
@Injectable()
export class ChainEvents implements OnApplicationShutdown {
  private readonly logger = new Logger('ChainEvents');
  private readonly subscribers = new Set<(change: ChainChange) => void>();
  private readonly acceptedListeners = new Set<(stored: Buffer[]) => void>();
  private listener?: Client;
  private listening = false;
  private stopped = false;
  private reconnect?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.databaseUrl) void this.listen();
  }

  /** Whether every change made by any process reaches this one. */
  get reliable(): boolean {
    return !this.config.databaseUrl || this.listening;
  }

  subscribe(subscriber: (change: ChainChange) => void): void {
    this.subscribers.add(subscriber);
  }

  /** Called inside the changing transaction: the other processes hear of it when it commits. */
  async announce(sql: Sql, change: ChainChange & { height: bigint }): Promise<void> {
    if (!this.config.databaseUrl) return;
    await sql.query('SELECT pg_notify($1, $2)', [CHANNEL, `${change.kind}:${change.height}`]);
  }

  /** Called once the change is committed. */
  publish(change: ChainChange): void {
    for (const subscriber of this.subscribers) subscriber(change);
  }

  /** Hears of each batch of transactions queued here for a client, as stored. */
  onTransactionsAccepted(listener: (stored: Buffer[]) => void): void {
    this.acceptedListeners.add(listener);
  }

  /** Called once transactions queued for a client are committed to the queue. */
  transactionsAccepted(stored: Buffer[]): void {
    for (const listener of this.acceptedListeners) listener(stored);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    await this.listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      // Changes may be missed from here on: readers forget what they kept.
      this.publish({ kind: 'unknown' });
      client.end().catch(() => undefined);
      if (this.stopped) return;
      if (error) this.logger.warn(`chain notifications lost: ${error.message}`);
      this.reconnect = setTimeout(() => void this.listen(), RECONNECT_MS);
      this.reconnect.unref();
    };
    this.listener = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      const [kind, height] = (message.payload ?? '').split(':');
      if ((kind === 'block' || kind === 'rollback') && /^\d+$/.test(height ?? '')) {
        this.publish({ kind, height: BigInt(height), heard: true });
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.listener === client) this.listening = true;
    } catch (error) {
      lost(error as Error);
    }
  }
}

import WebSocket from 'ws';
import type { NewBlockPush, SubscriptionKind } from '../live/live.answers';
import type { NotificationStat } from '../notify/notify.answers';
import type { TxStatusAnswer } from './tx-status';
import { parseExactJson } from './json';

/** What a node pushes over its WebSocket (`ibax.subscribe`): new blocks, transaction outcomes, notification counts. */
export type { SubscriptionKind };

/** A `newBlocks` push (declared where the node pushes it). */
export type { NewBlockPush };

/** A `txStatus` push: one transaction that reached a block (`blockid`) or failed (`errmsg`). */
export interface TxStatusPush extends TxStatusAnswer {
  /** Hex, lower case. */
  hash: string;
}

/** One line of a `notifications` push: the caller's open notifications of one of its roles (`"0"`: its own). */
export type NotificationCountPush = NotificationStat;

export interface PushOf {
  newBlocks: NewBlockPush;
  txStatus: TxStatusPush;
  notifications: NotificationCountPush[];
}

export type SubscribeOptions<K extends SubscriptionKind> = {
  /**
   * Called with each push, in order, as it arrives. Without it the pushes wait, in order, for the
   * subscription's async iterator (`for await (const push of subscription)`).
   */
  onPush?: (push: PushOf[K]) => void;
} & (K extends 'txStatus' ? { /** The transactions to follow (hex). */ hashes: readonly string[] } : unknown);

/**
 * Why a subscription ended: `unsubscribed` (by `unsubscribe()`, or by leaving a `for await` loop),
 * `settled` (txStatus: every transaction reached a block or failed), `closed` (`IbaxClient.close()`).
 */
export type SubscriptionEnd = 'unsubscribed' | 'settled' | 'closed';

/** One subscription: its pushes, as an async iterator or through `onPush`. */
export interface Subscription<T> extends AsyncIterable<T> {
  /** The id the node answered. */
  readonly id: string;
  readonly kind: SubscriptionKind;
  /**
   * Settles once no more pushes will come: with why it ended, or rejected with the error that lost the
   * connection (the node stopped or went away). The iterator ends, or throws that error, the same way.
   */
  readonly ended: Promise<SubscriptionEnd>;
  /** Ends the subscription (the node is told; the connection closes once none of its subscriptions is left). */
  unsubscribe(): Promise<void>;
}

/** The WebSocket connection could not be opened: nothing answered, or not as a WebSocket. */
export class LiveConnectionError extends Error {}

/** The node's WebSocket address for an HTTP base address: `http://host:port` → `ws://host:port/`. */
export function liveUrl(baseUrl: string): string {
  const url = new URL('/', baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** How long a clean close may take before the socket is dropped. */
const CLOSE_TIMEOUT_MS = 2_000;
const NORMAL_CLOSURE = 1000;

type Answer = (error: Error | undefined, result: unknown) => void;

/**
 * One WebSocket connection to a node (JSON-RPC over it), shared by the subscriptions of one client. It
 * closes itself once its last subscription has ended, so that a script that unsubscribes can exit.
 */
export class LiveSocket {
  private readonly pending = new Map<number, Answer>();
  private readonly subscriptions = new Map<string, LiveSubscription<unknown>>();
  private nextCallId = 1;
  private closing?: Promise<void>;
  private readonly gone: Promise<void>;
  private failure?: Error;

  private constructor(
    private readonly socket: WebSocket,
    /** Told once the connection takes no more subscriptions (closing or lost). */
    private readonly onRetired: (socket: LiveSocket) => void,
  ) {
    this.gone = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.received(data.toString('utf8'));
    });
    socket.on('error', (error) => (this.failure ??= error));
    socket.once('close', (code: number, reason: Buffer) => this.closed(code, reason.toString('utf8')));
  }

  /** Opens a connection, with the session token on the opening request when there is one. */
  static open(url: string, token: string | undefined, onRetired: (socket: LiveSocket) => void) {
    return new Promise<LiveSocket>((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      const failed = (error: Error) => {
        const code = (error as { code?: string }).code;
        reject(new LiveConnectionError(`cannot open ${url}: ${code ?? error.message}`, { cause: error }));
      };
      socket.once('error', failed);
      socket.once('open', () => {
        socket.off('error', failed);
        resolve(new LiveSocket(socket, onRetired));
      });
    });
  }

  /** Whether it takes new subscriptions. */
  get usable(): boolean {
    return this.closing === undefined && this.socket.readyState === WebSocket.OPEN;
  }

  /** `ibax.subscribe`; the subscription is in place before any message after the answer is read. */
  subscribe<K extends SubscriptionKind>(
    kind: K,
    options: SubscribeOptions<K>,
  ): Promise<Subscription<PushOf[K]>> {
    const hashes = (options as { hashes?: readonly string[] }).hashes;
    const params = hashes === undefined ? [kind] : [kind, hashes.map((hash) => hash.toLowerCase())];
    return new Promise((resolve, reject) => {
      this.send('ibax.subscribe', params, (error, id) => {
        if (error) {
          reject(error);
          this.closeIfIdle();
          return;
        }
        const subscription = new LiveSubscription<PushOf[K]>(this, String(id), kind, options.onPush, hashes);
        this.subscriptions.set(subscription.id, subscription as LiveSubscription<unknown>);
        resolve(subscription);
      });
    });
  }

  /** Drops a subscription that ended on this side and tells the node. */
  async release(subscription: LiveSubscription<unknown>): Promise<void> {
    if (!this.subscriptions.delete(subscription.id)) return;
    if (this.socket.readyState === WebSocket.OPEN) {
      await new Promise<void>((resolve) => this.send('ibax.unsubscribe', [subscription.id], () => resolve()));
    }
    this.closeIfIdle();
  }

  /** Closes the connection cleanly (close frame, code 1000); its subscriptions end as `closed`. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.onRetired(this);
    for (const subscription of [...this.subscriptions.values()]) subscription.end('closed');
    this.subscriptions.clear();
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(NORMAL_CLOSURE);
    }
    const dropped = setTimeout(() => this.socket.terminate(), CLOSE_TIMEOUT_MS);
    this.closing = this.gone.finally(() => clearTimeout(dropped));
    return this.closing;
  }

  private closeIfIdle(): void {
    if (this.subscriptions.size === 0 && this.pending.size === 0) void this.close();
  }

  private send(method: string, params: unknown, answer: Answer): void {
    if (this.socket.readyState !== WebSocket.OPEN) {
      answer(this.failure ?? new Error('the connection to the node is closed'), undefined);
      return;
    }
    const id = this.nextCallId++;
    this.pending.set(id, answer);
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  private received(text: string): void {
    let message: {
      id?: unknown;
      result?: unknown;
      error?: { code: number; message: string };
      method?: unknown;
      params?: { subscription?: unknown; result?: unknown };
    };
    try {
      message = parseExactJson(text);
    } catch {
      return;
    }
    if (typeof message.id === 'number' && this.pending.has(message.id)) {
      const answer = this.pending.get(message.id)!;
      this.pending.delete(message.id);
      if (message.error) {
        answer(Object.assign(new Error(message.error.message), { code: message.error.code }), undefined);
      } else {
        answer(undefined, message.result);
      }
      return;
    }
    if (typeof message.method === 'string' && message.method.endsWith('.subscription')) {
      this.subscriptions.get(String(message.params?.subscription))?.deliver(message.params?.result);
    }
  }

  private closed(code: number, reason: string): void {
    this.onRetired(this);
    const error =
      this.failure ?? new Error(`the node closed the connection (${code}${reason ? ` ${reason}` : ''})`);
    for (const answer of this.pending.values()) answer(error, undefined);
    this.pending.clear();
    for (const subscription of this.subscriptions.values()) subscription.fail(error);
    this.subscriptions.clear();
  }
}

/** A subscription's pushes: to `onPush`, or queued for the iterator. */
class LiveSubscription<T> implements Subscription<T> {
  readonly ended: Promise<SubscriptionEnd>;
  private readonly queue: T[] = [];
  private waiting?: { resolve: (result: IteratorResult<T>) => void; reject: (error: Error) => void };
  private outcome?: { end: SubscriptionEnd } | { error: Error };
  private settle!: { resolve: (end: SubscriptionEnd) => void; reject: (error: Error) => void };
  /** txStatus: the hashes not yet pushed; the subscription ends itself once none is left. */
  private readonly unsettled?: Set<string>;

  constructor(
    private readonly socket: LiveSocket,
    readonly id: string,
    readonly kind: SubscriptionKind,
    private readonly onPush: ((push: T) => void) | undefined,
    hashes: readonly string[] | undefined,
  ) {
    this.ended = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // A lost connection rejects `ended`; whoever does not wait for it should not get an unhandled rejection.
    this.ended.catch(() => undefined);
    if (kind === 'txStatus') this.unsettled = new Set(hashes?.map((hash) => hash.toLowerCase()));
  }

  deliver(push: unknown): void {
    if (this.outcome) return;
    this.emit(push as T);
    if (this.unsettled) {
      this.unsettled.delete(String((push as { hash?: unknown }).hash));
      if (this.unsettled.size === 0) void this.finish('settled');
    }
  }

  unsubscribe(): Promise<void> {
    return this.finish('unsubscribed');
  }

  end(end: SubscriptionEnd): void {
    if (this.outcome) return;
    this.outcome = { end };
    this.settle.resolve(end);
    this.wake();
  }

  fail(error: Error): void {
    if (this.outcome) return;
    this.outcome = { error };
    this.settle.reject(error);
    this.wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      // Leaving a `for await` loop early ends the subscription.
      return: async () => {
        await this.unsubscribe();
        return { done: true, value: undefined };
      },
    };
  }

  private async finish(end: SubscriptionEnd): Promise<void> {
    if (this.outcome) return;
    this.end(end);
    await this.socket.release(this as LiveSubscription<unknown>);
  }

  private emit(push: T): void {
    if (this.onPush) this.onPush(push);
    else if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value: push });
    } else this.queue.push(push);
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift()! });
    if (this.outcome && 'error' in this.outcome) return Promise.reject(this.outcome.error);
    if (this.outcome) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** The iterator's waiting `next()` learns of the end. */
  private wake(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    if (this.outcome && 'error' in this.outcome) waiting.reject(this.outcome.error);
    else waiting.resolve({ done: true, value: undefined });
  }
}

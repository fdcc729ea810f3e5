import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Caller } from '../common/caller';
import { RPC_CODE } from '../common/error-codes';
import { rpcErrorBody } from '../http/responses';
import { goJsonStringify } from '../common/go-json';
import { TokenService } from '../common/token.service';
import { APP_CONFIG, type AppConfig, type WebSocketLimits } from '../config';
import { RpcDispatcher } from '../rpc/rpc-dispatcher.service';
import { RpcRegistry, type RpcConnection } from '../rpc/rpc-registry.service';

/** Close code (RFC 6455) when the node stops. */
const GOING_AWAY = 1001;

let nextConnectionId = 1;

/**
 * One WebSocket connection: JSON-RPC messages in (each answered as over HTTP, one at a time in order),
 * subscription pushes out. Its session comes from the `Authorization` header of the opening request (or
 * `?token=`), and changes with a login made over it. Bounded: message size, messages a second (an error
 * each beyond), and a ping every half idle timeout that must be answered.
 */
class LiveConnection implements RpcConnection {
  readonly id = nextConnectionId++;
  private readonly closeListeners: (() => void)[] = [];
  private caller: Caller;
  private windowStart = Date.now();
  private windowCount = 0;
  private answeredPing = true;
  private queue: Promise<void> = Promise.resolve();
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly request: IncomingMessage,
    private readonly limits: WebSocketLimits,
    private readonly dispatcher: RpcDispatcher,
    private readonly tokens: TokenService,
    private readonly serving: () => boolean,
  ) {
    const url = new URL(request.url ?? '/', 'ws://node');
    const token = url.searchParams.get('token');
    this.caller = tokens.resolve(request.headers.authorization ?? (token ? `Bearer ${token}` : undefined));
    socket.on('message', (data: Buffer, isBinary: boolean) => this.received(data, isBinary));
    socket.on('pong', () => (this.answeredPing = true));
    socket.on('close', () => this.closed());
    socket.on('error', () => socket.terminate());
    this.pinger = setInterval(() => this.ping(), Math.max(500, Math.floor(limits.idleTimeoutMs / 2)));
    this.pinger.unref();
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  push(message: unknown): void {
    if (this.open) this.socket.send(goJsonStringify(message));
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  private ping(): void {
    if (!this.answeredPing) {
      this.socket.terminate();
      return;
    }
    this.answeredPing = false;
    this.socket.ping();
  }

  private closed(): void {
    clearInterval(this.pinger);
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private received(data: Buffer, isBinary: boolean): void {
    this.answeredPing = true;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount > this.limits.messagesPerSecond) {
      this.push(
        rpcErrorBody(RPC_CODE.default, `more than ${this.limits.messagesPerSecond} messages a second`),
      );
      return;
    }
    if (data.length > this.limits.messageSize) {
      this.push(
        rpcErrorBody(
          RPC_CODE.invalidRequest,
          `message of ${data.length} bytes exceeds the limit of ${this.limits.messageSize}`,
        ),
      );
      return;
    }
    if (isBinary) {
      this.push(rpcErrorBody(RPC_CODE.parseError, 'Parse error: send JSON-RPC as text messages'));
      return;
    }
    // Answers go out in the order the calls came, as over one HTTP connection.
    this.queue = this.queue.then(() => this.answer(data));
  }

  private async answer(data: Buffer): Promise<void> {
    if (!this.serving()) {
      this.push(
        rpcErrorBody(RPC_CODE.methodNotFound, 'JSON-RPC is not served (JSONRPC_ENABLED, admin.stopJsonRpc)'),
      );
      return;
    }
    const answer = await this.dispatcher.dispatch(data, {
      caller: this.caller,
      request: this.request,
      connection: this,
    });
    if (answer === undefined) return;
    this.keepSession(answer);
    this.push(answer);
  }

  /** A login over the connection gives it that session, as a client would send the token with each call. */
  private keepSession(answer: unknown): void {
    for (const response of Array.isArray(answer) ? answer : [answer]) {
      const token = (response as { result?: { token?: unknown } }).result?.token;
      if (typeof token !== 'string') continue;
      const caller = this.tokens.resolve(`Bearer ${token}`);
      if (caller.loggedIn) this.caller = caller;
    }
  }
}

/**
 * JSON-RPC 2.0 over WebSocket on the API's port (`ws://<node>/` and `/rpc`, through Nest's WebSocket
 * support and the `ws` package): every JSON-RPC method, plus `subscribe`/`unsubscribe`. Messages are read
 * here, not by Nest's `{event, data}` routing: a JSON-RPC message has no event name.
 */
@Injectable()
export class LiveGateway implements OnGatewayInit, OnGatewayConnection, OnApplicationShutdown {
  protected readonly logger = new Logger('WebSocket');
  private readonly connections = new Set<LiveConnection>();
  private readonly limits: WebSocketLimits;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dispatcher: RpcDispatcher,
    private readonly tokens: TokenService,
    private readonly registry: RpcRegistry,
  ) {
    this.limits = config.webSocket;
  }

  /** Beyond twice the message limit the socket closes (1009) without reading it; up to that, an error. */
  afterInit(server: WebSocketServer): void {
    (server.options as { maxPayload?: number }).maxPayload = this.limits.messageSize * 2;
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const connection = new LiveConnection(
      socket,
      request,
      this.limits,
      this.dispatcher,
      this.tokens,
      () => this.registry.serving,
    );
    this.connections.add(connection);
    connection.onClose(() => this.connections.delete(connection));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  onApplicationShutdown(): void {
    for (const connection of this.connections) connection.close(GOING_AWAY, 'the node is stopping');
  }
}

/** `ws://<node>/`. */
@WebSocketGateway({ path: '/' })
export class RootLiveGateway extends LiveGateway {}

/** `ws://<node>/rpc`. */
@WebSocketGateway({ path: '/rpc' })
export class RpcPathLiveGateway extends LiveGateway {}

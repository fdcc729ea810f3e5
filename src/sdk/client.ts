import { request as httpRequest } from 'node:http';
import {
  buildContractCall,
  type ArgumentValue,
  type CallOptions,
  type ContractDescription,
} from './transactions';
import {
  bytesToHex,
  createHasher,
  createSigner,
  keyIdFromPublicKey,
  isCryptoerName,
  isHasherName,
  keyIdToAddress,
  parsePrivateKeyHex,
  utf8,
  type CryptoerName,
  type HasherName,
  type Signer,
} from '../crypto';
import { exactJsonText, parseExactJson } from './json';
import { multipartBody, type MultipartValue } from './multipart';
import {
  LiveSocket,
  liveUrl,
  type PushOf,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionKind,
} from './live';
import type { LoginResult } from '../auth/auth.answers';
import type { TxStatusAnswer } from './tx-status';

export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed with exact numbers: integers beyond 2^53 come back as BigInt. */
  body: T;
}

export interface SessionInfo {
  token: string;
  keyId: string;
  account: string;
  ecosystemId: string;
  /** The node's whole answer. */
  raw: LoginResult;
}

export { exactJsonText, parseExactJson } from './json';

/**
 * A small client of the node, in the dialects real clients speak: REST forms (urlencoded or multipart)
 * and JSON-RPC. It signs logins with the node's configured curve and hasher.
 */
export class IbaxClient {
  token?: string;
  /** The node's network id, learnt at login; transactions are signed for it. */
  networkId?: bigint;
  /** The ecosystem of the current session. */
  ecosystem?: bigint;
  /** The WebSocket connection new subscriptions share, and the session it was opened with. */
  private live?: { token: string | undefined; socket: Promise<LiveSocket>; open?: LiveSocket };
  /** Every connection not yet closed: a new session's subscriptions get a new one while the old ones end. */
  private readonly liveSockets = new Set<LiveSocket>();

  constructor(
    readonly baseUrl: string,
    readonly crypto: { cryptoer: CryptoerName; hasher: HasherName } = {
      cryptoer: 'ECC_Secp256k1',
      hasher: 'KECCAK256',
    },
  ) {}

  /** A client that signs with the node's own curve and hasher, as its `getuid` reports them. */
  static async connect(baseUrl: string): Promise<IbaxClient> {
    const uid = await new IbaxClient(baseUrl).get('/api/v2/getuid', { token: null });
    const { cryptoer, hasher } = (uid.body ?? {}) as { cryptoer?: unknown; hasher?: unknown };
    if (uid.status !== 200 || typeof cryptoer !== 'string' || typeof hasher !== 'string') {
      throw new Error(`${baseUrl} did not answer getuid (${uid.status}): ${uid.text.slice(0, 200)}`);
    }
    if (!isCryptoerName(cryptoer) || !isHasherName(hasher)) {
      throw new Error(`${baseUrl} uses crypto this client does not know: ${cryptoer} + ${hasher}`);
    }
    return new IbaxClient(baseUrl, { cryptoer, hasher });
  }

  get signer(): Signer {
    return createSigner(this.crypto.cryptoer, createHasher(this.crypto.hasher));
  }

  async request(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: RequestInit['body']; token?: string | null } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...init.headers };
    const token = init.token === undefined ? this.token : init.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    if ((method === 'GET' || method === 'HEAD') && init.body !== undefined) {
      return this.requestWithBody(method, path, headers, String(init.body));
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body: init.body });
    return this.answer(response.status, response.headers, await response.text());
  }

  /** fetch refuses a body on GET, which the Go SDK sends to JSON-RPC; node:http does not. */
  private requestWithBody(method: string, path: string, headers: Record<string, string>, body: string) {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const request = httpRequest(
        new URL(path, this.baseUrl),
        { method, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              if (typeof value === 'string') responseHeaders.set(name, value);
            }
            resolve(
              this.answer(response.statusCode ?? 0, responseHeaders, Buffer.concat(chunks).toString('utf8')),
            );
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  private answer(status: number, headers: Headers, text: string): HttpAnswer {
    let body: unknown = text;
    if ((headers.get('content-type') ?? '').includes('json') && text.length > 0) body = parseExactJson(text);
    return { status, headers, text, body };
  }

  get(path: string, options: { token?: string | null } = {}): Promise<HttpAnswer> {
    return this.request('GET', path, options);
  }

  postForm(path: string, fields: Record<string, string>, options: { token?: string | null } = {}) {
    return this.request('POST', path, {
      ...options,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A `multipart/form-data` POST: text fields, and bytes as file parts. */
  postMultipart(
    path: string,
    fields: Record<string, MultipartValue>,
    options: { token?: string | null } = {},
  ) {
    const { body, contentType } = multipartBody(fields);
    return this.request('POST', path, { ...options, headers: { 'Content-Type': contentType }, body });
  }

  /** One JSON-RPC call; returns the whole answer (envelope in `body`). */
  rpcRaw(payload: unknown, options: { token?: string | null; method?: 'POST' | 'GET'; path?: string } = {}) {
    return this.request(options.method ?? 'POST', options.path ?? '/', {
      token: options.token,
      headers: { 'Content-Type': 'application/json' },
      body: typeof payload === 'string' ? payload : exactJsonText(payload),
    });
  }

  /** Calls a JSON-RPC method and returns its result, throwing the JSON-RPC error if there is one. */
  async rpc<T = any>(method: string, params?: unknown, options: { token?: string | null } = {}): Promise<T> {
    const answer = await this.rpcRaw({ jsonrpc: '2.0', id: 1, method, params }, options);
    const envelope = answer.body as { result?: T; error?: { code: number; message: string } };
    if (envelope.error) {
      throw Object.assign(new Error(envelope.error.message), { code: envelope.error.code });
    }
    return envelope.result as T;
  }

  /** getuid → sign "LOGIN"+network id+uid → login, over REST. Keeps the session token. */
  async login(
    privateKeyHex: string,
    options: { ecosystem?: number; roleId?: number; expire?: number; useKeyId?: boolean } = {},
  ): Promise<SessionInfo> {
    const uid = await this.get('/api/v2/getuid', { token: null });
    if (uid.status !== 200) throw new Error(`getuid failed: ${uid.text}`);
    this.networkId = BigInt(uid.body.network_id);
    const { signature, publicKey } = this.signLogin(privateKeyHex, uid.body.network_id, uid.body.uid);
    const fields: Record<string, string> = { signature };
    if (options.useKeyId) fields.key_id = this.accountOf(privateKeyHex);
    else fields.pubkey = publicKey;
    if (options.ecosystem !== undefined) fields.ecosystem = String(options.ecosystem);
    if (options.roleId !== undefined) fields.role_id = String(options.roleId);
    if (options.expire !== undefined) fields.expire = String(options.expire);
    const answer = await this.postForm('/api/v2/login', fields, { token: uid.body.token });
    if (answer.status !== 200) throw new Error(`login failed (${answer.status}): ${answer.text}`);
    return this.keepSession(answer.body);
  }

  /** The same login over JSON-RPC (ibax.getUid + ibax.login). */
  async loginRpc(privateKeyHex: string, options: { ecosystem?: number; namespace?: string } = {}) {
    const namespace = options.namespace ?? 'ibax';
    const uid = await this.rpc(`${namespace}.getUid`, [], { token: null });
    this.networkId = BigInt(uid.network_id);
    const { signature, publicKey } = this.signLogin(privateKeyHex, uid.network_id, uid.uid);
    const result = await this.rpc(
      `${namespace}.login`,
      [{ public_key: publicKey, signature, ecosystem_id: options.ecosystem ?? 1 }],
      { token: uid.token },
    );
    return this.keepSession(result);
  }

  signLogin(privateKeyHex: string, networkId: string, uid: string): { signature: string; publicKey: string } {
    const signer = this.signer;
    const privateKey = parsePrivateKeyHex(privateKeyHex);
    const signature = signer.sign(privateKey, utf8(`LOGIN${networkId}${uid}`));
    return { signature: bytesToHex(signature), publicKey: bytesToHex(signer.publicKey(privateKey)) };
  }

  accountOf(privateKeyHex: string): string {
    const signer = this.signer;
    const publicKey = signer.publicKey(parsePrivateKeyHex(privateKeyHex));
    return keyIdToAddress(keyIdFromPublicKey(publicKey, createHasher(this.crypto.hasher)));
  }

  /** A contract's id and fields, as a call needs them (`GET /contract/{name}`, session required). */
  async contract(name: string): Promise<ContractDescription> {
    const answer = await this.get(`/api/v2/contract/${encodeURIComponent(name)}`);
    if (answer.status !== 200) throw new Error(`contract ${name}: ${answer.text}`);
    return { id: Number(answer.body.id), name: String(answer.body.name), fields: answer.body.fields };
  }

  /** Signs a call of `name` with `privateKeyHex` for this node's network and the session's ecosystem. */
  async buildCall(
    privateKeyHex: string,
    name: string,
    args: Record<string, ArgumentValue> = {},
    options: Partial<CallOptions> = {},
  ) {
    if (this.networkId === undefined) throw new Error('log in first: the network id comes from getuid');
    const contract = await this.contract(name);
    return buildContractCall(this.signer, privateKeyHex, contract, args, {
      networkId: this.networkId,
      ecosystem: this.ecosystem,
      ...options,
    });
  }

  /** Sends transactions as multipart file parts (the Go SDK's way); returns their hashes in order. */
  async sendTransactions(txs: readonly Uint8Array[], options: { via?: 'file' | 'hex' | 'rpc' } = {}) {
    let hashes: Record<string, string>;
    if (options.via === 'rpc') {
      const params = Object.fromEntries(txs.map((tx, i) => [`tx${i}`, Buffer.from(tx).toString('base64')]));
      hashes = (await this.rpc('ibax.sendTx', [params])).hashes;
    } else {
      const fields: Record<string, MultipartValue> = {};
      txs.forEach((tx, i) => {
        fields[`tx${i}`] = options.via === 'hex' ? Buffer.from(tx).toString('hex') : tx;
      });
      const answer = await this.postMultipart('/api/v2/sendTx', fields);
      if (answer.status !== 200) {
        throw Object.assign(new Error(`sendTx: ${answer.text}`), { answer });
      }
      hashes = answer.body.hashes;
    }
    return txs.map((_tx, i) => hashes[`tx${i}`] ?? Object.keys(hashes)[i]);
  }

  async txStatus(hashes: readonly string[]): Promise<Record<string, TxStatusAnswer>> {
    const answer = await this.postForm('/api/v2/txstatus', { data: JSON.stringify({ hashes }) });
    if (answer.status !== 200) throw new Error(`txstatus: ${answer.text}`);
    return answer.body.results;
  }

  /** Polls txstatus until every transaction is in a block or has failed, or the time is up. */
  async waitForTransactions(
    hashes: readonly string[],
    options: { timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<Record<string, TxStatusAnswer>> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const statuses = await this.txStatus(hashes);
      const done = hashes.every((hash) => statuses[hash].blockid !== '' || statuses[hash].errmsg);
      if (done) return statuses;
      if (Date.now() > deadline) throw new Error(`transactions still pending: ${JSON.stringify(statuses)}`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
  }

  /** Builds, sends and waits for one contract call; returns its hash and final status. */
  async call(
    privateKeyHex: string,
    name: string,
    args: Record<string, ArgumentValue> = {},
    options: Partial<CallOptions> & { timeoutMs?: number } = {},
  ): Promise<{ hash: string; status: TxStatusAnswer }> {
    const tx = await this.buildCall(privateKeyHex, name, args, options);
    const [hash] = await this.sendTransactions([tx.bytes]);
    const statuses = await this.waitForTransactions([hash], { timeoutMs: options.timeoutMs });
    return { hash, status: statuses[hash] };
  }

  /**
   * Subscribes to what the node pushes over its WebSocket (`ibax.subscribe`): `newBlocks`, `txStatus` (with
   * `hashes`; ends by itself once each has reached a block or failed) or `notifications` (needs a session:
   * log in first). Every subscription of this client shares one connection, opened with the session token
   * the client holds; it closes once the last subscription ends, or with `close()`.
   *
   *   for await (const block of await client.subscribe('newBlocks')) console.log(block.block_id);
   *   await client.subscribe('txStatus', { hashes, onPush: (status) => console.log(status) });
   */
  async subscribe<K extends SubscriptionKind>(
    kind: K,
    ...[options]: K extends 'txStatus' ? [SubscribeOptions<K>] : [SubscribeOptions<K>?]
  ): Promise<Subscription<PushOf[K]>> {
    const socket = await this.liveSocket();
    return socket.subscribe(kind, (options ?? {}) as SubscribeOptions<K>);
  }

  /** Closes the client's WebSocket connections cleanly; their subscriptions end (`closed`). */
  async close(): Promise<void> {
    const opening = this.live?.socket.catch(() => undefined);
    this.live = undefined;
    const sockets = [...this.liveSockets];
    const pending = await opening;
    if (pending && !sockets.includes(pending)) sockets.push(pending);
    await Promise.all(sockets.map((socket) => socket.close()));
  }

  private liveSocket(): Promise<LiveSocket> {
    const current = this.live;
    if (current && current.token === this.token && (current.open === undefined || current.open.usable)) {
      return current.socket;
    }
    const retired = (socket: LiveSocket) => {
      this.liveSockets.delete(socket);
      if (this.live?.open === socket) this.live = undefined;
    };
    const entry: NonNullable<IbaxClient['live']> = {
      token: this.token,
      socket: LiveSocket.open(liveUrl(this.baseUrl), this.token, retired),
    };
    entry.socket.then(
      (socket) => {
        entry.open = socket;
        this.liveSockets.add(socket);
      },
      () => {
        if (this.live === entry) this.live = undefined;
      },
    );
    this.live = entry;
    return entry.socket;
  }

  private keepSession(result: LoginResult): SessionInfo {
    this.token = result.token;
    this.ecosystem = BigInt(result.ecosystem_id);
    return {
      token: result.token,
      keyId: result.key_id,
      account: result.account,
      ecosystemId: result.ecosystem_id,
      raw: result,
    };
  }
}

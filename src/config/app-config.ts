import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { CryptoerName, HasherName } from '../crypto';
import { environmentSchema, type Environment, type RpcNamespace } from './config.schema';

export interface AppConfig {
  port: number;
  host: string;
  /** The API address other nodes and clients use to reach this node (listed in `honor_nodes`). */
  apiAddress: string;
  tcpAddress: string;
  databaseUrl: string | undefined;
  dataDir: string;
  networkId: bigint;
  cryptoer: CryptoerName;
  hasher: HasherName;
  jwtSecret: string;
  nodeMode: 'normal' | 'clb';
  jsonRpc: { enabled: boolean; namespaces: RpcNamespace[] };
  /**
   * The notification service: the address clients connect to, the secret of their connection tokens, and
   * the server API the node publishes to (unset: notifications are off).
   */
  centrifugo: { url: string | undefined; secret: string; api?: { url: string; key: string } };
  logLevel: Environment['LOG_LEVEL'];
  /** `json`: one JSON object a line (pino); `pretty`: readable lines (pino-pretty). */
  logFormat: 'json' | 'pretty';
  /** One successful request in this many is logged at info (the others at debug); 0: none. */
  requestLogSample: number;
  limits: RequestLimits;
  chainTest: boolean;
  /** Block slot length; unset: from the platform parameters (max_block_generation_time + gap_between_blocks). */
  blockSlotMs?: number;
  network: {
    /** The other honor nodes' API addresses. */
    peers: string[];
    /** Where a new node takes its genesis block from; unset: it makes its own. */
    genesisPeer?: string;
    /** admin.isolatePeers and admin.produceBadBlock (tests only). */
    testSwitches: boolean;
  };
  /** Whether this process may produce blocks (it still needs the chain's producer lock). */
  blockProducer: boolean;
  /** Make blocks in memory first (rows kept between blocks, writes in bulk); false: a savepoint per transaction. */
  /** With other honor nodes, the share of a leader's slot in which it runs transactions. */
  blockBuildShare: number;
  blockWriteBehind: boolean;
  /** On SIGTERM: how long requests and the block under way may take before the node closes anyway. */
  shutdownTimeoutMs: number;
  /** Keys whose transactions keep failing are refused for a while (the reference's badTx/badTime/banTime). */
  keyBans: KeyBanSettings;
  /** How much may wait for a block: past it sendTx refuses at once (E_BUSY) instead of queueing without end. */
  txQueue: { count: number; bytes: number; perKey: number; slots: number };
  /** Bounds of one WebSocket connection (JSON-RPC over WebSocket, subscriptions). */
  webSocket: WebSocketLimits;
  /** Bounds of one page render (page and menu together); past them the answer is E_HEAVYPAGE. */
  pages: PageLimits;
}

export interface WebSocketLimits {
  subscriptions: number;
  messageSize: number;
  messagesPerSecond: number;
  idleTimeoutMs: number;
}

export interface KeyBanSettings {
  /** Bad transactions within `windowMs` that ban a key; 0: keys are never banned. */
  badTxLimit: number;
  windowMs: number;
  banMs: number;
}

export interface PageLimits {
  /** Wall-clock time of a render, ms; 0: none (the reference's `mpgt`). */
  timeMs: number;
  /** Characters of the rendered JSON, and of texts and values inside it. */
  maxSize: number;
  /** Nodes a render may create. */
  maxNodes: number;
}

/** Bounds on what one request may make the node hold or do; each is a setting (README, `.env.example`). */
export interface RequestLimits {
  /** Largest REST body (urlencoded or multipart), bytes. */
  body: number;
  /** Largest JSON-RPC body, bytes. */
  rpcBody: number;
  /** Most calls in one JSON-RPC batch. */
  rpcBatch: number;
  /** Most form fields in one REST request (urlencoded or multipart, query string included). */
  formFields: number;
  /** Largest single form field value, bytes. */
  formFieldSize: number;
  /** Most parts (fields and files) in one multipart body. */
  multipartParts: number;
  /** Largest single multipart file part, bytes. */
  multipartPartSize: number;
  /** Deepest nesting of arrays and objects in a JSON body. */
  jsonDepth: number;
  /** Longest time a request may take, from its first byte to its answer, ms. */
  requestTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads the environment, with `.env` (in the working directory) filling only what the environment leaves
 * unset, and validates every setting. A wrong value names the variable and what it accepts.
 */
export function readEnvironment(
  env: Record<string, string | undefined> = process.env,
  dotenvPath = '.env',
): Environment {
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  // An empty variable means "not set", as in most deployment tools.
  for (const name of Object.keys(merged)) if (merged[name] === '') delete merged[name];
  const parsed = environmentSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '?');
        return `${name}=${JSON.stringify(merged[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  return parsed.data;
}

/** Builds the running configuration; creates the data directory and the secrets it persists there. */
export function resolveConfig(environment: Environment): AppConfig {
  const dataDir = resolve(environment.DATA_DIR);
  try {
    makeDirectory(dataDir);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError([
      `DATA_DIR=${JSON.stringify(environment.DATA_DIR)}: cannot be created (${reason})`,
    ]);
  }
  return {
    port: environment.PORT,
    host: environment.HOST,
    apiAddress: environment.API_ADDRESS ?? `http://${environment.HOST}:${environment.PORT}`,
    tcpAddress: environment.TCP_ADDRESS ?? `${environment.HOST}:7078`,
    databaseUrl: environment.DATABASE_URL || undefined,
    dataDir,
    networkId: environment.NETWORK_ID,
    cryptoer: environment.CRYPTOER,
    hasher: environment.HASHER,
    jwtSecret: environment.JWT_SECRET ?? persistedSecret(join(dataDir, 'jwt.secret')),
    nodeMode: environment.NODE_MODE,
    jsonRpc: { enabled: environment.JSONRPC_ENABLED, namespaces: environment.JSONRPC_NAMESPACES },
    centrifugo: {
      url: environment.CENTRIFUGO_URL,
      secret: environment.CENTRIFUGO_SECRET ?? persistedSecret(join(dataDir, 'centrifugo.secret')),
      api: centrifugoApi(environment),
    },
    logLevel: environment.LOG_LEVEL,
    logFormat: environment.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    requestLogSample: environment.REQUEST_LOG_SAMPLE,
    limits: {
      body: environment.BODY_LIMIT,
      rpcBody: environment.RPC_BODY_LIMIT,
      rpcBatch: environment.RPC_BATCH_LIMIT,
      formFields: environment.FORM_FIELDS_LIMIT,
      formFieldSize: environment.FORM_FIELD_SIZE,
      multipartParts: environment.MULTIPART_PARTS_LIMIT,
      multipartPartSize: environment.MULTIPART_PART_SIZE,
      jsonDepth: environment.JSON_DEPTH_LIMIT,
      requestTimeoutMs: environment.REQUEST_TIMEOUT_MS,
    },
    chainTest: environment.CHAIN_TEST,
    blockSlotMs: environment.BLOCK_SLOT_MS,
    network: {
      peers: environment.NETWORK_PEERS,
      genesisPeer: environment.GENESIS_PEER?.replace(/\/+$/, ''),
      testSwitches: environment.NETWORK_TEST_SWITCHES,
    },
    blockProducer: environment.BLOCK_PRODUCER,
    blockWriteBehind: environment.BLOCK_WRITE_BEHIND,
    blockBuildShare: environment.BLOCK_BUILD_SHARE,
    shutdownTimeoutMs: environment.SHUTDOWN_TIMEOUT_MS,
    webSocket: {
      subscriptions: environment.WS_SUBSCRIPTIONS_LIMIT,
      messageSize: environment.WS_MESSAGE_SIZE,
      messagesPerSecond: environment.WS_MESSAGES_PER_SECOND,
      idleTimeoutMs: environment.WS_IDLE_TIMEOUT_MS,
    },
    txQueue: {
      count: environment.TX_QUEUE_LIMIT,
      bytes: environment.TX_QUEUE_BYTES,
      perKey: environment.TX_QUEUE_PER_KEY,
      slots: environment.TX_QUEUE_SLOTS,
    },
    keyBans: {
      badTxLimit: environment.BAN_BAD_TX,
      windowMs: environment.BAN_BAD_TIME,
      banMs: environment.BAN_TIME,
    },
    pages: {
      timeMs: environment.PAGE_TIME_LIMIT_MS,
      maxSize: environment.PAGE_SIZE_LIMIT,
      maxNodes: environment.PAGE_NODES_LIMIT,
    },
  };
}

/** The server API needs both its address and its key; one without the other is a mistake worth stopping for. */
function centrifugoApi(environment: Environment): AppConfig['centrifugo']['api'] {
  const { CENTRIFUGO_API_URL: url, CENTRIFUGO_API_KEY: key } = environment;
  if (url && key) return { url, key };
  if (url)
    throw new ConfigError([`CENTRIFUGO_API_KEY="": needed with CENTRIFUGO_API_URL=${JSON.stringify(url)}`]);
  if (key) throw new ConfigError(['CENTRIFUGO_API_URL="": needed with CENTRIFUGO_API_KEY']);
  return undefined;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return resolveConfig(readEnvironment(env));
}

/**
 * `mkdir -p`, one level at a time: Node's own `recursive` mkdir loops forever where mkdir answers ENOENT
 * under a parent that exists (`DATA_DIR=/proc/x`).
 */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    if (code !== 'ENOENT' || existsSync(dirname(dir)) || dirname(dir) === dir) throw error;
    makeDirectory(dirname(dir));
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** A secret generated once and kept in the data directory, so tokens survive restarts. */
function persistedSecret(path: string): string {
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length >= 16) return secret;
  }
  const secret = randomBytes(32).toString('hex');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return secret;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

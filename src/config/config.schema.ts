import { z } from 'zod';

export const CRYPTOERS = ['ECC_Secp256k1', 'ECC_P256'] as const;
export const HASHERS = ['KECCAK256', 'SHA256', 'SHA3_256'] as const;
export const NODE_MODES = ['normal', 'clb'] as const;
export const LOG_FORMATS = ['json', 'pretty'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** `chain` and `ibax` are two names of the same namespace; `rpc` is always served. */
export const RPC_NAMESPACES = ['ibax', 'chain', 'net', 'rpc', 'admin', 'debug'] as const;
export type RpcNamespace = (typeof RPC_NAMESPACES)[number];

const booleanText = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), {
    message: 'accepts true, false, 1, 0, yes or no',
  })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: 'accepts a whole number' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { message: `accepts a whole number from 1 to ${max}` });

const wholeNumber = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: 'accepts a whole number' })
    .transform(Number)
    .refine((n) => n <= max, { message: `accepts a whole number from 0 to ${max}` });

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration as Go writes one ("90s", "5m", "1h30m", "1.5h"): the reference's operators pass them so. A
 * bare number is refused, since seconds and minutes would both be guesses.
 */
const duration = (maxMs: number) =>
  z
    .string()
    .trim()
    .regex(/^(\d+(\.\d+)?(ms|s|m|h))+$/, { message: 'accepts a duration such as 90s, 5m or 1h30m' })
    .transform((text) =>
      [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)].reduce(
        (total, [, amount, unit]) => total + Number(amount) * DURATION_UNITS_MS[unit],
        0,
      ),
    )
    .refine((ms) => ms >= 1000 && ms <= maxMs, {
      message: `accepts a duration from 1s to ${maxMs / 3_600_000}h`,
    });

/** A comma-separated list of http(s) URLs, each without a trailing slash. */
const httpUrlList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim().replace(/\/+$/, ''))
      .filter((s) => s !== ''),
  )
  .refine((list) => list.every((url) => /^https?:\/\/[^\s/]+$/.test(url)), {
    message: 'accepts http:// or https:// addresses (scheme, host and port), comma-separated',
  });

const namespaceList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every((n) => (RPC_NAMESPACES as readonly string[]).includes(n)), {
    message: `accepts a comma-separated list of ${RPC_NAMESPACES.join(', ')}`,
  })
  .transform((list) => list as RpcNamespace[]);

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^(https?|wss?):\/\/[^\s/]+/.test(v), {
    message: 'accepts an http://, https://, ws:// or wss:// URL',
  });

/**
 * Every setting, as read from the environment (and `.env`). Names are fixed: operators rely on them. Each
 * description is the setting's line in `--help` (help.ts).
 */
export const environmentSchema = z.object({
  PORT: positiveInt(65535).default(7079).describe('HTTP port of the API (REST and JSON-RPC share it)'),
  HOST: z
    .string()
    .trim()
    .min(1, { message: 'accepts a host name or IP address' })
    .default('127.0.0.1')
    .describe('interface to listen on'),
  API_ADDRESS: httpUrl
    .optional()
    .describe('API address the node announces in honor_nodes (written at genesis); unset: http://HOST:PORT'),
  TCP_ADDRESS: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('peer address announced in honor_nodes; unset: HOST:7078'),
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), {
      message: 'accepts a postgres:// or postgresql:// URL (leave unset for the embedded database)',
    })
    .optional()
    .describe('postgres://… of a PostgreSQL server; unset: embedded PostgreSQL in DATA_DIR/postgres'),
  DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default('./data')
    .describe('keys, persisted secrets, embedded database; one node at a time (node.lock)'),
  NETWORK_ID: z
    .string()
    .trim()
    .regex(/^\d{1,18}$/, { message: 'accepts a whole number from 1 to 999999999999999999' })
    .transform((v) => BigInt(v))
    .refine((n) => n >= 1n, { message: 'accepts a whole number from 1 to 999999999999999999' })
    .default(1n)
    .describe('network identifier (part of signed logins and transactions)'),
  CRYPTOER: z
    .enum(CRYPTOERS, { message: `accepts ${CRYPTOERS.join(' or ')}` })
    .default('ECC_Secp256k1')
    .describe('ECC_Secp256k1 or ECC_P256 (Weaver needs ECC_P256)'),
  HASHER: z
    .enum(HASHERS, { message: `accepts ${HASHERS.join(', ')}` })
    .default('KECCAK256')
    .describe('KECCAK256, SHA256 or SHA3_256 (Weaver needs SHA256)'),
  JWT_SECRET: z
    .string()
    .min(16, { message: 'accepts a secret of at least 16 characters (leave unset to generate one)' })
    .optional()
    .describe('token secret, at least 16 characters; unset: generated once into DATA_DIR/jwt.secret'),
  NODE_MODE: z
    .enum(NODE_MODES, { message: 'accepts normal or clb' })
    .default('normal')
    .describe('normal or clb (a CLB node has no blockchain routes)'),
  JSONRPC_ENABLED: booleanText.default(true).describe('serve JSON-RPC at / and /rpc'),
  JSONRPC_NAMESPACES: namespaceList
    .default(['ibax', 'chain', 'net'])
    .describe('namespaces served: ibax, chain, net, admin, debug (rpc always)'),
  CENTRIFUGO_URL: httpUrl
    .optional()
    .describe('address clients connect to for notifications (config/centrifugo, getNetwork)'),
  CENTRIFUGO_API_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/]+/.test(v), { message: 'accepts an http:// or https:// URL' })
    .optional()
    .describe("Centrifugo's server API the node publishes to (with CENTRIFUGO_API_KEY); unset: none"),
  CENTRIFUGO_API_KEY: z.string().min(1).optional().describe("the key of Centrifugo's server API (X-API-Key)"),
  CENTRIFUGO_SECRET: z
    .string()
    .optional()
    .describe('secret of the notify_key tokens; unset: generated into DATA_DIR/centrifugo.secret'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { message: `accepts ${LOG_LEVELS.join(', ')}` })
    .default('info')
    .describe('fatal, error, warn, info, debug, trace or silent'),
  LOG_FORMAT: z
    .enum(LOG_FORMATS, { message: 'accepts json or pretty' })
    .optional()
    .describe('json or pretty (readable lines); unset: pretty when stdout is a terminal, else json'),
  REQUEST_LOG_SAMPLE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(100)
    .describe('one successful request in this many is logged at info (the others at debug); 0: none'),
  BODY_LIMIT: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest REST request body, bytes'),
  RPC_BODY_LIMIT: positiveInt(64 * 1024 * 1024)
    .default(5 * 1024 * 1024)
    .describe('largest JSON-RPC request body, bytes'),
  RPC_BATCH_LIMIT: positiveInt(100_000).default(1000).describe('calls in one JSON-RPC batch'),
  FORM_FIELDS_LIMIT: positiveInt(100_000)
    .default(1000)
    .describe('fields of a form body, keys of a query string'),
  FORM_FIELD_SIZE: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('bytes of one form field value'),
  MULTIPART_PARTS_LIMIT: positiveInt(100_000).default(1000).describe('parts of a multipart body'),
  MULTIPART_PART_SIZE: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('bytes of one multipart file part'),
  JSON_DEPTH_LIMIT: positiveInt(10_000).default(64).describe('nesting depth of a JSON-RPC body'),
  WS_SUBSCRIPTIONS_LIMIT: positiveInt(100_000)
    .default(100)
    .describe('subscriptions one WebSocket connection may hold'),
  WS_MESSAGE_SIZE: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest WebSocket message a client may send, bytes'),
  WS_MESSAGES_PER_SECOND: positiveInt(100_000)
    .default(100)
    .describe('messages one WebSocket connection may send a second (more: an error each)'),
  WS_IDLE_TIMEOUT_MS: positiveInt(3_600_000)
    .default(60_000)
    .describe('a WebSocket connection that answers no ping for this long is closed'),
  REQUEST_TIMEOUT_MS: positiveInt(3_600_000)
    .default(30_000)
    .describe("time from a request's arrival to its answer (later: 503)"),
  CHAIN_TEST: booleanText.default(false).describe('mark the chain as a test chain at genesis'),
  BLOCK_SLOT_MS: positiveInt(3_600_000)
    .optional()
    .describe('block slot length; unset: max_block_generation_time + gap_between_blocks'),
  NETWORK_PEERS: httpUrlList.describe(
    'API addresses of the other honor nodes, comma-separated (blocks, transactions and catch-up); unset: alone',
  ),
  GENESIS_PEER: httpUrl
    .optional()
    .describe('API address of the node whose genesis block a new node takes (unset: it makes its own)'),
  NETWORK_TEST_SWITCHES: booleanText
    .default(false)
    .describe('tests only: admin.isolatePeers and admin.produceBadBlock over JSON-RPC'),
  BLOCK_PRODUCER: booleanText
    .default(true)
    .describe('false: serve the API and admit transactions, never make blocks'),
  BLOCK_BUILD_SHARE: z
    .string()
    .trim()
    .regex(/^(0?\.\d+|1(\.0+)?)$/, { message: 'accepts a share of the slot above 0, at most 1 (e.g. 0.5)' })
    .transform(Number)
    .refine((share) => share > 0 && share <= 1, {
      message: 'accepts a share of the slot above 0, at most 1 (e.g. 0.5)',
    })
    .default(0.5)
    .describe(
      "with other honor nodes: the share of a leader's slot in which it runs transactions (the rest is for peers to replay its blocks)",
    ),
  BLOCK_WRITE_BEHIND: booleanText
    .default(true)
    .describe('make blocks in memory first; false: a savepoint per transaction'),
  BAN_BAD_TX: wholeNumber(1_000_000)
    .default(5)
    .describe('bad transactions of one key within BAN_BAD_TIME that ban it (0: no bans)'),
  BAN_BAD_TIME: duration(30 * 24 * 3_600_000)
    .prefault('5m')
    .describe('the window in which BAN_BAD_TX bad transactions ban a key (e.g. 5m)'),
  BAN_TIME: duration(30 * 24 * 3_600_000)
    .prefault('15m')
    .describe('how long a banned key is refused (e.g. 15m)'),
  TX_QUEUE_LIMIT: positiveInt(10_000_000)
    .default(5000)
    .describe('transactions admitted and not yet in a block, at most; past it sendTx answers 503 E_BUSY'),
  TX_QUEUE_SLOTS: wholeNumber(1000)
    .default(3)
    .describe(
      'transactions waiting, at most what the chain mined in this many slots lately (never fewer than a fifth of TX_QUEUE_LIMIT), and none while the oldest has waited longer; 0: TX_QUEUE_LIMIT alone',
    ),
  TX_QUEUE_BYTES: positiveInt(4_294_967_295)
    .default(33_554_432)
    .describe('bytes of those transactions, at most (sendTx: 503 E_BUSY past it)'),
  TX_QUEUE_PER_KEY: positiveInt(10_000_000)
    .default(1000)
    .describe("one key's transactions among them, at most (sendTx: 503 E_BUSY past it)"),
  SHUTDOWN_TIMEOUT_MS: positiveInt(600_000)
    .default(10_000)
    .describe('on SIGTERM/SIGINT: how long requests and the block under way may take'),
  PAGE_TIME_LIMIT_MS: wholeNumber(3_600_000).default(3000).describe('time of one page render, ms (0: none)'),
  PAGE_SIZE_LIMIT: positiveInt(1_000_000_000)
    .default(8_000_000)
    .describe('characters of a rendered page tree'),
  PAGE_NODES_LIMIT: positiveInt(100_000_000).default(100_000).describe('nodes one page render may create'),
});

export type Environment = z.infer<typeof environmentSchema>;

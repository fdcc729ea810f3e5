import { z } from 'zod';

export const CRYPTOERS = ['ECC_Secp256k1', 'ECC_P256'] as const;
export const HASHERS = ['KECCAK256', 'SHA256', 'SHA3_256'] as const;
export const NODE_MODES = ['normal', 'clb'] as const;
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

/** Every setting, as read from the environment (and `.env`). Names are fixed: operators rely on them. */
export const environmentSchema = z.object({
  PORT: positiveInt(65535).default(7079),
  HOST: z.string().trim().min(1, { message: 'accepts a host name or IP address' }).default('127.0.0.1'),
  API_ADDRESS: httpUrl.optional(),
  TCP_ADDRESS: z.string().trim().min(1).optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), {
      message: 'accepts a postgres:// or postgresql:// URL (leave unset for the embedded database)',
    })
    .optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  NETWORK_ID: z
    .string()
    .trim()
    .regex(/^\d{1,18}$/, { message: 'accepts a whole number from 1 to 999999999999999999' })
    .transform((v) => BigInt(v))
    .refine((n) => n >= 1n, { message: 'accepts a whole number from 1 to 999999999999999999' })
    .default(1n),
  CRYPTOER: z.enum(CRYPTOERS, { message: `accepts ${CRYPTOERS.join(' or ')}` }).default('ECC_Secp256k1'),
  HASHER: z.enum(HASHERS, { message: `accepts ${HASHERS.join(', ')}` }).default('KECCAK256'),
  JWT_SECRET: z
    .string()
    .min(16, { message: 'accepts a secret of at least 16 characters (leave unset to generate one)' })
    .optional(),
  NODE_MODE: z.enum(NODE_MODES, { message: 'accepts normal or clb' }).default('normal'),
  JSONRPC_ENABLED: booleanText.default(true),
  JSONRPC_NAMESPACES: namespaceList.default(['ibax', 'chain', 'net']),
  CENTRIFUGO_URL: httpUrl.optional(),
  CENTRIFUGO_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `accepts ${LOG_LEVELS.join(', ')}` }).default('info'),
  REQUEST_LOG_SAMPLE: z.coerce.number().int().min(0).max(1_000_000).default(100),
  BODY_LIMIT: positiveInt(64 * 1024 * 1024).default(1024 * 1024),
  RPC_BODY_LIMIT: positiveInt(64 * 1024 * 1024).default(5 * 1024 * 1024),
  RPC_BATCH_LIMIT: positiveInt(100_000).default(1000),
  FORM_FIELDS_LIMIT: positiveInt(100_000).default(1000),
  FORM_FIELD_SIZE: positiveInt(64 * 1024 * 1024).default(1024 * 1024),
  MULTIPART_PARTS_LIMIT: positiveInt(100_000).default(1000),
  MULTIPART_PART_SIZE: positiveInt(64 * 1024 * 1024).default(1024 * 1024),
  JSON_DEPTH_LIMIT: positiveInt(10_000).default(64),
  REQUEST_TIMEOUT_MS: positiveInt(3_600_000).default(30_000),
  CHAIN_TEST: booleanText.default(false),
  BLOCK_SLOT_MS: positiveInt(3_600_000).optional(),
  BLOCK_PRODUCER: booleanText.default(true),
  BLOCK_WRITE_BEHIND: booleanText.default(true),
  SHUTDOWN_TIMEOUT_MS: positiveInt(600_000).default(10_000),
  PAGE_TIME_LIMIT_MS: wholeNumber(3_600_000).default(3000),
  PAGE_SIZE_LIMIT: positiveInt(1_000_000_000).default(8_000_000),
  PAGE_NODES_LIMIT: positiveInt(100_000_000).default(100_000),
});

export type Environment = z.infer<typeof environmentSchema>;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'lossless-json';

/**
 * Examples of every REST operation and JSON-RPC method, recorded from a real node by
 * `test/ops/api-examples.e2e.ts` (`UPDATE_API_EXAMPLES=1` rewrites the file; without it the test fails when
 * what the node answers no longer has the recorded shape), and shown in the OpenAPI document and
 * `rpc.discover`. Long arrays and strings are cut (see `trimForExample`).
 *
 * The file is read beside the running code when a document is first built: here in the sources, beside the
 * bundle when bundled (scripts/bundle.cjs copies it, as nest-cli.json's assets do).
 */
export const API_EXAMPLES_FILE = join(__dirname, 'examples.json');

export interface RestExample {
  /**
   * The request as sent: method, path with its query string, the form of a POST (or the JSON body of a
   * JSON-RPC call), whether a session was sent.
   */
  request: {
    method: 'GET' | 'POST';
    path: string;
    form?: Record<string, string>;
    json?: unknown;
    session: boolean;
  };
  status: number;
  /** The JSON answer, or for other media types the text (cut) or a note of the bytes' size and type. */
  response: unknown;
  /** The answer's media type. */
  type: string;
}

export interface RpcExample {
  /** `params` as sent: by position, or the one object of a single-object method. */
  params: unknown[] | Record<string, unknown>;
  result: unknown;
}

export interface ApiExamples {
  /** By OpenAPI operationId (`Blocks.block`). */
  rest: Record<string, RestExample>;
  /** By declared method: `chain.getBalance` serves as `ibax.getBalance` and `chain.getBalance`. */
  rpc: Record<string, RpcExample>;
}

/** JSON with the node's integer rule: integers beyond 2^53 stay exact, as BigInt (int64 key ids). */
export function parseExampleJson(text: string): unknown {
  return parse(text, undefined, (value) => {
    if (/^-?\d+$/.test(value) && !Number.isSafeInteger(Number(value))) return BigInt(value);
    return Number(value);
  });
}

let loaded: ApiExamples | undefined;

export function apiExamples(): ApiExamples {
  return (loaded ??= parseExampleJson(readFileSync(API_EXAMPLES_FILE, 'utf8')) as ApiExamples);
}

const LONGEST_ARRAY = 3;
const LONGEST_STRING = 300;

/**
 * An answer made short enough to read in a document: arrays keep their first three items, strings their
 * first 300 characters (with "…"); numbers, keys and the structure stay as answered.
 */
export function trimForExample(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > LONGEST_STRING ? `${value.slice(0, LONGEST_STRING)}…` : value;
  }
  if (Array.isArray(value)) return value.slice(0, LONGEST_ARRAY).map(trimForExample);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimForExample(item)]));
  }
  return value;
}

/** A copy for consumers that hold numbers as doubles (Swagger UI's page): BigInt become numbers. */
export function withoutBigInts<T>(value: T): T {
  if (typeof value === 'bigint') return Number(value) as T;
  if (Array.isArray(value)) return value.map(withoutBigInts) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutBigInts(item)])) as T;
  }
  return value;
}

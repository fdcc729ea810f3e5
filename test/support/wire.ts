import { JwtService } from '@nestjs/jwt';
import { expect } from 'vitest';

export type WireType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

function wireType(value: unknown): WireType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint' || typeof value === 'number') return 'number';
  return typeof value as WireType | 'undefined';
}

/** Asserts the exact member names, in order, and the JSON type of each (string vs number matters on the wire). */
export function expectShape(value: unknown, shape: Record<string, WireType>): void {
  expect(wireType(value)).toBe('object');
  expect(Object.keys(value as object)).toEqual(Object.keys(shape));
  for (const [name, type] of Object.entries(shape)) {
    expect(wireType((value as Record<string, unknown>)[name]), `type of ${name}`).toBe(type);
  }
}

/** The REST error envelope: `{error, msg, params}`, JSON content type. */
export function expectRestError(
  answer: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
  message?: string | RegExp,
): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expectShape(answer.body, { error: 'string', msg: 'string', params: 'array' });
  expect(answer.body.error).toBe(code);
  if (typeof message === 'string') expect(answer.body.msg).toBe(message);
  else if (message) expect(answer.body.msg).toMatch(message);
}

/** A JWT signed like the node's own (or with another secret, or with any claims), for token tests. */
export function craftToken(secret: string, claims: Record<string, unknown>): string {
  return new JwtService({ secret }).sign(claims, { algorithm: 'HS256', noTimestamp: true });
}

/** An unsigned token (`alg: none`), which must never be accepted. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 200 ms until it holds; throws naming `what` once `timeoutMs` has passed. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(200);
  }
}

/** `ecosystemInfo`'s wire shape (json-rpc.md), checked by more than one suite. */
export const ECOSYSTEM_INFO: Record<string, WireType> = {
  id: 'number',
  name: 'string',
  digits: 'number',
  token_symbol: 'string',
  token_name: 'string',
  total_amount: 'string',
  is_withdraw: 'boolean',
  withdraw: 'string',
  is_emission: 'boolean',
  emission: 'string',
  introduction: 'string',
  logo: 'number',
  creator: 'string',
};

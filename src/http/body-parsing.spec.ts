import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLimits } from '../config';
import type { ApiError } from '../common/api-error';
import type { ApiRequest } from './api-request';
import { bodyParsing } from './body-parsing';

const LIMITS: RequestLimits = {
  body: 64 * 1024,
  rpcBody: 64 * 1024,
  rpcBatch: 100,
  formFields: 20,
  formFieldSize: 256,
  multipartParts: 20,
  multipartPartSize: 1024,
  jsonDepth: 32,
  requestTimeoutMs: 10_000,
};

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(
    bodyParsing(LIMITS, (error: ApiError, _req, res) => {
      res.status(error.status).json({ error: error.code, msg: error.message });
    }),
  );
  app.post('/form', (req, res) => {
    res.json({ body: req.body as unknown });
  });
  // The JSON-RPC path: the body's bytes as they came.
  app.post('/', (req, res) => {
    res.json({ raw: (req as ApiRequest).rawBody?.toString('base64'), body: Buffer.isBuffer(req.body) });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The answer to a form body sent with a content type: its status and text. */
async function send(body: Buffer, contentType: string): Promise<string> {
  const answer = await fetch(`${base}/form`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return `${answer.status} ${await answer.text()}`;
}

const piece = fc.oneof(
  fc.constantFrom(
    'a',
    'B',
    'name',
    '__proto__',
    'constructor',
    'x[y]',
    'x[]',
    'a.b',
    '+',
    '%20',
    '%zz',
    '%C3%A9',
  ),
  fc.constantFrom('%', '%E2%82', '%FF', '=', '==', '&', '&&', ';', '[', ']', '[0]', 'é', '中', '😀'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const forms = fc.oneof(
  { weight: 5, arbitrary: fc.array(piece, { maxLength: 30 }).map((parts) => Buffer.from(parts.join(''))) },
  // Too many fields, and a field too large.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 15, max: 30 }).map((n) => Buffer.from(Array(n).fill('k=v').join('&'))),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 200, max: 300 }).map((n) => Buffer.from(`big=${'x'.repeat(n)}`)),
  },
  // Bytes that are not UTF-8.
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes)) },
);

describe('urlencoded bodies', () => {
  it('read the short way exactly as body-parser reads them', async () => {
    await fc.assert(
      fc.asyncProperty(forms, async (body) => {
        // A parameter other than charset sends the same body through body-parser.
        const slow = await send(body, 'application/x-www-form-urlencoded; x=1');
        expect(await send(body, 'application/x-www-form-urlencoded')).toBe(slow);
        expect(await send(body, 'Application/X-WWW-Form-Urlencoded; charset=UTF-8')).toBe(slow);
      }),
      { numRuns: 400 },
    );
  });

  it('still refuses what only body-parser handles: another charset, and compressed bodies it cannot read', async () => {
    expect(await send(Buffer.from('a=1'), 'application/x-www-form-urlencoded; charset=koi8-x')).toMatch(
      /^415 /,
    );
    const gzipped = await fetch(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: Buffer.from('not gzip'),
    });
    expect(gzipped.status).toBe(400);
  });
});

describe('whole bodies (JSON-RPC)', () => {
  /** Sent with its length (the short way), or chunked (through body-parser). */
  async function sendWhole(body: Buffer, chunked: boolean): Promise<string> {
    const answer = await fetch(`${base}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked ? new Blob([body]).stream() : body,
      duplex: 'half',
    } as RequestInit);
    return `${answer.status} ${await answer.text()}`;
  }

  it('read the short way exactly as body-parser reads them, up to the limit and beyond', async () => {
    const sizes = fc.oneof(
      fc.nat(64),
      fc.constantFrom(0, 16 * 1024, 16 * 1024 + 1, 64 * 1024, 64 * 1024 + 1),
    );
    await fc.assert(
      fc.asyncProperty(sizes, fc.nat(255), async (size, fill) => {
        const body = Buffer.alloc(size, fill);
        expect(await sendWhole(body, false)).toBe(await sendWhole(body, true));
      }),
      { numRuns: 40, seed: 28 },
    );
  });
});

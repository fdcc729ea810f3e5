import { beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './support/log';
import { useTestNode, type TestNode } from './support/node';
import { expectRestError } from './support/wire';

const { lines: logLines, destination: logDestination } = capturedLog();

/** Every bound of the request path set small, so each can be crossed by a request of a few bytes. */
const running = useTestNode({
  env: {
    LOG_LEVEL: 'warn',
    BODY_LIMIT: '4096',
    RPC_BODY_LIMIT: '8192',
    RPC_BATCH_LIMIT: '5',
    FORM_FIELDS_LIMIT: '10',
    FORM_FIELD_SIZE: '100',
    MULTIPART_PARTS_LIMIT: '6',
    MULTIPART_PART_SIZE: '200',
    JSON_DEPTH_LIMIT: '8',
  },
  logDestination,
});
let node: TestNode;

beforeAll(() => {
  node = running.node;
});

function multipart(parts: { name?: string; filename?: string; data: string }[]): RequestInit {
  const boundary = 'limitsBoundary';
  const body = parts
    .map((part) => {
      const name = part.name === undefined ? '' : `; name="${part.name}"`;
      const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
      return `--${boundary}\r\nContent-Disposition: form-data${name}${filename}\r\n\r\n${part.data}\r\n`;
    })
    .join('');
  return {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: `${body}--${boundary}--\r\n`,
  } as RequestInit;
}

const post = (path: string, init: RequestInit) =>
  node.client.request('POST', path, init as { headers: Record<string, string>; body: string });

describe('multipart bodies', () => {
  it('take a part with an empty or missing name as a field named "" and keep serving', async () => {
    // This body once threw inside the parser's event callback and stopped the process.
    for (const parts of [
      [{ name: '', data: 'value' }],
      [{ data: 'value' }],
      [{ name: '', filename: 'f', data: 'x' }],
    ]) {
      const answer = await post('/api/v2/login', multipart(parts));
      expectRestError(answer, 400, 'E_UNKNOWNUID');
    }
    expect((await node.client.get('/api/v2/version')).status).toBe(200);
  });

  it('refuse too many parts, a field or a file over its size, with 413 in the envelope', async () => {
    const parts = Array.from({ length: 7 }, (_, i) => ({ name: `f${i}`, data: '1' }));
    expectRestError(
      await post('/api/v2/login', multipart(parts)),
      413,
      'E_SERVER',
      'too many multipart parts (limit 6)',
    );
    expectRestError(
      await post('/api/v2/login', multipart([{ name: 'data', data: 'x'.repeat(101) }])),
      413,
      'E_SERVER',
      'form field "data" is larger than 100 bytes',
    );
    expectRestError(
      await post('/api/v2/login', multipart([{ name: 'file', filename: 'a.bin', data: 'x'.repeat(201) }])),
      413,
      'E_SERVER',
      'file part larger than 200 bytes',
    );
    const exactFile = await post(
      '/api/v2/login',
      multipart([{ name: 'file', filename: 'a.bin', data: 'x'.repeat(200) }]),
    );
    expectRestError(exactFile, 400, 'E_UNKNOWNUID');
    const exactField = await post('/api/v2/login', multipart([{ name: 'data', data: 'x'.repeat(100) }]));
    expectRestError(exactField, 400, 'E_UNKNOWNUID');
  });

  it('refuse a body without its boundary as malformed', async () => {
    const answer = await post('/api/v2/login', {
      headers: { 'Content-Type': 'multipart/form-data' },
      body: '--x\r\n\r\n',
    });
    expectRestError(answer, 400, 'E_SERVER', /^malformed request body: /);
  });
});

describe('urlencoded bodies', () => {
  it('refuse more fields than the limit, and a field over its size', async () => {
    const fields = Array.from({ length: 11 }, (_, i) => `f${i}=1`).join('&');
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expectRestError(
      await post('/api/v2/login', { headers: form, body: fields }),
      413,
      'E_SERVER',
      'too many form fields (limit 10)',
    );
    expectRestError(
      await post('/api/v2/login', { headers: form, body: `signature=${'a'.repeat(101)}` }),
      413,
      'E_SERVER',
      'form field "signature" is larger than 100 bytes',
    );
    expectRestError(
      await post('/api/v2/login', { headers: form, body: `signature=${'a'.repeat(100)}` }),
      400,
      'E_UNKNOWNUID',
    );
  });
});

describe('JSON-RPC bodies', () => {
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'ibax.maxBlockId' });

  it('answer a batch over the limit with one error, and a batch at the limit in full', async () => {
    const over = await node.client.rpcRaw([1, 2, 3, 4, 5, 6].map(call));
    expect(over.status).toBe(200);
    expect(over.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batch of 6 calls exceeds the limit of 5' },
    });
    const full = await node.client.rpcRaw([1, 2, 3, 4, 5].map(call));
    expect((full.body as { result: number }[]).map((reply) => reply.result)).toEqual([1, 1, 1, 1, 1]);
  });

  it('refuse nesting deeper than the limit before parsing', async () => {
    const deep = await node.client.rpcRaw(
      `{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":${'['.repeat(8)}1${']'.repeat(8)}}`,
    );
    expect(deep.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: nesting deeper than 8' },
    });
    const withinLimit = await node.client.rpcRaw(
      `{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":${'['.repeat(6)}1${']'.repeat(6)}}`,
    );
    expect(withinLimit.body.error.code).toBe(-32602);
    const huge = await node.client.rpcRaw('['.repeat(8000));
    expect(huge.body.error).toEqual({ code: -32700, message: 'Parse error: nesting deeper than 8' });
  });

  it('refuse a body over the JSON-RPC limit with 413', async () => {
    const answer = await node.client.rpcRaw(JSON.stringify({ ...call(1), params: ['x'.repeat(8192)] }));
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe(-32700);
    expect(answer.body.error.message).toBe('Parse error: request body too large (limit 8192 bytes)');
  });
});

describe('answers', () => {
  it('are written once: JSON-RPC calls and probes log no error', async () => {
    const before = logLines.length;
    for (let i = 0; i < 5; i++) {
      expect(await node.client.rpc('ibax.maxBlockId')).toBe(1);
      expect((await node.client.get('/readyz')).status).toBe(200);
      expect((await node.client.get('/healthz')).status).toBe(200);
    }
    expect(logLines.slice(before).filter((line) => line.level >= 40)).toEqual([]);
  });
});

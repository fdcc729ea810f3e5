import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './support/log';
import { useTestNode, type TestNode } from './support/node';

const { lines: logLines, destination: logDestination } = capturedLog();

const running = useTestNode({ env: { LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: '400' }, logDestination });
let node: TestNode;

beforeAll(() => {
  node = running.node;
});

interface RawAnswer {
  status: number;
  headers: string;
  body: unknown;
  elapsedMs: number;
}

/**
 * Sends a request's head and the first bytes of a body it promises to be longer, then goes quiet: the
 * slow client a deadline exists for. Resolves with the first complete answer on the socket.
 */
function stalledRequest(path: string, contentType: string, firstBytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = text.slice(0, headEnd);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      const body = received.subarray(Buffer.byteLength(text.slice(0, headEnd + 4)));
      if (body.length < length) return;
      socket.destroy();
      resolve({
        status: Number(head.split(' ')[1]),
        headers: head,
        body: JSON.parse(body.toString('utf8')),
        elapsedMs: Date.now() - started,
      });
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: 1000\r\n\r\n${firstBytes}`,
    );
  });
}

describe('a request unanswered at its deadline', () => {
  it('gets 503 in the REST envelope', async () => {
    const answer = await stalledRequest('/api/v2/login', 'application/x-www-form-urlencoded', 'signature=ab');
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatch(/\r\ncontent-type: application\/json/i);
    expect(answer.body).toEqual({
      error: 'E_SERVER',
      msg: 'the request took longer than 400 ms',
      params: [],
    });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(390);
  });

  it('gets 503 in the JSON-RPC envelope', async () => {
    const answer = await stalledRequest('/', 'application/json', '{"jsonrpc":"2.0","id":7,');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'the request took longer than 400 ms' },
    });
  });

  it('is logged as a warning, and the node serves the next request normally', async () => {
    expect(logLines.filter((line) => line.msg === 'request exceeded its time limit')).toHaveLength(2);
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
    expect(await node.client.rpc('ibax.maxBlockId')).toBe(1);
    expect((await node.client.get('/api/v2/version')).status).toBe(200);
  });
});

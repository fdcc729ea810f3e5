import { beforeAll, describe, expect, it } from 'vitest';
import { capturedLog, type LogLine } from './support/log';
import { useTestNode, type TestNode } from './support/node';

/** The request log's lines: request, answer and time. */
interface RequestLine extends LogLine {
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

const { lines, destination: logDestination } = capturedLog();

const running = useTestNode({ env: { LOG_LEVEL: 'info', REQUEST_LOG_SAMPLE: '3' }, logDestination });
let node: TestNode;

beforeAll(() => {
  node = running.node;
});

const completed = () => lines.filter((line) => line.msg === 'request completed') as RequestLine[];

describe('request ids and the request log', () => {
  it('echo a sane X-Request-Id and give every other request an id of its own', async () => {
    const given = await fetch(`${node.url}/api/v2/version`, { headers: { 'X-Request-Id': 'trace-42.a:b' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42.a:b');
    const hostile = await fetch(`${node.url}/api/v2/version`, { headers: { 'X-Request-Id': 'a b<script>' } });
    const ids = new Set<string>([hostile.headers.get('x-request-id')!]);
    for (let i = 0; i < 5; i++) {
      ids.add((await fetch(`${node.url}/api/v2/version`)).headers.get('x-request-id')!);
    }
    expect(ids.size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });

  it('logs client errors and one successful request in REQUEST_LOG_SAMPLE at info, with the id', async () => {
    lines.length = 0;
    const missing = await fetch(`${node.url}/api/v2/block/999999`, {
      headers: { 'X-Request-Id': 'missing-1' },
    });
    expect(missing.status).toBe(404);
    for (let i = 0; i < 9; i++) expect((await fetch(`${node.url}/api/v2/version`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = completed();
    expect(logged.find((line) => line.req?.id === 'missing-1')).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/v2/block/999999' },
      res: { statusCode: 404 },
    });
    // 10 requests, every third counted from the node's start is sampled: three or four lines of 200s.
    const ok = logged.filter((line) => line.res?.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(ok.length).toBeLessThanOrEqual(4);
    for (const line of ok) {
      expect(line.level).toBe(30);
      expect(typeof line.responseTime).toBe('number');
      expect(line.req?.url).toBe('/api/v2/version');
    }
  });
});

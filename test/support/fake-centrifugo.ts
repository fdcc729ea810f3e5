import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the node made to Centrifugo's server API. */
export interface CentrifugoRequest {
  path: string;
  apiKey: string | undefined;
  contentType: string | undefined;
  body: any;
}

export interface FakeCentrifugo {
  url: string;
  port: number;
  requests: CentrifugoRequest[];
  /** While set, every request is answered 503. */
  failing: boolean;
  close(): Promise<void>;
}

/**
 * A stand-in for Centrifugo's server API (v5/v6), since the real server cannot be installed on these
 * machines: it records each request (path, API key, body) and answers `batch` and `info` as Centrifugo does.
 */
export async function startFakeCentrifugo(): Promise<FakeCentrifugo> {
  const fake = { requests: [] as CentrifugoRequest[], failing: false } as FakeCentrifugo;
  const server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      fake.requests.push({
        path: request.url ?? '',
        apiKey: request.headers['x-api-key'] as string | undefined,
        contentType: request.headers['content-type'],
        body,
      });
      if (fake.failing) {
        response.writeHead(503).end('unavailable');
        return;
      }
      const answer =
        request.url === '/api/batch'
          ? { replies: (body?.commands ?? []).map(() => ({ publish: {} })) }
          : { result: { nodes: [{ uid: 'fake', name: 'fake' }] } };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  fake.port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  fake.url = `http://127.0.0.1:${fake.port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { GoJsonExpressAdapter } from './go-json-adapter';

describe("the node's HTTP server", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    server = undefined;
  });

  it("makes requests and responses with Express's prototypes of the application, before Express sees them", async () => {
    const adapter = new GoJsonExpressAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    server = adapter.getHttpServer() as Server;
    const seen: boolean[] = [];
    // Runs before Express's own listener: the objects as Node made them.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    app.get('/', (req, res) => {
      // What Express reads through those prototypes works as before.
      res.json({ path: req.path, json: typeof res.json });
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/?x=1`);
    expect(await answer.json()).toEqual({ path: '/', json: 'function' });
    expect(seen).toEqual([true, true]);
  });

  it('refuses what it does not serve: HTTPS, and connections closed for it', () => {
    expect(() => new GoJsonExpressAdapter().initHttpServer({ httpsOptions: {} })).toThrow(/plain HTTP/);
    expect(() => new GoJsonExpressAdapter().initHttpServer({ forceCloseConnections: true })).toThrow(
      /closes its connections itself/,
    );
  });
});

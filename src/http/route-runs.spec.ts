import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoJsonExpressAdapter } from './go-json-adapter';
import { expressList } from './route-runs';

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'all' | 'head';

/** Routes shaped like the node's, and the cases where the order of registration decides. */
const ROUTES: [Method, string][] = [
  ['get', '/api/v2/version'],
  ['get', '/api/v2/row/:name/:id'],
  ['get', '/api/v2/row/:name/:column/:id'],
  ['get', '/api/v2/txinfoMultiple'],
  ['get', '/api/v2/txinfomultiple'],
  ['post', '/api/v2/listWhere/:name'],
  ['get', '/api/v2/listWhere/:name'],
  ['get', '/api/v2/data/:table/:id/:column/:hash'],
  ['get', '/api/v2/data/:id/data/:hash'],
  ['all', '/'],
  ['all', '/rpc'],
  ['get', '/x/:id'],
  ['get', '/x/static'],
  ['get', '/y/static'],
  ['post', '/y/:id'],
  ['get', '/y/:id'],
  ['head', '/h'],
  ['get', '/h'],
  ['get', '/files/*rest'],
  ['get', '/v/:id-:rev'],
  ['get', '/v/:name.json'],
  ['put', '/after/:id'],
  ['delete', '/after/:id'],
  ['patch', '/after/:id'],
];

function answer(id: number) {
  return (req: Request, res: Response) => {
    res.json({ id, params: { ...req.params }, route: (req.route as { path: string }).path });
  };
}

/** A middleware between routes: Express runs it for the routes after it, and not for those before. */
function between(req: Request, res: Response, next: NextFunction): void {
  if (req.path.toLowerCase().startsWith('/after/x')) res.json({ between: true });
  else next();
}

function plainExpress(): Express {
  const app = express();
  ROUTES.forEach(([method, path], id) => {
    if (path === '/after/:id') app.use(between);
    app[method](path, answer(id));
  });
  return app;
}

function throughAdapter(): Express {
  const adapter = new GoJsonExpressAdapter();
  ROUTES.forEach(([method, path], id) => {
    if (path === '/after/:id') adapter.use(between);
    adapter[method](path, answer(id));
  });
  return adapter.getInstance<Express>();
}

const servers: Server[] = [];
const ports: number[] = [];
const apps = [plainExpress(), throughAdapter()];

beforeAll(async () => {
  for (const app of apps) {
    app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
      res.status(error.status ?? 500).json({ error: error.message });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    servers.push(server);
    ports.push((server.address() as AddressInfo).port);
  }
});

afterAll(() => {
  for (const server of servers) server.close();
});

/** The path exactly as given (fetch would normalise it). */
function send(port: number, method: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(`${res.statusCode} ${res.headers['content-type'] ?? ''} ${body}`));
    });
    req.on('error', reject);
    req.end();
  });
}

async function expectSameAnswer(method: string, path: string): Promise<void> {
  const [plain, runs] = await Promise.all(ports.map((port) => send(port, method, path)));
  expect(runs, `${method} ${path}`).toBe(plain);
}

describe('routes looked up in runs', () => {
  it("stand in Express's list as a few lookups in place of the routes, and list them in its order", () => {
    const [plain, runs] = apps.map((app) => app.router.stack.length);
    expect(runs).toBeLessThan(plain - 10);
    const [plainRoutes, runRoutes] = apps.map((app) =>
      expressList(app).flatMap(({ route }) => (route ? [`${Object.keys(route.methods)} ${route.path}`] : [])),
    );
    expect(runRoutes).toEqual(plainRoutes);
    expect(runRoutes).toHaveLength(ROUTES.length);
  });

  it('answer as Express answers, order of registration, decoding and refusals included', async () => {
    const cases: [string, string][] = [
      ['GET', '/api/v2/version'],
      ['GET', '/API/V2/Version/'],
      ['GET', '/api/v2/version//'],
      ['GET', '/api/v2/vers%69on'],
      ['HEAD', '/api/v2/version'],
      ['POST', '/api/v2/version'],
      ['GET', '/api/v2/row/bench_items/7'],
      ['GET', '/api/v2/row/Bench_Items/7/'],
      ['GET', '/api/v2/row/a%20b/7'],
      ['GET', '/api/v2/row/a%2Fb/7'],
      ['GET', '/api/v2/row/a%zz/7'],
      ['GET', '/api/v2/row//7'],
      ['GET', `/api/v2/row/${'9'.repeat(500)}/1`],
      ['GET', '/api/v2/row/t/c/1'],
      ['GET', '/api/v2/txinfomultiple'],
      ['POST', '/api/v2/listWhere/t'],
      ['GET', '/api/v2/listwhere/t'],
      ['GET', '/api/v2/data/t/1/c/h'],
      ['GET', '/api/v2/data/1/data/h'],
      ['POST', '/'],
      ['PROPFIND', '/rpc'],
      ['GET', '//'],
      ['GET', '/x/static'],
      ['GET', '/y/static'],
      ['POST', '/y/static'],
      ['HEAD', '/y/static'],
      ['HEAD', '/h'],
      ['GET', '/files/a/b'],
      ['GET', '/v/1-2'],
      ['GET', '/v/a.json'],
      ['GET', '/v/a'],
      ['PUT', '/after/1'],
      ['PUT', '/after/x1'],
      ['DELETE', '/after/2'],
      ['GET', '/nowhere'],
    ];
    for (const [method, path] of cases) await expectSameAnswer(method, path);
  });

  it('answer as Express answers for any path made of the routes’ words', async () => {
    const segment = fc.constantFrom(
      ...['api', 'v2', 'API', 'version', 'row', 'Row', 'x', 'y', 'static', 'STATIC', 'h', 'rpc', 'data'],
      ...['listWhere', 'txinfoMultiple', 'files', 'after', 'x1', '7', '', '%41', '%zz', '%2F', 'a.b', 'a;b'],
    );
    const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH');
    await fc.assert(
      fc.asyncProperty(
        method,
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (m, parts, slash) => expectSameAnswer(m, `/${parts.join('/')}${slash ? '/' : ''}`),
      ),
      { numRuns: 400, seed: 29 },
    );
  });
});

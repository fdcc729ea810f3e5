import { beforeAll, expect, it } from 'vitest';
import { apiExamples, parseExampleJson } from '../../src/api-docs/examples';
import { ERROR_CODES } from '../../src/common/error-codes';
import { declaredName } from '../../src/rpc/rpc-registry.service';
import { useTestNode, type TestNode } from '../support/node';
import type { Express } from 'express';
import { entriesOf, expressList, type ExpressListEntry } from '../../src/http/route-runs';

/**
 * Every REST route the running app serves (found in its router, so a new route is checked without anyone
 * listing it) has a description in the OpenAPI document, and every JSON-RPC method one in `rpc.discover`.
 */
const running = useTestNode();
let node: TestNode;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  'x-codeSamples'?: { lang: string; source: string }[];
  parameters?: { name: string; in: string; description?: string; schema?: object }[];
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, { description?: string }> } }>;
  };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown; example?: unknown }> }
  >;
  'x-error-codes'?: string[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'search'];
/** Routes of the description itself and the 404 catch-all Nest mounts. */
// The node-to-node routes (/node/v1/…) are for the other honor nodes, left out of the public document.
const UNDESCRIBED = (path: string) =>
  path === '/{*path}' ||
  path === '/api/v2/openapi.json' ||
  path.startsWith('/api/docs') ||
  path.startsWith('/node/');

const examples = apiExamples();
let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components: any };

beforeAll(async () => {
  node = running.node;
  const answer = await fetch(`${node.url}/api/v2/openapi.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  document = parseExampleJson(await answer.text()) as typeof document;
});

it('serves the same document where Nest users look for it (/api/docs-json)', async () => {
  const answer = await fetch(`${node.url}/api/docs-json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(parseExampleJson(await answer.text())).toEqual(document);
});

it("puts the API's routes second in Express's list, after the middleware and before the documentation", () => {
  const app = node.app.getHttpAdapter().getInstance() as Express;
  const list = app.router.stack as ExpressListEntry[];
  const entryOf = (path: string) =>
    list.findIndex((entry) => entriesOf(entry).some((route) => route.route?.path === path));
  // A request passes every entry before its own: the node's middleware (one entry), then the runs of
  // routes (two: Express matches without case, and /api/v2/txinfoMultiple has a lower-case twin).
  expect(entryOf('/api/v2/version')).toBe(1);
  expect(entryOf('/api/v2/block/:id')).toBe(1);
  expect(entryOf('/')).toBe(2);
  const paths = expressList(app).map((entry) => entry.route?.path ?? '');
  const documentation = paths.findIndex(
    (path) => path === '/api/v2/openapi.json' || path.startsWith('/api/docs'),
  );
  expect(documentation).toBeGreaterThan(paths.indexOf('/'));
  expect(documentation).toBeGreaterThan(paths.lastIndexOf('/node/v1/votes'));
});

it('serves an OpenAPI 3.1 document with the error envelope and every error code', () => {
  expect(document.openapi).toBe('3.1.0');
  const envelope = document.components.schemas.ApiError;
  expect(Object.keys(envelope.properties)).toEqual(['error', 'msg', 'params']);
  expect(envelope.properties.error.enum).toEqual(Object.keys(ERROR_CODES));
  expect(document.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer' });
});

it('describes every REST route: summary, path parameters, answer, error codes', () => {
  const routes = expressList(node.app.getHttpAdapter().getInstance() as Express);
  const missing: string[] = [];
  let checked = 0;
  for (const layer of routes) {
    const route = layer.route;
    if (!route || UNDESCRIBED(route.path)) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    // A route for every method (the JSON-RPC gateway) is described with the two it serves.
    const every = route.methods._all || Object.keys(route.methods).length > HTTP_METHODS.length;
    const methods = every ? ['get', 'post'] : Object.keys(route.methods);
    for (const method of methods) {
      const where = `${method.toUpperCase()} ${route.path}`;
      const operation = document.paths[path]?.[method];
      if (!operation?.summary?.trim()) {
        missing.push(`${where}: no summary`);
        continue;
      }
      checked++;
      if (!operation.description?.trim() || operation.description === operation.summary)
        missing.push(`${where}: no description`);
      const example = examples.rest[operation.operationId!];
      const answered = Object.values(operation.responses['200']?.content ?? {})[0];
      if (!example) missing.push(`${where}: no recorded example (${operation.operationId})`);
      else if (answered?.example === undefined) missing.push(`${where}: the example is not in the document`);
      else expect(answered.example, where).toEqual(example.response);
      if (!operation['x-codeSamples']?.[0]?.source.startsWith('curl '))
        missing.push(`${where}: no curl sample`);
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
        if (!parameter?.description?.trim()) missing.push(`${where}: path parameter ${name} undescribed`);
      }
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.description?.trim()) missing.push(`${where}: parameter ${parameter.name} undescribed`);
      }
      for (const content of Object.values(operation.requestBody?.content ?? {})) {
        for (const [name, field] of Object.entries(content.schema.properties ?? {})) {
          if (!field.description?.trim()) missing.push(`${where}: form field ${name} undescribed`);
        }
      }
      const ok = Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
      const answer = ok && Object.values(ok[1].content ?? {})[0];
      if (!answer?.schema) missing.push(`${where}: no answer schema`);
      const codes = operation['x-error-codes'] ?? [];
      expect(codes, where).toContain('E_RECOVERED');
      expect(codes, where).toContain('E_SERVER');
      for (const code of codes) {
        expect(Object.keys(ERROR_CODES), `${where}: ${code}`).toContain(code);
        const statuses = Object.entries(operation.responses)
          .filter(([, response]) => response.description?.includes(`${code}:`))
          .map(([status]) => status);
        expect(statuses.length, `${where}: ${code} answered with some status`).toBeGreaterThan(0);
      }
    }
  }
  expect(missing.join('\n')).toBe('');
  expect(checked).toBeGreaterThan(40);
  // No operation is described that the app does not serve.
  const served = new Set(
    routes.filter((layer) => layer.route).map((layer) => layer.route!.path.replace(/:(\w+)/g, '{$1}')),
  );
  for (const path of Object.keys(document.paths)) expect(served, path).toContain(path);
});

it('lists the statuses E_SERVER comes with on every route, and the routes a CLB node does not serve', () => {
  const sendTx = document.paths['/api/v2/sendTx'].post;
  for (const status of ['400', '413', '415', '503'])
    expect(sendTx.responses[status].description).toMatch(/E_SERVER/);
  const version = document.paths['/api/v2/version'].get;
  expect(version.responses['503'].description).toMatch(/E_SERVER: .*REQUEST_TIMEOUT_MS/);
  expect(version.responses['413']).toBeUndefined();
  expect(document.paths['/api/v2/metrics/keys'].get.responses['404'].description).toMatch(
    /E_NOTFOUND: .*\(on a CLB node\)/,
  );
  expect(document.paths['/api/v2/getuid'].get.responses['404']?.description ?? '').not.toMatch(/CLB/);
});

it('marks the routes that need a session and lists their 401 codes', () => {
  const sendTx = document.paths['/api/v2/sendTx'].post;
  expect((sendTx as { security?: unknown }).security).toEqual([{ session: [] }]);
  expect(sendTx['x-error-codes']).toEqual(expect.arrayContaining(['E_UNAUTHORIZED', 'E_TOKENEXPIRED']));
  expect(sendTx.responses['401'].description).toMatch(/E_UNAUTHORIZED/);
  expect(document.paths['/api/v2/version'].get['x-error-codes']).toEqual(['E_RECOVERED', 'E_SERVER']);
});

it('serves a browsable UI from npm-installed assets', async () => {
  const page = await fetch(`${node.url}/api/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('swagger-ui');
  expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[\w.-]+\/[\w./-]*\.(js|css)/);
  for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-init.js']) {
    const answer = await fetch(`${node.url}/api/docs/${asset}`);
    expect(answer.status, asset).toBe(200);
  }
  const init = await (await fetch(`${node.url}/api/docs/swagger-ui-init.js`)).text();
  expect(init).toContain('"openapi": "3.1.0"');
});

it('rpc.discover lists every served JSON-RPC method with a summary and typed parameters (OpenRPC)', async () => {
  const discovered = await node.client.rpc('rpc.discover');
  expect(discovered.openrpc).toMatch(/^1\.2\./);
  const names = discovered.methods.map((method: { name: string }) => method.name);
  expect(names).toEqual(await node.client.rpc('rpc.modules'));
  expect(names).toContain('rpc.discover');
  const missing: string[] = [];
  for (const method of discovered.methods as {
    name: string;
    summary?: string;
    params: { name: string; schema: object; required: boolean }[];
    result: { schema: object };
    errors: { code: number; message: string; data?: string }[];
    examples?: { params: { name: string; value: unknown }[]; result: { value: unknown } }[];
  }[]) {
    if (!method.summary?.trim()) missing.push(`${method.name}: no summary`);
    for (const param of method.params) {
      if (Object.keys(param.schema).length === 0)
        missing.push(`${method.name}: parameter ${param.name} has no schema`);
    }
    // Every method: the node updating or stopped, and the internal error; with params, invalid params.
    const codes = method.errors.map((error) => error.data ?? error.code);
    expect(codes, method.name).toEqual(expect.arrayContaining(['E_UPDATING', 'E_STOPPING', -32603]));
    if (method.params.length > 0) expect(codes, method.name).toContain(-32602);
    const recorded = examples.rpc[declaredName(method.name)];
    const example = method.examples?.[0];
    if (!recorded || !example) {
      missing.push(`${method.name}: no example`);
      continue;
    }
    const sent = Array.isArray(recorded.params) ? recorded.params : [recorded.params];
    expect(
      example.params.map((param) => param.value),
      method.name,
    ).toEqual(sent);
    expect(example.result.value, method.name).toEqual(recorded.result);
  }
  expect(missing.join('\n')).toBe('');
  const getBlockInfo = discovered.methods.find(
    (method: { name: string }) => method.name === 'ibax.getBlockInfo',
  );
  expect(getBlockInfo.params).toEqual([
    expect.objectContaining({
      name: 'blockId',
      required: true,
      schema: { type: 'integer', format: 'int64' },
    }),
  ]);
  // A one-object call that must name one of its members says so (NotEmptyObject on its DTO).
  const login = discovered.methods.find((method: { name: string }) => method.name === 'ibax.login');
  expect(login.params).toEqual([
    expect.objectContaining({
      name: 'params',
      required: true,
      schema: expect.objectContaining({
        anyOf: expect.arrayContaining([{ required: ['public_key'] }, { required: ['key_id'] }]),
      }),
    }),
  ]);
  const sendTx = discovered.methods.find((method: { name: string }) => method.name === 'ibax.sendTx');
  expect(sendTx.errors).toEqual(
    expect.arrayContaining([
      { code: -32014, message: 'Unauthorized', data: 'E_UNAUTHORIZED' },
      { code: -32000, message: 'the size of tx is too big (%d)', data: 'E_LIMITTXSIZE' },
      expect.objectContaining({ code: -32602 }),
      { code: -32603, message: 'method handler crashed' },
    ]),
  );
  // A method without params lists no invalid-params error; without a session, no unauthorized one.
  const maxBlockId = discovered.methods.find((method: { name: string }) => method.name === 'ibax.maxBlockId');
  expect(maxBlockId.errors.map((error: { code: number }) => error.code)).not.toContain(-32602);
  expect(maxBlockId.errors.map((error: { code: number }) => error.code)).not.toContain(-32014);
});

import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcRegistry } from '../src/rpc/rpc-registry.service';
import {
  hostileBytes,
  hostileJson,
  hostileQuery,
  hostileSegment,
  hostileText,
  invalidUtf8,
  multipartBody,
  oversizedBodies,
  rawJsonText,
  tokenKind,
  urlencodedBody,
  type BodyPlan,
  type TokenKind,
} from './support/hostile';
import { capturedLog } from './support/log';
import { useTestNode, type TestNode } from './support/node';
import { craftToken, unsignedToken } from './support/wire';
import type { Express } from 'express';
import { expressList } from '../src/http/route-runs';

/**
 * The request path under hostile input: generated requests against every REST route and JSON-RPC method
 * the node serves (found in the running app, so a new route is fuzzed without anyone listing it).
 * Seeded: the seed is printed, and FUZZ_SEED=<seed> replays a run. FUZZ_REQUESTS sets the request count.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const PER_RUN = 10;

/** Methods that switch the JSON-RPC service itself; fuzzed last, on their own (see the last test). */
const SWITCHES_RPC = ['admin.startJsonRpc', 'admin.stopJsonRpc'];

const { lines: logLines, destination: logDestination } = capturedLog();

const running = useTestNode({
  env: { LOG_LEVEL: 'warn', JSONRPC_NAMESPACES: 'ibax,chain,net,admin,debug' },
  logDestination,
});
let node: TestNode;
const agent = new Agent({ keepAlive: true, maxSockets: PER_RUN });
const tokens = {} as Record<TokenKind, string | undefined>;
const restRoutes: { method: string; path: string }[] = [];
let rpcMethods: string[] = [];
const hits = new Map<string, number>();
const statuses = new Map<number, number>();
let sent = 0;
let rssBefore = 0;

interface Plan {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the request exercises, for coverage counts and failure messages. */
  target: string;
  kind: 'rest' | 'rpc';
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

beforeAll(async () => {
  node = running.node;
  const routes = expressList(node.app.getHttpAdapter().getInstance() as Express);
  for (const layer of routes) {
    const route = layer.route;
    if (!route || route.path === '/' || route.path === '/rpc') continue;
    const methods = Object.keys(route.methods);
    // A route answering every method is the catch-all for unknown paths; it is fuzzed with random paths.
    if (methods.length > 10) continue;
    for (const method of methods) restRoutes.push({ method: method.toUpperCase(), path: route.path });
  }
  rpcMethods = node.app
    .get(RpcRegistry)
    .modules()
    .filter((name) => !SWITCHES_RPC.includes(name));
  const session = await node.client.login(node.founderKey);
  const uid = await node.client.get('/api/v2/getuid', { token: null });
  const [header, payload, signature] = session.token.split('.');
  Object.assign(tokens, {
    none: undefined,
    session: session.token,
    uid: uid.body.token,
    'alg-none': unsignedToken({ key_id: session.keyId, ecosystem_id: '1', exp: 9_999_999_999 }),
    tampered: `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
    expired: craftToken(node.config.jwtSecret, { key_id: session.keyId, ecosystem_id: '1', exp: 1000 }),
    foreign: craftToken('some other secret entirely', { key_id: session.keyId, exp: 9_999_999_999 }),
    garbage: 'e30.e30.e30',
    basic: 'Basic YWRtaW46YWRtaW4=',
  });
  rssBefore = process.memoryUsage().rss;
  console.log(
    `fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}); ${restRoutes.length} REST routes, ` +
      `${rpcMethods.length} JSON-RPC methods`,
  );
});

afterAll(() => {
  agent.destroy();
  console.log(
    `fuzz: ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
      `${hits.size} targets hit; RSS ${mb(rssBefore)} → ${mb(process.memoryUsage().rss)} MB`,
  );
});

const mb = (bytes: number) => Math.round(bytes / 1048576);

function authorization(kind: TokenKind): Record<string, string> {
  const token = tokens[kind];
  if (token === undefined) return {};
  return { Authorization: kind === 'basic' ? token : `Bearer ${token}` };
}

function fillPath(template: string, segments: string[]): string {
  let index = 0;
  return template.replace(/:(\w+)|\{\*\w+\}/g, () => segments[index++ % segments.length] || 'x');
}

const bodyPlan: fc.Arbitrary<BodyPlan | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: urlencodedBody },
  { weight: 3, arbitrary: multipartBody },
  {
    weight: 1,
    arbitrary: hostileJson.map((value) => ({
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(value) ?? 'null'),
      label: 'json',
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileBytes, fc.constantFrom(undefined, 'text/plain', 'application/octet-stream', 'x/y'))
      .map(([body, contentType]) => ({ contentType, body, label: 'raw' })),
  },
);

function withBody(headers: Record<string, string>, body: BodyPlan | undefined): Record<string, string> {
  return body?.contentType ? { ...headers, 'Content-Type': body.contentType } : headers;
}

function restPlan(): fc.Arbitrary<Plan> {
  return fc
    .record({
      route: fc.constantFrom(...restRoutes),
      otherMethod: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), {
        freq: 6,
      }),
      segments: fc.array(hostileSegment, { minLength: 1, maxLength: 3 }),
      query: hostileQuery,
      body: bodyPlan,
      token: tokenKind,
      origin: fc.boolean(),
    })
    .map(({ route, otherMethod, segments, query, body, token, origin }) => {
      const method = otherMethod ?? route.method;
      const headers = withBody(authorization(token), body);
      if (origin) headers.Origin = 'https://weaver.example';
      if (method === 'OPTIONS') headers['Access-Control-Request-Method'] = 'POST';
      return {
        method,
        path: fillPath(route.path, segments) + (query ? `?${query}` : ''),
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body?.body,
        target: `${route.method} ${route.path}`,
        kind: 'rest' as const,
      };
    });
}

function randomPathPlan(): fc.Arbitrary<Plan> {
  return fc
    .record({
      prefix: fc.constantFrom('/api/v2/', '/', '/api/', '/data/', '/api/v2/api/v2/'),
      segments: fc.array(hostileSegment, { maxLength: 4 }),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      query: hostileQuery,
      token: tokenKind,
    })
    .map(({ prefix, segments, method, query, token }) => {
      const path = prefix + segments.join('/');
      return {
        method,
        path: path + (query ? `?${query}` : ''),
        headers: authorization(token),
        target: 'unknown path',
        // The generator can land on the JSON-RPC endpoint, which answers in its own envelope. Express
        // matches routes case-insensitively and with an optional trailing slash, so `//` and `/RPC/` are it too.
        kind: /^\/(?:rpc)?\/?$/i.test(path) ? ('rpc' as const) : ('rest' as const),
      };
    });
}

const rpcParams: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.array(hostileJson, { maxLength: 4 }) },
  {
    weight: 2,
    arbitrary: fc.array(fc.oneof(fc.integer(), fc.bigInt().map(String), hostileText), { maxLength: 3 }),
  },
  { weight: 1, arbitrary: fc.dictionary(hostileText, hostileJson, { maxKeys: 4 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.dictionary(hostileText, hostileJson, { maxKeys: 4 }), { maxLength: 1 }),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 5, 'x', true) },
);

function rpcCall(): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(
      {
        jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2, null),
        id: fc.oneof(fc.integer(), hostileText, fc.constant(null), fc.constant({ a: 1 }), fc.constant([1])),
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...rpcMethods) },
          { weight: 1, arbitrary: hostileText },
          {
            weight: 1,
            arbitrary: fc.constantFrom('ibax.', '.maxBlockId', 'rpc.modules.x', 'admin.rollback', 5),
          },
        ),
        params: rpcParams,
      },
      { requiredKeys: ['method'] },
    )
    .map((call) => call as Record<string, unknown>);
}

function rpcPlan(): fc.Arbitrary<Plan> {
  const body = fc.oneof(
    { weight: 6, arbitrary: rpcCall().map((call) => JSON.stringify(call)) },
    { weight: 2, arbitrary: fc.array(rpcCall(), { maxLength: 12 }).map((calls) => JSON.stringify(calls)) },
    { weight: 1, arbitrary: rawJsonText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        JSON.stringify(
          Array.from({ length: 10_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ibax.maxBlockId' })),
        ),
        JSON.stringify(Array.from({ length: 1001 }, () => ({ jsonrpc: '2.0', method: 'ibax.getUid' }))),
      ),
    },
  );
  return fc
    .record({
      text: body,
      utf8Breaker: fc.option(invalidUtf8, { freq: 12 }),
      method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE'),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        undefined,
      ),
      path: fc.constantFrom('/', '/rpc'),
      token: tokenKind,
    })
    .map(({ text, utf8Breaker, method, contentType, path, token }) => {
      const bytes = utf8Breaker
        ? Buffer.concat([Buffer.from(text.slice(0, 10)), utf8Breaker, Buffer.from(text.slice(10))])
        : Buffer.from(text);
      const headers = authorization(token);
      if (contentType) headers['Content-Type'] = contentType;
      const methodName = /"method":"([^"]{1,60})"/.exec(text)?.[1];
      return {
        method,
        path,
        headers,
        body: bytes,
        target: methodName && rpcMethods.includes(methodName) ? `rpc ${methodName}` : 'rpc (envelope)',
        kind: 'rpc' as const,
      };
    });
}

function oversizedPlan(): fc.Arbitrary<Plan> {
  return fc
    .tuple(oversizedBodies(node.config.limits), fc.constantFrom('/api/v2/login', '/api/v2/getuid', '/'))
    .map(([body, path]) => ({
      method: 'POST',
      path,
      headers: withBody({}, path === '/' ? { ...body, contentType: 'application/json' } : body),
      body: body.body,
      target: `oversized ${body.label}`,
      kind: path === '/' ? ('rpc' as const) : ('rest' as const),
    }));
}

function send(plan: Plan): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...plan.headers };
    if (plan.body) headers['Content-Length'] = String(plan.body.length);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: new URL(node.url).port,
        method: plan.method,
        path: plan.path,
        headers,
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(plan.body);
  });
}

/** Text only the server's internals would produce: stack frames, file paths, database error wording. */
const LEAKS = [
  /\n\s+at [\w$.<>[\] ]+\(/,
  /\bat (?:async )?[\w$.<>]+ \([^)]*:\d+:\d+\)/,
  /\/(?:src|node_modules|dist)\/[\w./-]+\.(?:ts|js)/,
  /syntax error at or near/i,
  /relation "[^"]*" does not exist/i,
  /column "[^"]*" does not exist/i,
  /QueryFailedError|duplicate key value violates|invalid input syntax for/i,
  /\bSELECT\b[^"]{0,200}\bFROM\s+"/,
];

function expectRestEnvelope(body: unknown, context: string): void {
  expect(body, context).toBeTypeOf('object');
  const envelope = body as Record<string, unknown>;
  expect(Object.keys(envelope), context).toEqual(['error', 'msg', 'params']);
  expect(envelope.error, context).toMatch(/^E_[A-Z]+$/);
  expect(envelope.msg, context).toBeTypeOf('string');
  expect(Array.isArray(envelope.params), context).toBe(true);
}

function expectRpcEnvelope(body: unknown, context: string): void {
  expect(body, context).toBeTypeOf('object');
  const envelope = body as Record<string, unknown>;
  expect(envelope.jsonrpc, context).toBe('2.0');
  expect(Object.hasOwn(envelope, 'id'), context).toBe(true);
  const hasResult = Object.hasOwn(envelope, 'result');
  const error = envelope.error as { code?: unknown; message?: unknown } | undefined;
  expect(hasResult !== (error !== undefined), `${context}: exactly one of result and error`).toBe(true);
  if (error) {
    expect(Number.isInteger(error.code), context).toBe(true);
    expect(error.message, context).toBeTypeOf('string');
  }
}

/**
 * The one 5xx the wire contract asks for on bad input: `tables` answers a form it cannot read with 502
 * E_SERVER "schema: error converting value for …" (rest-api.md §7, the reference's status).
 */
function documentedServerStatus(plan: Plan, answer: Answer): boolean {
  if (answer.status !== 502 || plan.target !== 'GET /api/v2/tables') return false;
  // A HEAD request gets the same answer without its body.
  if (plan.method === 'HEAD') return answer.text === '';
  return /^\{"error":"E_SERVER","msg":"schema: error converting value for \\"(limit|offset)\\"",/.test(
    answer.text,
  );
}

function check(plan: Plan, answer: Answer): void {
  const context = `${plan.method} ${plan.path.slice(0, 200)} (${plan.target}) → ${answer.status} ${answer.text.slice(0, 300)}`;
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  expect(answer.status, context).toBeGreaterThanOrEqual(200);
  if (!documentedServerStatus(plan, answer)) expect(answer.status, context).toBeLessThan(500);
  for (const leak of LEAKS) expect(answer.text, `${context}: leaks ${leak}`).not.toMatch(leak);
  if (plan.method === 'HEAD' || answer.text === '') {
    // No body: a HEAD answer, a preflight, a notification (204) or the JSON-RPC liveness probe.
    if (plan.method !== 'HEAD' && plan.method !== 'OPTIONS')
      expect([200, 204], context).toContain(answer.status);
    return;
  }
  const json = /^application\/json/.test(answer.contentType);
  if (answer.status >= 400 || plan.kind === 'rpc') expect(json, `${context}: content type`).toBe(true);
  if (!json) return;
  const body = JSON.parse(answer.text) as unknown;
  if (plan.kind === 'rpc') {
    for (const item of Array.isArray(body) ? body : [body]) expectRpcEnvelope(item, context);
  } else if (answer.status >= 400) {
    expectRestEnvelope(body, context);
  }
}

/** How a plan reads in a counterexample: the request line and the body's size, not megabytes of it. */
function concise(plan: Plan): Plan {
  return Object.assign(plan, {
    [fc.toStringMethod]: () =>
      `${plan.method} ${plan.path.slice(0, 300)}${plan.path.length > 300 ? '…' : ''} ` +
      `(${plan.target}; ${JSON.stringify(plan.headers).slice(0, 300)}; body ${plan.body?.length ?? 0} bytes: ` +
      `${JSON.stringify(plan.body?.subarray(0, 200).toString('latin1') ?? '')})`,
  });
}

async function exercise(plan: Plan): Promise<void> {
  hits.set(plan.target, (hits.get(plan.target) ?? 0) + 1);
  sent++;
  check(plan, await send(plan));
}

describe('the request path under hostile input', () => {
  it(`answers ${REQUESTS} generated requests without a 5xx, a leak or a crash`, async () => {
    const plan = fc
      .oneof(
        { weight: 60, arbitrary: restPlan() },
        { weight: 35, arbitrary: rpcPlan() },
        { weight: 8, arbitrary: randomPathPlan() },
        { weight: 1, arbitrary: oversizedPlan() },
      )
      .map(concise);
    await fc.assert(
      fc.asyncProperty(fc.array(plan, { minLength: PER_RUN, maxLength: PER_RUN }), async (plans) => {
        await Promise.all(plans.map(exercise));
      }),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / PER_RUN), endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    // Discovery found the routes and methods, and every one was reached.
    expect(restRoutes.length).toBeGreaterThan(10);
    expect(rpcMethods.length).toBeGreaterThan(10);
    for (const route of restRoutes)
      expect(hits.get(`${route.method} ${route.path}`), route.path).toBeGreaterThan(0);
    for (const method of rpcMethods) expect(hits.get(`rpc ${method}`), method).toBeGreaterThan(0);
    // Ten thousand requests take 30 s here and twice that on a busy machine: the bound catches a hang only.
  }, 300_000);

  it('answers malformed HTTP in the envelope and keeps serving', async () => {
    const raw = [
      'GET /api/v2/version HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'POST /api/v2/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n',
      `GET /api/v2/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GARBAGE\r\n\r\n',
      'GET /api/v2/version HTTP/9.9\r\n\r\n',
    ];
    for (const text of raw) {
      const answer = await rawHttp(text);
      const [statusLine] = answer.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      expect(status, answer).toBeGreaterThanOrEqual(400);
      expect(status, answer).toBeLessThan(500);
      expectRestEnvelope(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), answer);
    }
    expect((await node.client.get('/api/v2/version')).status).toBe(200);
  });

  it('fuzzes the methods that switch JSON-RPC itself, last', async () => {
    await fc.assert(
      fc.asyncProperty(rpcParams, async (params) => {
        const plan: Plan = {
          method: 'POST',
          path: '/',
          headers: { 'Content-Type': 'application/json' },
          body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.startJsonRpc', params })),
          target: 'rpc admin.startJsonRpc',
          kind: 'rpc',
        };
        await exercise(plan);
        // The call may have left admin out of the served namespaces; the test puts them back directly.
        node.app.get(RpcRegistry).start(['ibax', 'chain', 'net', 'admin', 'debug']);
      }),
      { seed: SEED, numRuns: 100 },
    );
    const refused = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'admin.stopJsonRpc',
      params: ['unexpected'],
    });
    expect(refused.body.error.code).toBe(-32602);
    const stop = await node.client.rpcRaw({ jsonrpc: '2.0', id: 1, method: 'admin.stopJsonRpc' });
    expect(stop.body).toEqual({ jsonrpc: '2.0', id: 1, result: true });
    const after = await send({
      method: 'POST',
      path: '/',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from('{}'),
      target: 'rpc (off)',
      kind: 'rpc',
    });
    expect(after.status).toBe(404);
    expectRestEnvelope(JSON.parse(after.text), after.text);
  });

  it('is alive and ready afterwards, with no error in its log', async () => {
    const ready = await node.client.get('/readyz');
    expect(ready.status).toBe(200);
    const errors = logLines.filter((line) => line.level >= 50);
    expect(
      errors,
      errors
        .slice(0, 5)
        .map((line) => JSON.stringify(line))
        .join('\n'),
    ).toEqual([]);
  });
});

function rawHttp(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(node.url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.end(text);
  });
}

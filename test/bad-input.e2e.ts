import { beforeAll, describe, expect, it } from 'vitest';
import { useTestNode, type TestNode } from './support/node';
import { craftToken, expectRestError, unsignedToken } from './support/wire';

const running = useTestNode();
let node: TestNode;

beforeAll(async () => {
  node = running.node;
});

/** Every public REST endpoint of the foundation, with the status a clean call gets. */
const PUBLIC_ROUTES: [string, number][] = [
  ['/api/v2/version', 200],
  ['/api/v2/getuid', 200],
  ['/api/v2/auth/status', 200],
  ['/api/v2/network', 200],
  ['/api/v2/config/centrifugo', 400],
  ['/api/v2/keyinfo/0000-0000-0000-0000-5555', 200],
  ['/api/v2/ecosystemname?id=1', 200],
  ['/api/v2/maxblockid', 200],
  ['/api/v2/block/1', 200],
  ['/api/v2/metrics/keys', 200],
  ['/api/v2/metrics/blocks', 200],
  ['/api/v2/metrics/ecosystems', 200],
  ['/api/v2/metrics/transactions', 200],
  ['/api/v2/metrics/honornodes', 200],
  ['/api/v2/metrics/mem', 200],
];

describe('REST endpoints under bad input', () => {
  it('ignore extra and huge parameters', async () => {
    for (const [route, status] of PUBLIC_ROUTES) {
      const separator = route.includes('?') ? '&' : '?';
      const answer = await node.client.get(
        `${route}${separator}extra=1&limit=${'9'.repeat(400)}&ecosystem=-5`,
      );
      expect(answer.status, route).toBe(status);
    }
  });

  it('treat forged, expired and unsigned tokens on public routes as no token', async () => {
    const tokens = [
      craftToken('not the node secret at all', { key_id: '1', ecosystem_id: '1', exp: 9_999_999_999 }),
      craftToken(node.config.jwtSecret, { key_id: '1', ecosystem_id: '1', exp: 1_000 }),
      unsignedToken({ key_id: '1', ecosystem_id: '1', exp: 9_999_999_999 }),
      'not.a.jwt',
    ];
    for (const token of tokens) {
      for (const [route, status] of PUBLIC_ROUTES) {
        expect((await node.client.get(route, { token })).status, `${route} with a bad token`).toBe(status);
      }
      expect((await node.client.get('/api/v2/auth/status', { token })).body).toEqual({ active: false });
      const uid = await node.client.get('/api/v2/getuid', { token });
      expect(uid.body.uid).toMatch(/^\d+$/);
    }
  });

  it('refuse wrong methods and unknown paths with the envelope', async () => {
    expectRestError(await node.client.request('POST', '/api/v2/maxblockid', { body: '' }), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get('/api/v2/login'), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get('/api/v2/block'), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get(`/api/v2/keyinfo/${'9'.repeat(500)}`), 400, 'E_INVALIDWALLET');
    expectRestError(await node.client.get('/api/v2/keyinfo/%C3%A9t%C3%A9'), 400, 'E_INVALIDWALLET');
    // A path that is not valid percent-encoding cannot be decoded at all.
    expectRestError(await node.client.get('/api/v2/keyinfo/%ff%fe'), 400, 'E_SERVER');
  });
});

/** Every JSON-RPC method of the foundation, with a clean call and a call with wrong argument types. */
const RPC_CALLS: { method: string; good: unknown[]; wrongType?: unknown[]; auth?: boolean }[] = [
  { method: 'ibax.getVersion', good: [] },
  { method: 'ibax.getUid', good: [] },
  { method: 'ibax.maxBlockId', good: [] },
  { method: 'ibax.getBlockInfo', good: [1], wrongType: [true] },
  { method: 'ibax.getKeyInfo', good: ['0000-0000-0000-0000-5555'], wrongType: [5555] },
  { method: 'ibax.getEcosystemCount', good: [] },
  { method: 'ibax.getKeysCount', good: [] },
  { method: 'ibax.getTxCount', good: [] },
  { method: 'ibax.honorNodesCount', good: [] },
  { method: 'ibax.ecosystemInfo', good: [1], wrongType: ['1'] },
  { method: 'ibax.getNetwork', good: [] },
  { method: 'net.getNetwork', good: [] },
  { method: 'net.status', good: [] },
  { method: 'rpc.modules', good: [] },
  { method: 'debug.getMemStat', good: [] },
  { method: 'ibax.getConfig', good: [], wrongType: [[1]] },
  { method: 'ibax.login', good: [], wrongType: ['text'] },
  { method: 'ibax.getAuthStatus', good: [], auth: true },
];

describe('JSON-RPC methods under bad input', () => {
  it('answer extra, wrong-typed and huge arguments with -32602 and keep serving', async () => {
    for (const call of RPC_CALLS) {
      const extra = await node.client.rpcRaw({
        jsonrpc: '2.0',
        id: 1,
        method: call.method,
        params: [...call.good, 1, 2, 3],
      });
      const expected = call.auth ? -32014 : -32602;
      expect(extra.body.error?.code, `${call.method} with extra params`).toBe(expected);
      if (call.wrongType) {
        const wrong = await node.client.rpcRaw({
          jsonrpc: '2.0',
          id: 1,
          method: call.method,
          params: call.wrongType,
        });
        expect(wrong.body.error?.code, `${call.method} with wrong types`).toBe(-32602);
        expect(wrong.body.error.message).toMatch(/^invalid argument 1: /);
      }
    }
    const huge = await node.client.rpcRaw(
      `{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":[${'9'.repeat(5000)}]}`,
    );
    expect(huge.body.error.code).toBe(-32602);
    expect(await node.client.rpc('ibax.maxBlockId')).toBe(1);
  });

  it('answer a batch of every method with one reply each, in order', async () => {
    const batch = RPC_CALLS.map((call, index) => ({
      jsonrpc: '2.0',
      id: index,
      method: call.method,
      params: call.good,
    }));
    const answer = await node.client.rpcRaw([...batch, '{', 17, null]);
    const replies = answer.body as { id: number | null; error?: { code: number } }[];
    expect(replies.map((reply) => reply.id)).toEqual([...batch.map((_, index) => index), null, null, null]);
    const failures = replies.filter((reply, index) => index < batch.length && reply.error);
    // ibax.login without a uid token and ibax.getAuthStatus without a session; the rest succeed
    expect(failures.map((reply) => RPC_CALLS[reply.id!].method).sort()).toEqual([
      'ibax.getAuthStatus',
      'ibax.getConfig',
      'ibax.login',
    ]);
  });

  it('treats malformed JSON, truncated JSON and a lone value as protocol errors', async () => {
    for (const body of [
      '{',
      '{"jsonrpc":"2.0","id":1,"method":"net.status"',
      'nul',
      '[{"a":1},]',
      '"just text"',
    ]) {
      const answer = await node.client.rpcRaw(body);
      expect(answer.status).toBe(200);
      expect([-32700, -32600]).toContain(answer.body.error.code);
    }
  });
});

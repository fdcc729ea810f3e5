import { beforeAll, describe, expect, it } from 'vitest';
import { NodeStateService } from '../src/common/node-state.service';
import { useTestNode, type TestNode } from './support/node';
import { expectRestError } from './support/wire';

const running = useTestNode();
let node: TestNode;

beforeAll(async () => {
  node = running.node;
});

const post = (
  body: string | object,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
  path = '/',
) =>
  node.client.request('POST', path, {
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    token: null,
  });

describe('JSON-RPC envelope', () => {
  it('answers a single call at / and /rpc, by POST and by GET with a body', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId' };
    for (const path of ['/', '/rpc']) {
      const answer = await post(call, undefined, path);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('{"jsonrpc":"2.0","id":1,"result":1}');
    }
    const viaGet = await node.client.rpcRaw(call, { method: 'GET' });
    expect(viaGet.text).toBe('{"jsonrpc":"2.0","id":1,"result":1}');
  });

  it('echoes string ids and exact big numeric ids', async () => {
    expect((await post('{"jsonrpc":"2.0","id":"x-1","method":"net.status"}')).text).toBe(
      '{"jsonrpc":"2.0","id":"x-1","result":"node server status is running"}',
    );
    expect((await post('{"jsonrpc":"2.0","id":18446744073709551615,"method":"net.status"}')).text).toContain(
      '"id":18446744073709551615',
    );
  });

  it('serves the chain namespace as ibax. and chain.', async () => {
    expect(await node.client.rpc('chain.getVersion')).toBe(await node.client.rpc('ibax.getVersion'));
    expect(await node.client.rpc('chain.maxBlockId')).toBe(1);
  });

  it('uses the JSON-RPC 2.0 error codes for protocol errors', async () => {
    const error = async (body: string | object) => (await post(body)).body;
    expect(await error('{"jsonrpc":"2.0","id":1,')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'ibax.nope' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'The method ibax.nope does not exist/is not available' },
    });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'nodot' })).toMatchObject({
      error: { code: -32601 },
    });
    expect(await error({ jsonrpc: '2.0', id: 1 })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(await error({ jsonrpc: '1.0', id: 1, method: 'net.status' })).toMatchObject({
      error: { code: -32600 },
    });
    expect(await error({ jsonrpc: '2.0', id: { a: 1 }, method: 'net.status' })).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect(await error('42')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await error([])).toMatchObject({
      id: null,
      error: { code: -32600, message: 'empty batch request' },
    });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'ibax.getBlockInfo', params: ['1'] })).toMatchObject({
      error: {
        code: -32602,
        message: 'invalid argument 1: json: cannot unmarshal string into Go value of type int64',
      },
    });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'ibax.getBlockInfo', params: [] })).toMatchObject({
      error: { code: -32602, message: 'missing value for required argument 1' },
    });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId', params: [1] })).toMatchObject({
      error: { code: -32602, message: 'too many arguments, want 0' },
    });
    expect(
      await error('{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":[99999999999999999999999]}'),
    ).toMatchObject({
      error: { code: -32602 },
    });
    expect(await error({ jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId', params: 'x' })).toMatchObject({
      error: { code: -32600 },
    });
  });

  it('answers a batch in order, mixing good and bad calls, and skips notifications', async () => {
    const answer = await post([
      { jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId' },
      { jsonrpc: '2.0', id: 2, method: 'nope.nope' },
      { jsonrpc: '2.0', method: 'net.status' },
      'garbage',
      { jsonrpc: '2.0', id: 3, method: 'ibax.getBlockInfo', params: [1] },
      { jsonrpc: '2.0', id: 4, method: 'ibax.getBlockInfo', params: [{}] },
    ]);
    expect(answer.status).toBe(200);
    const replies = answer.body as { id: unknown; result?: unknown; error?: { code: number } }[];
    expect(replies.map((reply) => reply.id)).toEqual([1, 2, null, 3, 4]);
    expect(replies[0].result).toBe(1);
    expect(replies[1].error?.code).toBe(-32601);
    expect(replies[2].error?.code).toBe(-32600);
    expect((replies[3].result as { tx_count: number }).tx_count).toBe(1);
    expect(replies[4].error?.code).toBe(-32602);
  });

  it('answers notifications with nothing', async () => {
    const single = await post({ jsonrpc: '2.0', method: 'net.status' });
    expect(single.status).toBe(204);
    expect(single.text).toBe('');
    const batch = await post([
      { jsonrpc: '2.0', method: 'net.status' },
      { jsonrpc: '2.0', method: 'ibax.nope' },
    ]);
    expect(batch.status).toBe(204);
  });

  it('refuses bodies that are not JSON', async () => {
    const wrongType = await post('{}', { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe(-32600);
    const notUtf8 = await node.client.request('POST', '/', {
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      token: null,
    });
    expect(notUtf8.body).toMatchObject({
      id: null,
      error: { code: -32700, message: 'Parse error: body is not valid UTF-8' },
    });
    const put = await node.client.request('PUT', '/', {
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(put.status).toBe(405);
  });
});

describe('JSON-RPC namespaces', () => {
  it('lists what it serves with rpc.modules', async () => {
    const modules = (await node.client.rpc('rpc.modules')) as string[];
    expect(modules).toEqual([...modules].sort());
    for (const name of [
      'ibax.getUid',
      'chain.login',
      'net.getNetwork',
      'net.status',
      'rpc.modules',
      'debug.getMemStat',
      'admin.stopJsonRpc',
    ]) {
      expect(modules).toContain(name);
    }
  });

  it('changes namespaces at run time', async () => {
    expect(await node.client.rpc('admin.startJsonRpc', ['ibax,net,admin'])).toBe(true);
    const modules = (await node.client.rpc('rpc.modules')) as string[];
    expect(modules.some((name) => name.startsWith('chain.'))).toBe(false);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'chain.maxBlockId' })).body.error.code).toBe(-32601);
    expect(
      (await post({ jsonrpc: '2.0', id: 1, method: 'admin.startJsonRpc', params: ['ibax,eth'] })).body.error
        .code,
    ).toBe(-32602);
    expect(await node.client.rpc('admin.startJsonRpc', ['ibax,chain,net,admin,debug'])).toBe(true);
    expect(await node.client.rpc('chain.maxBlockId')).toBe(1);
  });
});

describe('CORS', () => {
  const preflight = (headers: Record<string, string>, path = '/api/v2/login') =>
    node.client.request('OPTIONS', path, { headers, token: null });

  it('answers preflights as the reference does', async () => {
    const ok = await preflight({
      Origin: 'http://weaver.local',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type',
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    expect(ok.headers.get('access-control-max-age')).toBe('600');
    expect((await preflight({ Origin: 'x' })).status).toBe(400);
    expect((await preflight({ Origin: 'x', 'Access-Control-Request-Method': 'DELETE' })).status).toBe(405);
    expect(
      (
        await preflight({
          Origin: 'x',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'X-Secret',
        })
      ).status,
    ).toBe(403);
    expect((await preflight({})).status).toBe(200);
  });

  it('allows any origin on plain requests', async () => {
    const answer = await node.client.request('GET', '/api/v2/version', {
      headers: { Origin: 'http://x' },
      token: null,
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('HTTP basics', () => {
  it('answers unknown paths with 404 in the error envelope', async () => {
    expectRestError(await node.client.get('/api/v2/nothing-here'), 404, 'E_NOTFOUND', 'Page not found');
    expectRestError(await node.client.get('/elsewhere'), 404, 'E_NOTFOUND');
  });

  it('refuses oversized and malformed bodies with clear errors, and keeps serving', async () => {
    const big = 'x'.repeat(node.config.limits.body + 10);
    const tooBig = await node.client.request('POST', '/api/v2/login', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `pubkey=${big}`,
    });
    expectRestError(tooBig, 413, 'E_SERVER', /request body too large/);
    const notUtf8 = await node.client.request('POST', '/api/v2/login', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from([0x61, 0x3d, 0xff, 0xfe]),
    });
    expectRestError(notUtf8, 400, 'E_SERVER', /not valid UTF-8/);
    const brokenMultipart = await node.client.request('POST', '/api/v2/login', {
      headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: '--zzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
    });
    expectRestError(brokenMultipart, 400, 'E_SERVER');
    const hugeRpc = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'net.status',
      params: ['y'.repeat(6 * 1024 * 1024)],
    });
    expect(hugeRpc.status).toBe(413);
    expect((await node.client.get('/api/v2/version')).status).toBe(200);
  });
});

describe('node state', () => {
  it('answers 503 on every route but version while updating or stopped', async () => {
    const state = node.app.get(NodeStateService);
    try {
      state.set('updating');
      expectRestError(
        await node.client.get('/api/v2/maxblockid'),
        503,
        'E_UPDATING',
        'Node is updating blockchain, block height 1',
      );
      expectRestError(await node.client.get('/api/v2/getuid'), 503, 'E_UPDATING');
      expect((await node.client.get('/api/v2/version')).body).toMatch(/node server is updating$/);
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'net.status' })).body.error).toEqual({
        code: -32000,
        message: 'Node is updating blockchain',
      });
      state.set('stopped');
      expectRestError(await node.client.get('/api/v2/network'), 503, 'E_STOPPING', 'Network is stopping');
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId' })).body.error.message).toBe(
        'Network is stopping',
      );
    } finally {
      state.set('running');
    }
    expect((await node.client.get('/api/v2/maxblockid')).status).toBe(200);
  });
});

// Last: after admin.stopJsonRpc the node serves no JSON-RPC until it restarts.
describe('stopping JSON-RPC', () => {
  it('answers / with 404 afterwards and keeps REST', async () => {
    expect(await node.client.rpc('admin.stopJsonRpc')).toBe(true);
    const stopped = await post({ jsonrpc: '2.0', id: 1, method: 'net.status' });
    expectRestError(stopped, 404, 'E_NOTFOUND');
    expect((await node.client.get('/api/v2/maxblockid')).status).toBe(200);
  });
});

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from './support/node';
import { ECOSYSTEM_INFO, expectRestError, expectShape } from './support/wire';

let db: TestDatabase;
let node: TestNode;

beforeAll(async () => {
  db = await createTestDatabase();
  node = await startNode({ databaseUrl: db.url });
});

afterAll(async () => {
  await node?.stop(true);
  await db?.drop();
});

describe('first start', () => {
  it('generates the node and founder keys as 64 hex characters readable by the owner only', () => {
    for (const name of ['node.key', 'founder.key']) {
      const file = join(node.dataDir, name);
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('serves version without login, as a JSON string', async () => {
    const answer = await node.client.get('/api/v2/version');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.body).toMatch(
      /^\d+\.\d+\.\d+ branch\.\S+ commit\.\S+ time\.\S+ node server status is running$/,
    );
  });

  it('is ready once it serves', async () => {
    expect((await node.client.get('/healthz')).status).toBe(200);
    const ready = await node.client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
  });

  it('has block 1 as its chain tip', async () => {
    const max = await node.client.get('/api/v2/maxblockid');
    expect(max.status).toBe(200);
    expect(max.body).toEqual({ max_block_id: 1 });
    expect(await node.client.rpc('ibax.maxBlockId')).toBe(1);
  });

  it('describes block 1 over REST (base64 hashes) and JSON-RPC (hex hashes)', async () => {
    const rest = await node.client.get('/api/v2/block/1');
    expect(rest.status).toBe(200);
    expectShape(rest.body, {
      hash: 'string',
      ecosystem_id: 'number',
      key_id: 'number',
      time: 'number',
      tx_count: 'number',
      rollbacks_hash: 'string',
      node_position: 'number',
      consensus_mode: 'number',
    });
    expect(rest.body).toMatchObject({ ecosystem_id: 0, tx_count: 1, node_position: 0, consensus_mode: 1 });
    const founderKeyId = BigInt((await node.client.login(node.founderKey)).keyId);
    expect(BigInt(rest.body.key_id)).toBe(founderKeyId);

    const rpc = await node.client.rpc('ibax.getBlockInfo', [1]);
    expect(rpc.hash).toBe(Buffer.from(rest.body.hash, 'base64').toString('hex'));
    expect(rpc.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rpc.rollbacks_hash).toBe(Buffer.from(rest.body.rollbacks_hash, 'base64').toString('hex'));
    expect(BigInt(rpc.key_id)).toBe(founderKeyId);
  });

  it('answers E_NOTFOUND for blocks it does not have', async () => {
    expectRestError(await node.client.get('/api/v2/block/2'), 404, 'E_NOTFOUND', 'Page not found');
    expectRestError(await node.client.get('/api/v2/block/abc'), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get('/api/v2/block/99999999999999999999999'), 404, 'E_NOTFOUND');
    const answer = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 7,
      method: 'ibax.getBlockInfo',
      params: [2],
    });
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32012, message: 'NotFound' } });
  });
});

describe('network and configuration', () => {
  it('lists the node itself as the only honor node', async () => {
    const answer = await node.client.get('/api/v2/network');
    expect(answer.status).toBe(200);
    expectShape(answer.body, {
      network_id: 'string',
      centrifugo_url: 'string',
      test: 'boolean',
      private: 'boolean',
      honor_nodes: 'array',
    });
    expect(answer.body).toMatchObject({ network_id: '1', test: false, private: true });
    expect(answer.body.honor_nodes).toHaveLength(1);
    const [honor] = answer.body.honor_nodes;
    expectShape(honor, {
      tcp_address: 'string',
      api_address: 'string',
      public_key: 'string',
      unban_time: 'string',
      stopped: 'boolean',
    });
    expect(honor.public_key).toMatch(/^04[0-9a-f]{128}$/);
    expect(honor.api_address).toBe(node.config.apiAddress);
    expect(await node.client.rpc('net.getNetwork')).toEqual(answer.body);
    expect(await node.client.rpc('ibax.getNetwork')).toEqual(answer.body);
    expect(await node.client.rpc('chain.getNetwork')).toEqual(answer.body);
  });

  it('reports the node status over net.status', async () => {
    expect(await node.client.rpc('net.status')).toBe('node server status is running');
  });

  it('says clearly when no notification service is configured, and 404 for unknown options', async () => {
    expectRestError(await node.client.get('/api/v2/config/centrifugo'), 400, 'E_SERVER', /not configured/);
    expectRestError(await node.client.get('/api/v2/config/other'), 404, 'E_NOTFOUND');
    const answer = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getConfig',
      params: ['other'],
    });
    expect(answer.body.error.code).toBe(-32012);
  });
});

describe('ecosystems and keys', () => {
  it('names ecosystem 1', async () => {
    const answer = await node.client.get('/api/v2/ecosystemname?id=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ecosystem_name: 'platform ecosystem' });
    expectRestError(
      await node.client.get('/api/v2/ecosystemname?id=99'),
      404,
      'E_PARAMNOTFOUND',
      'Parameter name has not been found',
    );
    expectRestError(await node.client.get('/api/v2/ecosystemname?id=x'), 404, 'E_PARAMNOTFOUND');
    expectRestError(await node.client.get('/api/v2/ecosystemname'), 404, 'E_PARAMNOTFOUND');
    expect((await node.client.get('/api/v2/ecosystemname?ID=1')).body).toEqual(answer.body);
    // The first of repeated values counts, as Go's r.FormValue has it.
    expect((await node.client.get('/api/v2/ecosystemname?id=1&id=2')).body).toEqual(answer.body);
  });

  it('counts ecosystems and keys', async () => {
    expect(await node.client.rpc('ibax.getEcosystemCount')).toBe(1);
    // founder, node, guest, black hole, white hole
    expect(await node.client.rpc('ibax.getKeysCount')).toBe(5);
    expect((await node.client.get('/api/v2/metrics/keys')).body).toEqual({ count: 5 });
    expect((await node.client.get('/api/v2/metrics/blocks')).body).toEqual({ count: 1 });
    expect((await node.client.get('/api/v2/metrics/ecosystems')).body).toEqual({ count: 1 });
    expect((await node.client.get('/api/v2/metrics/transactions')).body).toEqual({ count: 1 });
    expect(await node.client.rpc('ibax.getTxCount')).toBe(1);
    expect(await node.client.rpc('ibax.honorNodesCount')).toBe(1);
  });

  it('describes ecosystem 1 with ecosystemInfo', async () => {
    const info = await node.client.rpc('ibax.ecosystemInfo', [1]);
    expectShape(info, ECOSYSTEM_INFO);
    expect(info).toMatchObject({ id: 1, name: 'platform ecosystem', digits: 12, token_symbol: 'IBXC' });
    expect(info.total_amount).toBe('2100000000000000000000');
    expect(info.creator).toBe(node.client.accountOf(node.founderKey));
    const missing = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.ecosystemInfo',
      params: [42],
    });
    expect(missing.body.error).toEqual({ code: -32012, message: 'NotFound' });
  });

  it('answers keyinfo for the founder with its ecosystems and roles', async () => {
    const account = node.client.accountOf(node.founderKey);
    const answer = await node.client.get(`/api/v2/keyinfo/${account}`);
    expect(answer.status).toBe(200);
    expectShape(answer.body, { account: 'string', ecosystems: 'array' });
    expect(answer.body.account).toBe(account);
    const [ecosystem] = answer.body.ecosystems;
    expectShape(ecosystem, {
      ecosystem: 'string',
      name: 'string',
      digits: 'number',
      roles: 'array',
      notifications: 'array',
    });
    expect(ecosystem).toMatchObject({ ecosystem: '1', name: 'platform ecosystem', digits: 12 });
    expect(ecosystem.roles.map((role: { name: string }) => role.name)).toEqual(['Admin', 'Developer']);
    expectShape(ecosystem.roles[0], { id: 'string', name: 'string' });
    expect(ecosystem.notifications[0]).toEqual({ role_id: '0', count: 0 });

    const rpc = await node.client.rpc('ibax.getKeyInfo', [account]);
    expectShape(rpc, { account: 'string', key_id: 'string', ecosystems: 'array' });
    expect(rpc.ecosystems).toEqual(answer.body.ecosystems);
  });

  it('accepts every account form in keyinfo and refuses invalid ones', async () => {
    const account = node.client.accountOf(node.founderKey);
    const keyId = (await node.client.rpc('ibax.getKeyInfo', [account])).key_id as string;
    const unsigned = (BigInt(keyId) < 0n ? BigInt(keyId) + 2n ** 64n : BigInt(keyId)).toString();
    for (const form of [keyId, unsigned]) {
      expect((await node.client.get(`/api/v2/keyinfo/${form}`)).body.account).toBe(account);
    }
    expectRestError(
      await node.client.get('/api/v2/keyinfo/1234-5678'),
      400,
      'E_INVALIDWALLET',
      'Wallet 1234-5678 is not valid',
    );
    const bad = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getKeyInfo',
      params: ['nope'],
    });
    expect(bad.body.error).toEqual({ code: -32602, message: 'account address nope is not valid' });
  });

  it('answers keyinfo for an unknown account with the first ecosystem', async () => {
    const answer = await node.client.get('/api/v2/keyinfo/0000-0000-0000-0000-5555');
    expect(answer.body.ecosystems).toHaveLength(1);
    const unknown = await node.client.get('/api/v2/keyinfo/0398-3063-4627-4411-1396');
    expect(unknown.body).toEqual({
      account: '0398-3063-4627-4411-1396',
      ecosystems: [
        { ecosystem: '1', name: 'platform ecosystem', digits: 0, notifications: [{ role_id: '', count: 0 }] },
      ],
    });
  });

  it('reports memory use', async () => {
    const mem = await node.client.rpc('debug.getMemStat');
    expectShape(mem, { alloc: 'number', sys: 'number' });
    expect(mem.alloc).toBeGreaterThan(0);
    expectShape((await node.client.get('/api/v2/metrics/mem')).body, { alloc: 'number', sys: 'number' });
  });
});

describe('second start', () => {
  it('reuses the keys, the genesis block and the JWT secret', async () => {
    const before = await node.client.get('/api/v2/block/1');
    const session = await node.client.login(node.founderKey);
    const founderKey = node.founderKey;
    await node.stop();
    node = await startNode({ dataDir: node.dataDir, databaseUrl: db.url });
    expect(node.founderKey).toBe(founderKey);
    expect((await node.client.get('/api/v2/block/1')).body).toEqual(before.body);
    expect((await node.client.get('/api/v2/maxblockid')).body).toEqual({ max_block_id: 1 });
    const status = await node.client.get('/api/v2/auth/status', { token: session.token });
    expect(status.body.active).toBe(true);
  });
});

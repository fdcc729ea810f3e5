import { beforeAll, describe, expect, it } from 'vitest';
import { useTestNode, type TestNode } from './support/node';
import { craftToken, expectRestError, expectShape, unsignedToken } from './support/wire';

const running = useTestNode();
let node: TestNode;

beforeAll(async () => {
  node = running.node;
  await node.client.login(node.founderKey);
});

const CONTRACT_SHAPE = {
  id: 'number',
  state: 'number',
  tableid: 'string',
  walletid: 'string',
  tokenid: 'string',
  address: 'string',
  fields: 'array',
  name: 'string',
  app_id: 'number',
  ecosystem: 'number',
  conditions: 'string',
} as const;

describe('contract/{name}', () => {
  it('describes a genesis contract with its data fields', async () => {
    const answer = await node.client.get('/api/v2/contract/NewPage');
    expect(answer.status).toBe(200);
    expectShape(answer.body, CONTRACT_SHAPE);
    expect(answer.body).toMatchObject({
      name: '@1NewPage',
      state: 1,
      walletid: '0',
      tokenid: '1',
      address: '0000-0000-0000-0000-0000',
      app_id: 1,
      ecosystem: 1,
      conditions: 'ContractConditions("MainCondition")',
    });
    expect(answer.body.id).toBe(5000 + Number(answer.body.tableid));
    expect(answer.body.fields).toEqual([
      { name: 'ApplicationId', type: 'int', optional: false },
      { name: 'Name', type: 'string', optional: false },
      { name: 'Value', type: 'string', optional: false },
      { name: 'Menu', type: 'string', optional: false },
      { name: 'Conditions', type: 'string', optional: false },
      { name: 'ValidateCount', type: 'int', optional: true },
      { name: 'ValidateMode', type: 'string', optional: true },
    ]);
    expectShape(answer.body.fields[0], { name: 'string', type: 'string', optional: 'boolean' });
  });

  it('resolves @1Name, @Name and plain names, and has ids from the table row', async () => {
    const plain = (await node.client.get('/api/v2/contract/MainCondition')).body;
    expect((await node.client.get('/api/v2/contract/@1MainCondition')).body).toEqual(plain);
    expect((await node.client.get('/api/v2/contract/@MainCondition')).body).toEqual(plain);
    expect((await node.client.get('/api/v2/contract/%401MainCondition')).body).toEqual(plain);
    expect(plain).toMatchObject({ id: 5002, tableid: '2', fields: [] });
    expect((await node.client.get('/api/v2/contract/DeveloperCondition')).body.id).toBe(5001);
  });

  it('answers E_CONTRACT for unknown names, over REST and JSON-RPC', async () => {
    expectRestError(
      await node.client.get('/api/v2/contract/Nope'),
      404,
      'E_CONTRACT',
      'There is not Nope contract',
    );
    expectRestError(await node.client.get('/api/v2/contract/@7NewPage'), 404, 'E_CONTRACT');
    const answer = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getContractInfo',
      params: ['Nope'],
    });
    expect(answer.body.error).toEqual({ code: -32000, message: 'There is not Nope contract' });
    for (const empty of ['', null]) {
      const refused = await node.client.rpcRaw({
        jsonrpc: '2.0',
        id: 2,
        method: 'ibax.getContractInfo',
        params: [empty],
      });
      expect(refused.body).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32602, message: 'params can not be empty' },
      });
    }
  });

  it('is the same over JSON-RPC', async () => {
    const rest = (await node.client.get('/api/v2/contract/NewContract')).body;
    expect(await node.client.rpc('ibax.getContractInfo', ['NewContract'])).toEqual(rest);
    expect(await node.client.rpc('chain.getContractInfo', ['@1NewContract'])).toEqual(rest);
  });

  it('needs a session: no token, an expired one, a forged one', async () => {
    expectRestError(
      await node.client.get('/api/v2/contract/NewPage', { token: null }),
      401,
      'E_UNAUTHORIZED',
      'Unauthorized',
    );
    const expired = craftToken(node.config.jwtSecret, { key_id: '1', ecosystem_id: '1', exp: 1_000 });
    expectRestError(
      await node.client.get('/api/v2/contract/NewPage', { token: expired }),
      401,
      'E_TOKENEXPIRED',
      /^Token is expired by /,
    );
    const forged = craftToken('some other secret, long enough', {
      key_id: '1',
      ecosystem_id: '1',
      exp: 9_999_999_999,
    });
    expectRestError(await node.client.get('/api/v2/contracts', { token: forged }), 401, 'E_UNAUTHORIZED');
    const none = unsignedToken({ key_id: '1', ecosystem_id: '1', exp: 9_999_999_999 });
    expectRestError(await node.client.get('/api/v2/contracts', { token: none }), 401, 'E_UNAUTHORIZED');
    const uid = await node.client.get('/api/v2/getuid', { token: null });
    expectRestError(
      await node.client.get('/api/v2/contracts', { token: uid.body.token }),
      401,
      'E_UNAUTHORIZED',
    );
    const rpc = await node.client.rpcRaw(
      { jsonrpc: '2.0', id: 1, method: 'ibax.getContracts' },
      { token: expired },
    );
    expect(rpc.body.error.code).toBe(-32014);
  });
});

describe('contracts', () => {
  it('lists the ecosystem contracts with defaults limit 25, offset 0', async () => {
    const answer = await node.client.get('/api/v2/contracts');
    expect(answer.status).toBe(200);
    expectShape(answer.body, { count: 'number', list: 'array' });
    expect(answer.body.count).toBe(50);
    expect(answer.body.list).toHaveLength(25);
    const [first] = answer.body.list;
    expectShape(first, {
      address: 'string',
      app_id: 'string',
      conditions: 'string',
      ecosystem_id: 'string',
      id: 'string',
      name: 'string',
      token_id: 'string',
      value: 'string',
      wallet_id: 'string',
    });
    expect(first).toMatchObject({
      id: '1',
      name: 'DeveloperCondition',
      ecosystem_id: '1',
      wallet_id: '0',
      token_id: '1',
    });
    expect(first.value).toContain('contract DeveloperCondition');
  });

  it('pages with limit and offset, and writes null for an empty page', async () => {
    const page = await node.client.get('/api/v2/contracts?limit=2&offset=1');
    expect(page.body.list.map((row: { id: string }) => row.id)).toEqual(['2', '3']);
    expect((await node.client.get('/api/v2/contracts?limit=5000')).body.list).toHaveLength(50);
    const empty = await node.client.get('/api/v2/contracts?offset=100');
    expect(empty.text).toBe('{"count":50,"list":null}');
    expectRestError(
      await node.client.get('/api/v2/contracts?limit=abc'),
      400,
      'E_SERVER',
      'schema: error converting value for "limit"',
    );
  });

  it('is the same over JSON-RPC, with limit at most 100', async () => {
    const rest = (await node.client.get('/api/v2/contracts?limit=3&offset=2')).body;
    expect(await node.client.rpc('ibax.getContracts', [2, 3])).toEqual(rest);
    const all = await node.client.rpc('ibax.getContracts', [0, 1000]);
    expect(all.list).toHaveLength(50);
    expect((await node.client.rpc('ibax.getContracts')).list).toHaveLength(25);
    const bad = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getContracts',
      params: ['x'],
    });
    expect(bad.body.error.code).toBe(-32602);
  });
});

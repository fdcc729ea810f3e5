import { beforeAll, describe, expect, it } from 'vitest';
import type { IbaxClient } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';
import { expectRestError, expectShape } from '../support/wire';
import { buildScenario, SECRET_READ, type Scenario } from './scenario';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let s: Scenario;

beforeAll(async () => {
  node = running.node;
  s = await buildScenario(node);
}, 120_000);

/** Ecosystem 1's `items` rows as the API writes them (after SetWeight changed row 1). */
const ANVIL = {
  amount: '70',
  created: '2023-11-14T22:13:20Z',
  data: '{"size": {"w": 70}, "color": "black"}',
  id: '1',
  image: '696d67',
  name: 'anvil',
  ratio: '0',
  secret: 's-anvil-2',
  weight: '71',
};
const FEATHER = {
  amount: '1',
  created: 'NULL',
  data: '{"size": {"w": 1}, "color": "white"}',
  id: '2',
  image: '',
  name: 'feather',
  ratio: '0',
  secret: 's-feather',
  weight: '1',
};
const CLOCK = {
  amount: '5',
  created: '2020-09-13T12:26:40Z',
  data: '{"size": {"w": 5}, "color": "grey"}',
  id: '3',
  image: '',
  name: "o'clock",
  ratio: '0',
  secret: 's-clock',
  weight: '5',
};
const withoutSecret = ({ secret: _secret, ...row }: Record<string, string>) => row;

const get = (client: IbaxClient, path: string) => client.get(`/api/v2/${path}`);
const post = (client: IbaxClient, path: string, fields: Record<string, string>) =>
  client.postForm(`/api/v2/${path}`, fields);

async function rpcError(client: IbaxClient, method: string, params: unknown) {
  const answer = await client.rpcRaw({ jsonrpc: '2.0', id: 7, method, params });
  expect(answer.status).toBe(200);
  expect(answer.body.result, `${method} should fail`).toBeUndefined();
  return answer.body.error as { code: number; message: string };
}

describe('auth', () => {
  it('answers every read only to a session: 401 E_UNAUTHORIZED, JSON-RPC -32014', async () => {
    for (const path of [
      'tables',
      'table/items',
      'list/items',
      'row/items/1',
      'row/items/name/anvil',
      'history/items/1',
      'listWhere/items',
      'nodelistWhere/items',
    ]) {
      expectRestError(await node.client.get(`/api/v2/${path}`), 401, 'E_UNAUTHORIZED', 'Unauthorized');
    }
    for (const path of ['listWhere/items', 'nodelistWhere/items', 'sumWhere/items']) {
      expectRestError(await node.client.postForm(`/api/v2/${path}`, {}), 401, 'E_UNAUTHORIZED');
    }
    for (const [method, params] of [
      ['ibax.getTableCount', []],
      ['ibax.getTable', ['items']],
      ['ibax.getList', [{ name: 'items' }]],
      ['ibax.getRow', ['items', 1]],
      ['ibax.history', ['items', 1]],
    ] as const) {
      expect(await rpcError(node.client, method, params)).toEqual({ code: -32014, message: 'Unauthorized' });
    }
  });
});

describe('tables / getTableCount', () => {
  it('lists the ecosystem’s registered tables with row counts as strings', async () => {
    const answer = await get(s.eco1, 'tables?limit=1000');
    expect(answer.status).toBe(200);
    expectShape(answer.body, { count: 'number', list: 'array' });
    expect(answer.body.list).toHaveLength(Number(answer.body.count));
    for (const entry of answer.body.list) expectShape(entry, { name: 'string', count: 'string' });
    const byName = Object.fromEntries(answer.body.list.map((e: { name: string; count: string }) => [e.name, e.count]));
    expect(byName.items).toBe('3');
    expect(byName.vault).toBe('1');
    const eco2 = await get(s.eco2, 'tables?limit=1000');
    const eco2ByName = Object.fromEntries(eco2.body.list.map((e: { name: string; count: string }) => [e.name, e.count]));
    expect(eco2ByName.items).toBe('2');
    expect(eco2ByName.vault).toBe('1');
  });

  it('pages with limit and offset, answers a bad form with 502', async () => {
    const all = (await get(s.eco1, 'tables?limit=1000')).body;
    const page = await get(s.eco1, 'tables?limit=2&offset=1');
    expect(page.body).toEqual({ count: all.count, list: all.list.slice(1, 3) });
    expectRestError(await get(s.eco1, 'tables?limit=abc'), 502, 'E_SERVER', 'schema: error converting value for "limit"');
    const rpc = await s.eco1.rpc('ibax.getTableCount', [1, 2]);
    expect(rpc).toEqual(page.body);
    const capped = await s.eco1.rpc('chain.getTableCount', [0, 5000]);
    expect(capped.list).toHaveLength(Math.min(100, Number(all.count)));
  });
});

describe('table / getTable', () => {
  const ITEM_TYPES = {
    name: 'varchar',
    amount: 'money',
    weight: 'number',
    data: 'json',
    created: 'datetime',
    image: 'bytea',
    ratio: 'double',
    secret: 'text',
  };

  it('describes a table: permissions, app_id as a string, each column’s type and permission', async () => {
    const answer = await get(s.eco1, 'table/items');
    expect(answer.status).toBe(200);
    expectShape(answer.body, {
      name: 'string',
      insert: 'string',
      new_column: 'string',
      update: 'string',
      conditions: 'string',
      app_id: 'string',
      columns: 'array',
    });
    expect(answer.body).toMatchObject({ name: 'items', insert: 'true', new_column: 'true', update: 'true', app_id: '1' });
    const columns = Object.fromEntries(
      answer.body.columns.map((c: { name: string; type: string; perm: string }) => {
        expectShape(c, { name: 'string', type: 'string', perm: 'string' });
        return [c.name, c.type];
      }),
    );
    expect(columns).toEqual(ITEM_TYPES);
    const secret = answer.body.columns.find((c: { name: string }) => c.name === 'secret');
    expect(JSON.parse(secret.perm)).toEqual({ update: 'true', read: SECRET_READ });
    const vault = await get(s.eco1, 'table/VAULT');
    expect(vault.body).toMatchObject({ name: 'vault', read: SECRET_READ });
    expect(Object.keys(vault.body)).toEqual([
      'name',
      'insert',
      'new_column',
      'update',
      'read',
      'conditions',
      'app_id',
      'columns',
    ]);
    expect(await s.eco1.rpc('ibax.getTable', ['items'])).toEqual(answer.body);
  });

  it('answers E_TABLENOTFOUND for a table the ecosystem does not have', async () => {
    expectRestError(await get(s.eco1, 'table/nope'), 404, 'E_TABLENOTFOUND', 'Table nope has not been found');
    expectRestError(await get(s.eco1, 'table/@2items'), 404, 'E_TABLENOTFOUND');
    expect(await rpcError(s.eco1, 'ibax.getTable', ['nope'])).toEqual({
      code: -32000,
      message: 'Table nope has not been found',
    });
    expect((await rpcError(s.eco1, 'ibax.getTable', [''])).message).toBe('params can not be empty');
  });
});

describe('list / getList', () => {
  it('answers every row as strings with sorted members: NULL, hex bytes, RFC 3339 times, jsonb text', async () => {
    const answer = await get(s.eco1, 'list/items');
    expect(answer.status).toBe(200);
    expectShape(answer.body, { count: 'number', list: 'array' });
    expect(answer.body).toEqual({ count: 3, list: [ANVIL, FEATHER, CLOCK] });
    expect(Object.keys(answer.body.list[0])).toEqual(Object.keys(ANVIL).sort());
  });

  it('pages, picks columns (id always) and JSON paths', async () => {
    expect((await get(s.eco1, 'list/items?limit=1&offset=1')).body).toEqual({ count: 3, list: [FEATHER] });
    const paths = await get(s.eco1, 'list/items?columns=name,data->color,data->size->w');
    expect(paths.status, paths.text).toBe(200);
    expect(paths.body.list[0]).toEqual({
      'data.color': 'black',
      'data.size.w': '70',
      id: '1',
      name: 'anvil',
    });
    const lenient = await get(s.eco1, 'list/items?columns=NAME&limit=0&offset=-5');
    expect(lenient.body, lenient.text).toEqual({
      count: 3,
      list: [ANVIL, FEATHER, CLOCK].map(({ id, name }) => ({ id, name })),
    });
  });

  it('reads the caller’s ecosystem: its own table of the same name, its rows of shared tables', async () => {
    const eco2 = await get(s.eco2, 'list/items?columns=name');
    expect(eco2.body).toEqual({
      count: 2,
      list: [
        { id: '1', name: 'eco2-alpha' },
        { id: '2', name: 'eco2-beta' },
      ],
    });
    const keys = await get(s.eco2, 'list/keys?columns=ecosystem&limit=1000');
    expect(keys.body.count).toBeGreaterThan(0);
    expect(keys.body.list.every((row: { ecosystem: string }) => row.ecosystem === s.eco2Id)).toBe(true);
    expect((await get(s.eco2, `list/@${s.eco2Id}items?columns=name`)).body).toEqual(eco2.body);
    expect((await get(s.eco2, `list/${s.eco2Id}_items?columns=name`)).body).toEqual(eco2.body);
  });

  it('refuses other ecosystems’ tables and unknown tables', async () => {
    expectRestError(await get(s.eco1, `list/@${s.eco2Id}items`), 404, 'E_TABLENOTFOUND');
    expectRestError(await get(s.eco1, `list/${s.eco2Id}_items`), 404, 'E_TABLENOTFOUND');
    expectRestError(await get(s.eco2, 'list/@1keys'), 404, 'E_TABLENOTFOUND');
    expectRestError(await get(s.eco1, 'list/@99items'), 400, 'E_ECOSYSTEM', "Ecosystem 99 doesn't exist");
    expectRestError(await get(s.eco1, 'list/nope'), 404, 'E_TABLENOTFOUND', 'Table 1_nope has not been found');
    expectRestError(await get(s.eco1, 'list/items?columns=nope'), 400, 'E_SERVER', 'column nope does not exist');
  });

  it('applies read permissions: hidden columns, refused tables', async () => {
    const answer = await get(s.stranger, 'list/items');
    expect(answer.body).toEqual({ count: 3, list: [ANVIL, FEATHER, CLOCK].map(withoutSecret) });
    expect((await get(s.stranger, 'list/items?columns=name,secret')).body.list[0]).toEqual({ id: '1', name: 'anvil' });
    expectRestError(await get(s.stranger, 'list/items?columns=secret'), 400, 'E_SERVER');
    expectRestError(await get(s.stranger, 'list/vault'), 400, 'E_SERVER', 'table: access denied');
    expect((await get(s.eco1, 'list/vault')).body).toEqual({ count: 1, list: [{ id: '1', label: 'gold' }] });
  });

  it('getList takes one object, where as text or as an object, and caps limit at 100', async () => {
    const where = '{"weight":{"$gt":2}}';
    const rest = (await post(s.eco1, 'listWhere/items', { where, columns: 'name', order: '{"weight":-1}' })).body;
    expect(rest).toEqual({ count: 2, list: [{ id: '1', name: 'anvil' }, { id: '3', name: "o'clock" }] });
    const form = { name: 'items', columns: 'name', order: { weight: -1 } };
    expect(await s.eco1.rpc('ibax.getList', [{ ...form, where }])).toEqual(rest);
    expect(await s.eco1.rpc('ibax.getList', { ...form, where: { weight: { $gt: 2 } } })).toEqual(rest);
    expect(await s.eco1.rpc('chain.getList', [{ NAME: 'items', Limit: 1 }])).toEqual({ count: 3, list: [ANVIL] });
    expect(await s.eco1.rpc('ibax.getList', [{ name: 'items', where: '{"name":"none"}' }])).toEqual({
      count: 0,
      list: null,
    });
    expect((await rpcError(s.eco1, 'ibax.getList', [{}])).message).toBe('params can not be empty');
    expect(await rpcError(s.eco1, 'ibax.getList', [{ name: 'nope' }])).toEqual({
      code: -32000,
      message: 'Table 1_nope has not been found',
    });
    expect(await rpcError(s.eco1, 'ibax.getList', [{ name: 'items', where: ' {"id":1}' }])).toEqual({
      code: -32000,
      message: 'Where has wrong format',
    });
  });

  it('refuses values of the wrong type: the form with schema texts, JSON-RPC params with Go’s, naming the member', async () => {
    expectRestError(await get(s.eco1, 'list/items?limit=abc&offset=x'), 400, 'E_SERVER', 'schema: error converting value for "limit" (and 1 other error)');
    expectRestError(await post(s.eco1, 'listWhere/items', { offset: '1.5' }), 400, 'E_SERVER', 'schema: error converting value for "offset"');
    expectRestError(await get(s.eco1, 'nodelistWhere/items?limit=99999999999999999999'), 400, 'E_SERVER', 'schema: error converting value for "limit"');
    const refusal = (message: string) => ({ code: -32602, message });
    expect(await rpcError(s.eco1, 'ibax.getList', [{ name: 'items', limit: '1' }])).toEqual(
      refusal('invalid argument 1: limit: json: cannot unmarshal string into Go value of type int64'),
    );
    expect(await rpcError(s.eco1, 'ibax.getList', { name: 'items', OFFSET: 1.5 })).toEqual(
      refusal('invalid argument 1: offset: json: cannot unmarshal number 1.5 into Go value of type int64'),
    );
    expect(await rpcError(s.eco1, 'ibax.getList', [{ name: 7 }])).toEqual(
      refusal('invalid argument 1: name: json: cannot unmarshal number 7 into Go value of type string'),
    );
    expect(await rpcError(s.eco1, 'ibax.getList', ['items'])).toEqual(
      refusal('invalid argument 1: json: cannot unmarshal string into Go value of type object'),
    );
    expect(await rpcError(s.eco1, 'ibax.getList', [{ name: 'items' }, {}])).toEqual(refusal('too many arguments, want 1'));
    expect((await rpcError(s.eco1, 'ibax.getList', [])).message).toBe('params can not be empty');
    expect(await rpcError(s.eco1, 'ibax.getTableCount', ['1'])).toEqual(
      refusal('invalid argument 1: json: cannot unmarshal string into Go value of type int64'),
    );
    expect(await rpcError(s.eco1, 'ibax.getTable', [])).toEqual(refusal('missing value for required argument 1'));
    expect(await rpcError(s.eco1, 'ibax.getRow', ['items', '1'])).toEqual(
      refusal('invalid argument 2: json: cannot unmarshal string into Go value of type int64'),
    );
    expect(await rpcError(s.eco1, 'ibax.history', ['items', -1])).toEqual(
      refusal('invalid argument 2: json: cannot unmarshal number -1 into Go value of type uint64'),
    );
    // A required argument sent as null is its zero value, which the method refuses itself.
    expect((await rpcError(s.eco1, 'ibax.history', ['items', null])).message).toBe('invalid params');
  });
});

describe('listWhere / nodelistWhere', () => {
  const names = async (client: IbaxClient, where: string, order?: string) => {
    const fields: Record<string, string> = { where, columns: 'name' };
    if (order) fields.order = order;
    const answer = await post(client, 'listWhere/items', fields);
    expect(answer.status, `${where}: ${answer.text}`).toBe(200);
    return (answer.body.list ?? []).map((row: { name: string }) => row.name);
  };

  it('filters with every operator of the where language', async () => {
    const cases: [string, string[]][] = [
      ['{"name":"anvil"}', ['anvil']],
      ['{"weight":{"$eq":1}}', ['feather']],
      ['{"weight":{"$neq":1}}', ['anvil', "o'clock"]],
      ['{"weight":{"$gt":5}}', ['anvil']],
      ['{"weight":{"$gte":5}}', ['anvil', "o'clock"]],
      ['{"weight":{"$lt":5}}', ['feather']],
      ['{"weight":{"$lte":5}}', ['feather', "o'clock"]],
      ['{"name":{"$in":["anvil","feather"]}}', ['anvil', 'feather']],
      ['{"name":{"$nin":["anvil","feather"]}}', ["o'clock"]],
      ['{"name":{"$like":"ea"}}', ['feather']],
      ['{"name":{"$ilike":"EA"}}', ['feather']],
      ['{"name":{"$begin":"an"}}', ['anvil']],
      ['{"name":{"$ibegin":"AN"}}', ['anvil']],
      ['{"name":{"$end":"ck"}}', ["o'clock"]],
      ['{"name":{"$iend":"CK"}}', ["o'clock"]],
      ['{"created":"$isnull"}', ['feather']],
      ['{"created":{"$isnull":1}}', ['feather']],
      ['{"$or":[{"weight":1},{"name":{"$begin":"o\'"}}]}', ['feather', "o'clock"]],
      ['{"$and":[{"weight":{"$gt":1}},{"weight":{"$lt":71}}]}', ["o'clock"]],
      ['{"weight":[{"$gt":1},{"$lt":71}]}', ["o'clock"]],
      ['{"data->color":"white"}', ['feather']],
      ['{"data->size->w":{"$in":["5","70"]}}', ['anvil', "o'clock"]],
      ['{"name":{"$in":[]}}', []],
      ['{}', ['anvil', 'feather', "o'clock"]],
    ];
    for (const [where, expected] of cases) expect(await names(s.eco1, where), where).toEqual(expected);
  });

  it('orders by a name, a map or a list, ties broken by id', async () => {
    expect(await names(s.eco1, '{}', '"name"')).toEqual(['anvil', 'feather', "o'clock"]);
    expect(await names(s.eco1, '{}', '{"weight":-1}')).toEqual(['anvil', "o'clock", 'feather']);
    expect(await names(s.eco1, '{}', '[{"ratio":1},{"amount":"-1"}]')).toEqual(['anvil', "o'clock", 'feather']);
    expect(await names(s.eco1, '{}', 'weight desc')).toEqual(['anvil', "o'clock", 'feather']);
  });

  it('serves POST and GET, listWhere and nodelistWhere alike; list is null when nothing matches', async () => {
    const where = encodeURIComponent('{"weight":{"$lt":5}}');
    const expected = { count: 1, list: [FEATHER] };
    for (const path of ['listWhere', 'nodelistWhere']) {
      expect((await get(s.eco1, `${path}/items?where=${where}`)).body).toEqual(expected);
      expect((await post(s.eco1, `${path}/items`, { where: '{"weight":{"$lt":5}}' })).body).toEqual(expected);
    }
    expect((await post(s.eco1, 'nodelistWhere/items', { where: '{"name":"none"}' })).body).toEqual({
      count: 0,
      list: null,
    });
  });

  it('keeps shared tables to the caller’s ecosystem', async () => {
    const answer = await post(s.eco2, 'listWhere/keys', { where: '{}', columns: 'ecosystem', limit: '1000' });
    expect(answer.body.count).toBeGreaterThan(0);
    expect(answer.body.list.every((row: { ecosystem: string }) => row.ecosystem === s.eco2Id)).toBe(true);
    const other = await post(s.eco2, 'listWhere/keys', { where: '{"ecosystem":1}' });
    expect(other.body).toEqual({ count: 0, list: null });
  });

  it('refuses bad where, order and columns with E_SERVER, unknown tables with E_TABLENOTFOUND', async () => {
    const refusals: [Record<string, string>, string][] = [
      [{ where: ' {"id":1}' }, 'Where has wrong format'],
      [{ where: '[1]' }, 'Where has wrong format'],
      [{ where: '{"id":1,}' }, 'unexpected comma'],
      [{ where: '{"id":1' }, 'where parse object failed'],
      [{ where: '{"nope":1}' }, 'where: unknown column nope'],
      [{ where: '{"name":{"$regex":"a"}}' }, 'where: unknown operator $regex'],
      [{ where: '{"$eq":1}' }, 'where: unknown column $eq'],
      [{ order: '{"nope":1}' }, 'order: unknown column nope'],
      [{ order: 'id; DROP TABLE "1_items"' }, 'order: unknown direction in id; DROP TABLE "1_items"'],
      [{ columns: 'name,"x' }, 'column "x does not exist'],
    ];
    for (const [fields, message] of refusals) {
      expectRestError(await post(s.eco1, 'listWhere/items', fields), 400, 'E_SERVER', message);
    }
    const typed = await post(s.eco1, 'listWhere/items', { where: '{"weight":"heavy"}' });
    expectRestError(typed, 400, 'E_SERVER', /invalid input syntax/);
    expectRestError(await post(s.stranger, 'listWhere/items', { where: '{"secret":"s-anvil-2"}' }), 400, 'E_SERVER');
    expectRestError(await post(s.eco1, 'listWhere/nope', {}), 404, 'E_TABLENOTFOUND');
  });
});

describe('sumWhere', () => {
  it('sums a number column over the matching rows, "" when none match', async () => {
    expect((await post(s.eco1, 'sumWhere/items', { column: 'weight' })).body).toEqual({ sum: '77' });
    expect((await post(s.eco1, 'sumWhere/items', { column: 'amount', where: '{"weight":{"$lt":71}}' })).body).toEqual({
      sum: '6',
    });
    expect((await get(s.eco1, 'sumWhere/items?column=weight&where=%7B%22name%22%3A%22none%22%7D')).body).toEqual({
      sum: '',
    });
    expect((await post(s.eco2, 'sumWhere/items', { column: 'weight' })).body).toEqual({ sum: '300' });
  });

  it('refuses columns that are not numbers, bad where and unknown tables', async () => {
    expectRestError(await post(s.eco1, 'sumWhere/items', { column: 'name' }), 400, 'E_SERVER', 'column name is not a number column');
    expectRestError(await post(s.eco1, 'sumWhere/items', { column: '' }), 400, 'E_SERVER');
    // The column is optional to the form (as in the reference): none is the empty one, which no table has.
    expectRestError(await post(s.eco1, 'sumWhere/items', {}), 400, 'E_SERVER', 'column  does not exist');
    expectRestError(await post(s.eco1, 'sumWhere/items', { column: 'weight', where: 'x' }), 400, 'E_SERVER', 'Where has wrong format');
    expectRestError(await post(s.eco1, 'sumWhere/nope', { column: 'weight' }), 404, 'E_TABLENOTFOUND');
    expectRestError(await post(s.stranger, 'sumWhere/vault', { column: 'id' }), 400, 'E_SERVER', 'table: access denied');
  });
});

describe('row / getRow', () => {
  it('answers a row by id or by another column, with the chosen columns and id', async () => {
    const answer = await get(s.eco1, 'row/items/1');
    expect(answer.status).toBe(200);
    expectShape(answer.body, { value: 'object' });
    expect(answer.body).toEqual({ value: ANVIL });
    expect((await get(s.eco1, 'row/items/3?columns=name,data->size->w')).body).toEqual({
      value: { 'data.size.w': '5', id: '3', name: "o'clock" },
    });
    expect((await get(s.eco1, 'row/items/name/feather')).body).toEqual({ value: FEATHER });
    expect((await get(s.eco1, `row/items/name/${encodeURIComponent("o'clock")}?columns=weight`)).body).toEqual({
      value: { id: '3', weight: '5' },
    });
    expect((await get(s.eco2, 'row/items/1?columns=name')).body).toEqual({ value: { id: '1', name: 'eco2-alpha' } });
    expect((await get(s.stranger, 'row/items/1')).body).toEqual({ value: withoutSecret(ANVIL) });
  });

  it('answers E_NOTFOUND for a missing row, E_TABLENOTFOUND for a missing table', async () => {
    for (const path of ['row/items/99', 'row/items/abc', 'row/items/name/nobody', 'row/items/99999999999999999999']) {
      expectRestError(await get(s.eco1, path), 404, 'E_NOTFOUND', 'Page not found');
    }
    expectRestError(await get(s.eco1, 'row/nope/1'), 404, 'E_TABLENOTFOUND');
    expectRestError(await get(s.eco1, 'row/items/nope/1'), 400, 'E_SERVER');
    expectRestError(await get(s.eco1, `row/@${s.eco2Id}items/1`), 404, 'E_TABLENOTFOUND');
    expectRestError(await get(s.stranger, 'row/vault/1'), 400, 'E_SERVER', 'table: access denied');
  });

  it('getRow: [table, id, columns?, whereColumn?]', async () => {
    expect(await s.eco1.rpc('ibax.getRow', ['items', 1])).toEqual({ value: ANVIL });
    expect(await s.eco1.rpc('ibax.getRow', ['items', 2, 'name'])).toEqual({ value: { id: '2', name: 'feather' } });
    expect(await s.eco1.rpc('chain.getRow', ['items', 5, '', 'weight'])).toEqual({ value: CLOCK });
    expect(await rpcError(s.eco1, 'ibax.getRow', ['items', 99])).toEqual({ code: -32012, message: 'NotFound' });
    expect((await rpcError(s.eco1, 'ibax.getRow', ['', 1])).message).toBe('tableName or id invalid');
    expect((await rpcError(s.eco1, 'ibax.getRow', ['nope', 1])).message).toBe('Table 1_nope has not been found');
  });
});

describe('history', () => {
  it('lists what a row held before each change, newest first; hidden columns left out', async () => {
    const answer = await get(s.eco1, 'history/items/1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ list: [{ secret: 's-anvil', weight: '70' }] });
    expect((await get(s.stranger, 'history/items/1')).body).toEqual({ list: [{ weight: '70' }] });
    expect((await get(s.eco1, 'history/items/2')).body).toEqual({ list: [] });
    expect((await get(s.eco2, 'history/items/1')).body).toEqual({ list: [] });
    expect(await s.eco1.rpc('ibax.history', ['items', 1])).toEqual(answer.body);
  });

  it('errors: -32012 for none, invalid params, other ecosystems refused', async () => {
    expect(await rpcError(s.eco1, 'ibax.history', ['items', 2])).toEqual({ code: -32012, message: 'NotFound' });
    expect((await rpcError(s.eco1, 'ibax.history', ['', 1])).message).toBe('invalid params');
    expect((await rpcError(s.eco1, 'ibax.history', ['items', 0])).message).toBe('invalid params');
    expectRestError(await get(s.eco1, `history/@${s.eco2Id}items/1`), 404, 'E_TABLENOTFOUND');
  });
});

describe('after a schema change', () => {
  it('reads the new column as soon as its block is in (what was kept of the table is forgotten)', async () => {
    const before = await get(s.eco1, 'list/items?columns=name');
    expect(before.status).toBe(200);
    const unknown = await get(s.eco1, 'list/items?columns=late');
    expect(unknown.status).toBe(400);
    const added = await s.eco1.call(s.founderKey, 'NewColumn', {
      TableName: 'items',
      Name: 'late',
      Type: 'number',
      Permissions: 'true',
    });
    expect(added.status.errmsg).toBeUndefined();
    const after = await get(s.eco1, 'list/items?columns=late&limit=1');
    expect(after.status).toBe(200);
    expect(after.body.list[0]).toEqual({ id: '1', late: '0' });
    const described = await get(s.eco1, 'table/items');
    expect(described.body.columns.map((column: { name: string }) => column.name)).toContain('late');
  });
});

describe('after rows change', () => {
  it('answers row, list and sumWhere with the new values as soon as the block is in', async () => {
    const where = { where: JSON.stringify({ id: 1 }) };
    const read = async () => ({
      row: (await get(s.eco1, 'row/items/1?columns=weight')).body,
      list: (await get(s.eco1, 'list/items?columns=weight&limit=1')).body.list[0],
      sum: (await post(s.eco1, 'sumWhere/items', { column: 'weight', ...where })).body,
    });
    const before = await read();
    expect(await read()).toEqual(before);
    const changed = await s.eco1.call(s.founderKey, 'SetWeight', { Id: '1', Weight: '500', Secret: 's-anvil-3' });
    expect(changed.status.errmsg).toBeUndefined();
    const after = await read();
    expect(after.row).toEqual({ value: { id: '1', weight: '500' } });
    expect(after.list).toEqual({ id: '1', weight: '500' });
    expect(after.sum).toEqual({ ...before.sum, sum: '500' });
  });
});

describe('a JSON path asked twice', () => {
  it('is answered once, in row and list alike', async () => {
    const row = await get(s.eco1, 'row/items/3?columns=name,data->size->w,data->size->w');
    expect(row.status).toBe(200);
    expect(row.body).toEqual({ value: { 'data.size.w': '5', id: '3', name: "o'clock" } });
    const list = await get(s.eco1, 'list/items?columns=data->color,data->color&limit=1');
    expect(list.status).toBe(200);
    expect(Object.keys(list.body.list[0]).sort()).toEqual(['data.color', 'id']);
  });
});

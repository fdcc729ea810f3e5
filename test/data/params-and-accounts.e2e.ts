import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildCoinTransfer, type HttpAnswer } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';
import { ECOSYSTEM_INFO, expectRestError, expectShape } from '../support/wire';

/**
 * Parameters, application content, sections, interface rows, balances, key info, members and avatars,
 * binary downloads and the wallet history: everything is made by real transactions in real blocks, then
 * read over REST and JSON-RPC with exact shapes and every documented error.
 */
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let db: DatabaseService;
let founder: IbaxClient;
let founderAccount: string;

interface Session {
  client: IbaxClient;
  key: string;
  keyId: bigint;
  account: string;
}

/** The user: a fresh key registered by its first login; `clerk` is the same key acting as the Clerk role. */
let user: Session;
let clerk: IbaxClient;
const ids = { app: '', page: '', menu: '', snippet: '', role: '', section: '', binary: '', contract: '' };
const transfers: { hash: string; block: string }[] = [];
const AVATAR = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(200)]);
const MOTTO = 'buy <more> & save';

const NOTIFY = `contract Notify {
    data {
        Account string
        RoleId int
    }
    action {
        CallContract("@1NotificationsSend", {"Recipient": $Account, "Header": "hello"})
        CallContract("@1NotificationsBroadcast", {"RoleId": $RoleId, "Header": "clerks"})
        $result = "2"
    }
}`;

/** Runs a contract in a block and returns its result; the transaction must succeed. */
async function must(session: { client: IbaxClient; key: string }, contract: string, args: Record<string, any>) {
  const { status } = await session.client.call(session.key, contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result;
}

/** A JSON-RPC call answered with an error: its code and message. */
async function rpcError(client: IbaxClient, method: string, params: unknown, token?: string | null) {
  const answer = await client.rpcRaw({ jsonrpc: '2.0', id: 7, method, params }, { token });
  expect(answer.status).toBe(200);
  expect(answer.body.result, `${method} should fail`).toBeUndefined();
  return answer.body.error as { code: number; message: string };
}

const PARAMETER = { id: 'string', name: 'string', value: 'string', conditions: 'string' } as const;

function expectParameter(entry: unknown, name: string, value: string, conditions = 'true') {
  expectShape(entry, PARAMETER);
  expect(entry).toMatchObject({ name, value, conditions });
  expect((entry as { id: string }).id).toMatch(/^\d+$/);
}

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  founderAccount = (await founder.login(node.founderKey)).account;
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, founder.crypto);
  const session = await client.login(key);
  user = { client, key, keyId: BigInt(session.keyId), account: session.account };
  const boss = { client: founder, key: node.founderKey };

  ids.app = await must(boss, 'NewApplication', { Name: 'shop', Conditions: 'true' });
  await must(boss, 'NewParameter', { Name: 'shop_motto', Value: MOTTO, Conditions: 'true' });
  await must(boss, 'NewAppParam', { ApplicationId: ids.app, Name: 'colour', Value: 'blue', Conditions: 'true' });
  await must(boss, 'NewAppParam', { ApplicationId: ids.app, Name: 'size', Value: 'XL', Conditions: 'false' });
  ids.menu = await must(boss, 'NewMenu', {
    Name: 'shop_menu',
    Value: 'MenuItem(Title: Shop, Page: shop_home)',
    Title: 'Shop menu',
    Conditions: 'true',
  });
  ids.page = await must(boss, 'NewPage', {
    ApplicationId: ids.app,
    Name: 'shop_home',
    Value: 'Div(){Hi}',
    Menu: 'shop_menu',
    Conditions: 'true',
  });
  ids.snippet = await must(boss, 'NewSnippet', {
    ApplicationId: ids.app,
    Name: 'shop_snippet',
    Value: 'Span(x)',
    Conditions: 'true',
  });
  await must(boss, 'NewLang', {
    ApplicationId: ids.app,
    Name: 'shop_title',
    Trans: JSON.stringify({ en: 'Shop', fr: 'Boutique', 'pt-BR': 'Loja' }),
  });
  ids.role = await must(boss, 'RolesCreate', { RoleName: 'Clerk', DefaultPage: 'shop_home' });
  await must(boss, 'RolesAssign', { RoleId: ids.role, MemberAccount: user.account });
  ids.section = await must(boss, 'NewSection', {
    Title: '$shop_title$',
    Urlname: 'shop',
    Page: 'shop_home',
    RolesAccess: `[${ids.role}]`,
  });
  ids.contract = await must(boss, 'NewContract', { ApplicationId: ids.app, Value: NOTIFY, Conditions: 'true' });
  await must(boss, 'Notify', { Account: user.account, RoleId: ids.role });

  ids.binary = await must(user, 'UploadBinary', {
    ApplicationId: ids.app,
    Name: 'avatar.png',
    Data: AVATAR,
    DataMimeType: 'image/png',
  });
  await must(user, 'ProfileEdit', { MemberName: 'alice', ImageId: ids.binary, Info: '{"city":"Paris"}' });

  // The founder's coins start as an unspent output: some move to its account (type 6), some to the user (5).
  const coins = { networkId: node.config.networkId };
  const toAccount = buildCoinTransfer(
    founder.signer,
    node.founderKey,
    { transferSelf: { value: '1000000', source: 'UTXO', target: 'Account' } },
    coins,
  );
  const utxo = buildCoinTransfer(
    founder.signer,
    node.founderKey,
    { utxo: { toId: user.keyId, value: '7000', comment: 'coins' } },
    coins,
  );
  const coinHashes = await founder.sendTransactions([toAccount.bytes, utxo.bytes]);
  for (const status of Object.values(await founder.waitForTransactions(coinHashes))) {
    expect(status.errmsg).toBeUndefined();
  }
  for (const [session, to, amount, comment] of [
    [boss, user.account, '1500', 'pay'],
    [user, founderAccount, '500', 'change'],
  ] as const) {
    const { hash, status } = await session.client.call(session.key, 'TokensTransfer', {
      Recipient: to,
      Amount: amount,
      Comment: comment,
    });
    expect(status.errmsg).toBeUndefined();
    transfers.push({ hash, block: status.blockid });
  }
  clerk = new IbaxClient(node.url, founder.crypto);
  await clerk.login(user.key, { roleId: Number(ids.role) });
}, 120_000);

describe('parameters', () => {
  it('systemparams: all, by name, and E_PARAMNOTFOUND (400) when none matches', async () => {
    const platform = await db.query<{ name: string; value: string }>(
      'SELECT "name", "value" FROM "1_platform_parameters" ORDER BY "id"',
    );
    const all = await founder.get('/api/v2/systemparams');
    expect(all.status).toBe(200);
    expectShape(all.body, { list: 'array' });
    expect(all.body.list.map((entry: { name: string }) => entry.name)).toEqual(platform.map((row) => row.name));
    const two = await founder.get('/api/v2/systemparams?names=max_tx_size,gap_between_blocks');
    expect(two.body.list.map((entry: { name: string }) => entry.name).sort()).toEqual([
      'gap_between_blocks',
      'max_tx_size',
    ]);
    const maxTx = two.body.list.find((entry: { name: string }) => entry.name === 'max_tx_size');
    expectShape(maxTx, PARAMETER);
    expect(maxTx.value).toBe(platform.find((row) => row.name === 'max_tx_size')!.value);
    expectRestError(
      await founder.get('/api/v2/systemparams?names=nope'),
      400,
      'E_PARAMNOTFOUND',
      'Parameter nope has not been found',
    );

    const rpc = await founder.rpc('ibax.systemParams', ['max_tx_size']);
    expect(rpc).toEqual({ list: [maxTx] });
    const window = await founder.rpc('ibax.systemParams', [null, 1, 2]);
    expect(window.list).toEqual(all.body.list.slice(1, 3));
    expect((await founder.rpc('chain.systemParams', [])).list).toEqual(all.body.list.slice(0, 25));
    expect(await rpcError(founder, 'ibax.systemParams', ['nope'])).toMatchObject({ code: -32012 });
  });

  it('ecosystemparams: all without names, the named ones, and E_ECOSYSTEM', async () => {
    const stored = await db.query<{ name: string }>(
      'SELECT "name" FROM "1_parameters" WHERE "ecosystem" = 1 ORDER BY "id"',
    );
    const all = await founder.get('/api/v2/ecosystemparams');
    expect(all.status).toBe(200);
    expectShape(all.body, { list: 'array' });
    expect(all.body.list.map((entry: { name: string }) => entry.name)).toEqual(stored.map((row) => row.name));
    const named = await founder.get('/api/v2/ecosystemparams?names=shop_motto');
    expect(named.body.list).toHaveLength(1);
    expectParameter(named.body.list[0], 'shop_motto', MOTTO);
    // Go's JSON escaping on the wire.
    expect(named.text).toContain('buy \\u003cmore\\u003e \\u0026 save');
    expect((await founder.get('/api/v2/ecosystemparams?ecosystem=1&names=shop_motto')).body).toEqual(
      named.body,
    );
    expectRestError(
      await founder.get('/api/v2/ecosystemparams?ecosystem=999'),
      400,
      'E_ECOSYSTEM',
      "Ecosystem 999 doesn't exist",
    );
    expectRestError(await founder.get('/api/v2/ecosystemparams?ecosystem=x'), 400, 'E_SERVER');

    const one = await founder.get('/api/v2/ecosystemparam/shop_motto');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(named.body.list[0]);
    expectRestError(
      await founder.get('/api/v2/ecosystemparam/nope'),
      404,
      'E_PARAMNOTFOUND',
      'Parameter nope has not been found',
    );
    expectRestError(await founder.get('/api/v2/ecosystemparam/shop_motto?ecosystem=999'), 400, 'E_ECOSYSTEM');

    expect(await founder.rpc('ibax.getEcosystemParams', [0, 'shop_motto'])).toEqual(named.body);
    expect((await founder.rpc('ibax.getEcosystemParams', [])).list).toEqual(all.body.list.slice(0, 25));
    expect(await rpcError(founder, 'ibax.getEcosystemParams', [999])).toEqual({
      code: -32000,
      message: "ecosystem 999 doesn't exist",
    });
  });

  it('appparams, appparam and appcontent of an application', async () => {
    const params = await founder.get(`/api/v2/appparams/${ids.app}`);
    expect(params.status).toBe(200);
    expectShape(params.body, { app_id: 'string', list: 'array' });
    expect(params.body.app_id).toBe(ids.app);
    expect(params.body.list).toHaveLength(2);
    expectParameter(params.body.list[0], 'colour', 'blue');
    expectParameter(params.body.list[1], 'size', 'XL', 'false');
    const size = await founder.get(`/api/v2/appparams/${ids.app}?names=size`);
    expect(size.body.list).toEqual([params.body.list[1]]);
    expect((await founder.get('/api/v2/appparams/99999')).body).toEqual({ app_id: '99999', list: [] });
    expectRestError(await founder.get(`/api/v2/appparams/${ids.app}?ecosystem=999`), 400, 'E_ECOSYSTEM');

    const colour = await founder.get(`/api/v2/appparam/${ids.app}/colour`);
    expect(colour.body).toEqual(params.body.list[0]);
    expectRestError(
      await founder.get(`/api/v2/appparam/${ids.app}/nope`),
      404,
      'E_PARAMNOTFOUND',
      'Parameter nope has not been found',
    );

    const rpc = await founder.rpc('ibax.appParams', [Number(ids.app)]);
    expectShape(rpc, { app_id: 'number', list: 'array' });
    expect(rpc.app_id).toBe(Number(ids.app));
    expect(rpc.list).toEqual(params.body.list);
    expect((await founder.rpc('ibax.appParams', [Number(ids.app), null, 'colour'])).list).toEqual([
      params.body.list[0],
    ]);
    expect(await rpcError(founder, 'ibax.appParams', [Number(ids.app), 999])).toEqual({
      code: -32000,
      message: "ecosystem 999 doesn't exist",
    });

    const content = await founder.get(`/api/v2/appcontent/${ids.app}`);
    expect(content.status).toBe(200);
    expectShape(content.body, { snippets: 'array', pages: 'array', contracts: 'array' });
    expect(content.body).toEqual({
      snippets: [{ id: Number(ids.snippet), name: 'shop_snippet' }],
      pages: [{ id: Number(ids.page), name: 'shop_home' }],
      contracts: [{ id: Number(ids.contract), name: 'Notify' }],
    });
    expectShape(content.body.pages[0], { id: 'number', name: 'string' });
    expect((await founder.get('/api/v2/appcontent/99999')).body).toEqual({ snippets: [], pages: [], contracts: [] });
    expect(await founder.rpc('ibax.getAppContent', [Number(ids.app)])).toEqual(content.body);
  });

  it('need a session: 401 over REST, -32014 over JSON-RPC', async () => {
    for (const path of [
      '/api/v2/systemparams',
      '/api/v2/ecosystemparams',
      '/api/v2/ecosystemparam/shop_motto',
      `/api/v2/appparams/${ids.app}`,
      `/api/v2/appparam/${ids.app}/colour`,
      `/api/v2/appcontent/${ids.app}`,
      '/api/v2/sections',
      '/api/v2/interface/page/shop_home',
      '/api/v2/interface/menu/shop_menu',
      '/api/v2/interface/snippet/shop_snippet',
      '/api/v2/walletHistory',
    ]) {
      expectRestError(await node.client.get(path, { token: null }), 401, 'E_UNAUTHORIZED');
    }
    for (const [method, params] of [
      ['ibax.systemParams', []],
      ['ibax.getEcosystemParams', []],
      ['ibax.appParams', [1]],
      ['ibax.getAppContent', [1]],
      ['ibax.getSections', []],
      ['ibax.getPageRow', ['shop_home']],
      ['ibax.getMenuRow', ['shop_menu']],
      ['ibax.getSnippetRow', ['shop_snippet']],
    ] as const) {
      expect((await rpcError(node.client, method, params, null)).code).toBe(-32014);
    }
  });
});

describe('sections and interface rows', () => {
  const titleOf = (answer: HttpAnswer, urlname: string) =>
    answer.body.list?.find((section: { urlname: string }) => section.urlname === urlname)?.title;

  it('lists the sections the role may see, with titles in the asked language and the role default page', async () => {
    const visible = await db.one<{ count: string }>(
      'SELECT count(*) AS "count" FROM "1_sections" WHERE "ecosystem" = 1 AND "status" > 0',
    );
    const answer = await clerk.get('/api/v2/sections?lang=fr');
    expect(answer.status).toBe(200);
    expectShape(answer.body, { count: 'number', list: 'array' });
    expect(answer.body.count).toBe(Number(visible!.count));
    const home = answer.body.list.find((section: { urlname: string }) => section.urlname === 'home');
    expectShape(home, {
      default_page: 'string',
      ecosystem: 'string',
      id: 'string',
      page: 'string',
      roles_access: 'string',
      status: 'string',
      title: 'string',
      urlname: 'string',
    });
    expect(home.default_page).toBe('shop_home');
    expect(home.status).toBe('2');
    const shop = answer.body.list.find((section: { urlname: string }) => section.urlname === 'shop');
    expect(shop).toEqual({
      ecosystem: '1',
      id: ids.section,
      page: 'shop_home',
      roles_access: `[${ids.role}]`,
      status: '1',
      title: 'Boutique',
      urlname: 'shop',
    });

    const header = (value: string) => clerk.request('GET', '/api/v2/sections', { headers: { 'Accept-Language': value } });
    expect(titleOf(await header('pt-BR,pt;q=0.8'), 'shop')).toBe('Loja');
    expect(titleOf(await header('fr-CA'), 'shop')).toBe('Boutique');
    expect(titleOf(await header('de-DE,de'), 'shop')).toBe('Shop');
    // `lang` wins over the header.
    expect(
      titleOf(
        await clerk.request('GET', '/api/v2/sections?lang=en', { headers: { 'Accept-Language': 'fr' } }),
        'shop',
      ),
      'shop',
    ).toBe('Shop');

    const page = await clerk.get('/api/v2/sections?limit=1&offset=1');
    expect(page.body.count).toBe(Number(visible!.count));
    expect(page.body.list).toHaveLength(1);

    const rpc = await clerk.rpc('ibax.getSections', [{ lang: 'fr' }]);
    expect(rpc).toEqual(answer.body);
    expect(await clerk.rpc('chain.getSections', { lang: 'fr' })).toEqual(answer.body);

    expectRestError(await clerk.get('/api/v2/sections?limit=ten'), 400, 'E_SERVER', 'schema: error converting value for "limit"');
    expect(await rpcError(clerk, 'ibax.getSections', [{ limit: '10' }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: limit: json: cannot unmarshal string into Go value of type int64',
    });
    expect(await rpcError(clerk, 'ibax.getSections', { lang: 1 })).toEqual({
      code: -32602,
      message: 'invalid argument 1: lang: json: cannot unmarshal number 1 into Go value of type string',
    });
  });

  it('hides a section from a session without its role, and gives no default page', async () => {
    const answer = await user.client.get('/api/v2/sections');
    expect(answer.status).toBe(200);
    const urlnames = answer.body.list.map((section: { urlname: string }) => section.urlname);
    expect(urlnames).toContain('home');
    expect(urlnames).not.toContain('shop');
    const home = answer.body.list.find((section: { urlname: string }) => section.urlname === 'home');
    expect(home.default_page).toBeUndefined();
    // Past the last section: the reference's null list.
    expect((await user.client.get('/api/v2/sections?offset=100')).body.list).toBeNull();
  });

  it('answers page, menu and snippet rows with numbers as numbers', async () => {
    const page = await founder.get('/api/v2/interface/page/shop_home');
    expect(page.status).toBe(200);
    expectShape(page.body, {
      id: 'number',
      name: 'string',
      value: 'string',
      menu: 'string',
      nodesCount: 'number',
      app_id: 'number',
      conditions: 'string',
    });
    expect(page.body).toEqual({
      id: Number(ids.page),
      name: 'shop_home',
      value: 'Div(){Hi}',
      menu: 'shop_menu',
      nodesCount: page.body.nodesCount,
      app_id: Number(ids.app),
      conditions: 'true',
    });
    expect(Number(page.body.nodesCount)).toBeGreaterThanOrEqual(1);
    const menu = await founder.get('/api/v2/interface/menu/shop_menu');
    expectShape(menu.body, { id: 'number', name: 'string', title: 'string', value: 'string', conditions: 'string' });
    expect(menu.body.title).toBe('Shop menu');
    const snippet = await founder.get('/api/v2/interface/snippet/shop_snippet');
    expectShape(snippet.body, { id: 'number', name: 'string', value: 'string', conditions: 'string' });
    expect(snippet.body.value).toBe('Span(x)');
    for (const kind of ['page', 'menu', 'snippet']) {
      expectRestError(await founder.get(`/api/v2/interface/${kind}/nope`), 404, 'E_NOTFOUND', 'Page not found');
      expectRestError(await founder.get(`/api/v2/interface/${kind}/no%00pe`), 404, 'E_NOTFOUND');
    }

    expect(await founder.rpc('ibax.getPageRow', ['shop_home'])).toEqual(page.body);
    expect(await founder.rpc('ibax.getMenuRow', ['shop_menu'])).toEqual(menu.body);
    expect(await founder.rpc('chain.getSnippetRow', ['shop_snippet'])).toEqual(snippet.body);
    expect(await rpcError(founder, 'ibax.getPageRow', ['nope'])).toEqual({ code: -32012, message: 'NotFound' });
    expect(await rpcError(founder, 'ibax.getMenuRow', [''])).toEqual({
      code: -32602,
      message: 'params can not be empty',
    });
  });
});

describe('accounts', () => {
  it('balance: account, unspent outputs, total, money and the token (REST superset)', async () => {
    const eco = await db.one<{ digits: string; token_symbol: string; token_name: string }>(
      'SELECT "digits"::text AS "digits", "token_symbol", "token_name" FROM "1_ecosystems" WHERE "id" = 1',
    );
    const digits = Number(eco!.digits);
    const answer = await node.client.get(`/api/v2/balance/${user.account}`, { token: null });
    expect(answer.status).toBe(200);
    expectShape(answer.body, {
      amount: 'string',
      money: 'string',
      total: 'string',
      utxo: 'string',
      digits: 'number',
      token_symbol: 'string',
      token_name: 'string',
    });
    const money = (8000 / 10 ** digits).toFixed(digits).replace(/\.?0+$/, '');
    expect(answer.body).toEqual({
      amount: '1000',
      money,
      total: '8000',
      utxo: '7000',
      digits,
      token_symbol: eco!.token_symbol,
      token_name: eco!.token_name,
    });
    // The same wallet as a signed decimal key id, and in ecosystem 1 named explicitly.
    expect((await node.client.get(`/api/v2/balance/${user.keyId}?ecosystem=1`)).body).toEqual(answer.body);
    const stranger = await node.client.get('/api/v2/balance/0000-0000-0000-0000-5555');
    expect(stranger.body).toMatchObject({ amount: '0', total: '0', utxo: '0' });
    const nobody = IbaxClient.prototype.accountOf.call(founder, randomBytes(32).toString('hex'));
    expect((await node.client.get(`/api/v2/balance/${nobody}`)).body).toMatchObject({
      amount: '',
      total: '0',
      utxo: '0',
      money: '0',
    });
    expectRestError(
      await node.client.get('/api/v2/balance/1234-5678'),
      400,
      'E_INVALIDWALLET',
      'Wallet 1234-5678 is not valid',
    );
    expectRestError(await node.client.get(`/api/v2/balance/${user.account}?ecosystem=999`), 400, 'E_ECOSYSTEM');

    const rpc = await node.client.rpc('ibax.getBalance', [user.account], { token: null });
    expectShape(rpc, {
      amount: 'string',
      digits: 'number',
      total: 'string',
      utxo: 'string',
      token_symbol: 'string',
      token_name: 'string',
    });
    expect(rpc).toMatchObject({ amount: '1000', total: '8000', utxo: '7000' });
    expect(await node.client.rpc('ibax.getBalance', [{ key_id: user.keyId }, 1], { token: null })).toEqual(rpc);
    expect(await node.client.rpc('chain.getBalance', [{ account: user.account }], { token: null })).toEqual(rpc);
    expect(await rpcError(node.client, 'ibax.getBalance', [12], null)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 1: /),
    });
    expect(await rpcError(node.client, 'ibax.getBalance', ['1234'], null)).toEqual({
      code: -32602,
      message: 'invalid argument 1: invalid key id or account address',
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [{ key_id: 1234 }], null)).toEqual({
      code: -32602,
      message: 'invalid argument 1: invalid key id',
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [{ account: 'nobody' }], null)).toEqual({
      code: -32602,
      message: 'invalid argument 1: invalid Account',
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [{ key_id: 'x' }], null)).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type int64',
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [[user.account]], null)).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal array into Go value of type string',
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [user.account, 999], null)).toEqual({
      code: -32602,
      message: "ecosystem 999 doesn't exist",
    });
    expect(await rpcError(node.client, 'ibax.getBalance', [], null)).toEqual({
      code: -32602,
      message: 'params can not be empty',
    });
  });

  it('keyinfo: ecosystems with roles and open notification counts', async () => {
    const eco = await db.one<{ name: string; digits: string }>(
      'SELECT "name", "digits"::text AS "digits" FROM "1_ecosystems" WHERE "id" = 1',
    );
    const answer = await node.client.get(`/api/v2/keyinfo/${user.account}`, { token: null });
    expect(answer.status).toBe(200);
    expectShape(answer.body, { account: 'string', ecosystems: 'array' });
    expect(answer.body).toEqual({
      account: user.account,
      ecosystems: [
        {
          ecosystem: '1',
          name: eco!.name,
          digits: Number(eco!.digits),
          roles: [{ id: ids.role, name: 'Clerk' }],
          notifications: [
            { role_id: '0', count: 1 },
            { role_id: ids.role, count: 1 },
          ],
        },
      ],
    });
    expectShape(answer.body.ecosystems[0], {
      ecosystem: 'string',
      name: 'string',
      digits: 'number',
      roles: 'array',
      notifications: 'array',
    });
    expect((await node.client.get(`/api/v2/keyinfo/${user.keyId}`)).body).toEqual(answer.body);
    expectRestError(await node.client.get('/api/v2/keyinfo/abc'), 400, 'E_INVALIDWALLET', 'Wallet abc is not valid');

    const rpc = await node.client.rpc('ibax.getKeyInfo', [user.account], { token: null });
    expect(rpc).toEqual({ account: user.account, key_id: user.keyId.toString(), ecosystems: answer.body.ecosystems });
    expect(await rpcError(node.client, 'ibax.getKeyInfo', ['abc'], null)).toEqual({
      code: -32602,
      message: 'account address abc is not valid',
    });
  });

  it('member and avatar', async () => {
    const member = await node.client.get(`/api/v2/member/1/${user.account}`, { token: null });
    expect(member.status).toBe(200);
    expectShape(member.body, { ID: 'number', MemberName: 'string', ImageID: 'number', MemberInfo: 'string' });
    const row = await db.one<{ id: string }>(
      'SELECT "id"::text AS "id" FROM "1_members" WHERE "ecosystem" = 1 AND "account" = $1',
      [user.account],
    );
    expect(member.body).toEqual({
      ID: Number(row!.id),
      MemberName: 'alice',
      ImageID: Number(ids.binary),
      MemberInfo: '{"city": "Paris"}',
    });
    expect((await node.client.get(`/api/v2/member/1/${user.keyId}`)).body).toEqual(member.body);
    expect((await node.client.get(`/api/v2/member/2/${user.account}`)).body).toEqual({
      ID: 0,
      MemberName: '',
      ImageID: null,
      MemberInfo: '',
    });
    expect(await node.client.rpc('ibax.getMember', [user.account, 1], { token: null })).toEqual({
      id: member.body.ID,
      member_name: 'alice',
      image_id: member.body.ImageID,
      member_info: '{"city": "Paris"}',
    });
    expect(await rpcError(node.client, 'ibax.getMember', ['nobody', 1], null)).toEqual({
      code: -32602,
      message: 'account[nobody] address invalid',
    });
    expect(await rpcError(node.client, 'ibax.getMember', [user.account, 0], null)).toEqual({
      code: -32602,
      message: 'ecosystem id invalid',
    });

    const avatar = await fetch(`${node.url}/api/v2/avatar/1/${user.account}`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
    expect(avatar.headers.get('content-length')).toBe(String(AVATAR.length));
    expect(Buffer.from(await avatar.arrayBuffer())).toEqual(AVATAR);
    expectRestError(
      await node.client.get(`/api/v2/avatar/1/${founderAccount}`),
      404,
      'E_NOTFOUND',
      'Record not found',
    );
    expectRestError(await node.client.get(`/api/v2/avatar/2/${user.account}`), 404, 'E_NOTFOUND');
  });

  it('walletHistory: the caller’s transfers, newest first, by direction and page', async () => {
    const all = await user.client.get('/api/v2/walletHistory');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(2);
    const [sent, received] = all.body;
    expectShape(received, {
      ID: 'number',
      SenderID: 'number',
      SenderAdd: 'string',
      RecipientID: 'number',
      RecipientAdd: 'string',
      Amount: 'string',
      Comment: 'string',
      BlockID: 'number',
      TxHash: 'string',
      CreatedAt: 'number',
      Money: 'string',
    });
    expect(BigInt(received.RecipientID)).toBe(user.keyId);
    expect(BigInt(sent.SenderID)).toBe(user.keyId);
    expect(received).toMatchObject({
      SenderAdd: founderAccount,
      RecipientAdd: user.account,
      Amount: '1500',
      Comment: 'pay',
      BlockID: Number(transfers[0].block),
      TxHash: transfers[0].hash,
    });
    expect(sent).toMatchObject({
      RecipientAdd: founderAccount,
      Amount: '500',
      Comment: 'change',
      BlockID: Number(transfers[1].block),
      TxHash: transfers[1].hash,
    });
    expect((await user.client.get('/api/v2/walletHistory?searchType=income')).body).toEqual([received]);
    expect((await user.client.get('/api/v2/walletHistory?searchType=outcome')).body).toEqual([sent]);
    expect((await user.client.get('/api/v2/walletHistory?limit=1&page=2')).body).toEqual([received]);
    expect((await user.client.get('/api/v2/walletHistory?limit=500&page=3')).body).toEqual([]);
    expect((await user.client.get('/api/v2/walletHistory?searchType=INCOME&page=0&limit=0')).body).toEqual([
      received,
    ]);
    const limits = 'limit must be between 1 and 500';
    expectRestError(await user.client.get('/api/v2/walletHistory?limit=501'), 400, 'E_SERVER', limits);
    expectRestError(await user.client.get('/api/v2/walletHistory?limit=-1'), 400, 'E_SERVER', limits);
    expectRestError(await user.client.get('/api/v2/walletHistory?page=-1'), 400, 'E_SERVER', 'page must be at least 1');
    expectRestError(
      await user.client.get('/api/v2/walletHistory?searchType=sideways'),
      400,
      'E_SERVER',
      'searchType must be income, outcome or all',
    );
    expectRestError(
      await user.client.get('/api/v2/walletHistory?page=x'),
      400,
      'E_SERVER',
      'schema: error converting value for "page"',
    );
  });

  it('ecosystemInfo over JSON-RPC', async () => {
    const info = await node.client.rpc('ibax.ecosystemInfo', [1], { token: null });
    expectShape(info, ECOSYSTEM_INFO);
    expect(info.creator).toBe(founderAccount);
    expect(await rpcError(node.client, 'ibax.ecosystemInfo', [999], null)).toEqual({ code: -32012, message: 'NotFound' });
  });
});

describe('binary data', () => {
  const md5 = createHash('md5').update(AVATAR).digest('hex');
  let nodeHash: string;
  beforeAll(() => {
    nodeHash = node.app.get(NodeCrypto).hasher.hashHex(AVATAR);
  });

  it('serves a binary by id and hash, at the root and under /api/v2', async () => {
    for (const path of [
      `/data/${ids.binary}/data/${md5}`,
      `/api/v2/data/${ids.binary}/data/${nodeHash}`,
      `/data/${ids.binary}/data/${md5.toUpperCase()}`,
    ]) {
      const answer = await fetch(node.url + path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename="avatar.png"');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(AVATAR);
    }
    expectRestError(await node.client.get(`/data/${ids.binary}/data/${'0'.repeat(32)}`), 400, 'E_HASHWRONG', 'Hash is incorrect');
    expectRestError(await node.client.get(`/api/v2/data/${ids.binary}/data/abc`), 400, 'E_HASHWRONG');
    expectRestError(await node.client.get(`/data/99999/data/${md5}`), 404, 'E_NOTFOUND');
  });

  it('serves a column of a row by table, id, column and hash', async () => {
    for (const path of [
      `/data/1_binaries/${ids.binary}/data/${md5}`,
      `/api/v2/data/1_binaries/${ids.binary}/data/${nodeHash}`,
    ]) {
      const answer = await fetch(node.url + path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/octet-stream');
      expect(answer.headers.get('content-disposition')).toBe('attachment');
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(AVATAR);
    }
    const nameHash = createHash('md5').update('avatar.png').digest('hex');
    const name = await fetch(`${node.url}/data/1_binaries/${ids.binary}/name/${nameHash}`);
    expect(await name.text()).toBe('avatar.png');
    expectRestError(
      await node.client.get(`/data/1_binaries/x/data/${md5}`),
      404,
      'E_PARAMNOTFOUND',
      'Parameter id has not been found',
    );
    expectRestError(await node.client.get(`/data/1_binaries/${ids.binary}/nope/${md5}`), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get(`/data/block_chain/1/data/${md5}`), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get(`/data/1_binaries/99999/data/${md5}`), 404, 'E_NOTFOUND');
    expectRestError(await node.client.get(`/data/1_binaries/${ids.binary}/data/${nameHash}`), 400, 'E_HASHWRONG');
  });
});

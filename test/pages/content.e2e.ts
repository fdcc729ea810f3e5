import { beforeAll, describe, expect, it } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { createHasher } from '../../src/crypto';
import type { HttpAnswer, IbaxClient } from '../../src/sdk';
import { buildScenario, type Scenario } from '../data/scenario';
import { useTestNode, type TestNode } from '../support/node';
import { expectRestError, expectShape } from '../support/wire';

/**
 * The content endpoints over HTTP (REST and JSON-RPC) on pages, menus, snippets and language resources made by
 * real transactions, over tables made by real transactions (test/data/scenario.ts: `items` with a column only
 * MainCondition may read, `vault` only MainCondition may read, a second ecosystem, a stranger key).
 */
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', PAGE_NODES_LIMIT: '5000' } });
let node: TestNode;
let s: Scenario;
let founder: IbaxClient;
let newPageHash: string;

const SHOP_PAGE = [
  'SetVar(card_title, LangRes(shop_hello))Include(shop_card)',
  'Div(Class: box){$shop_hello$ #who#}',
  'DBFind(items, src).Columns("name,weight,secret").Order({"weight": -1}).Limit(2).Count(total)',
  'Span(#total#)',
].join('\n');

async function must(name: string, args: Record<string, string | number | Uint8Array>) {
  const answer = await founder.call(s.founderKey, name, args);
  expect(answer.status.errmsg, `${name} ${JSON.stringify(answer.status.errmsg)}`).toBeUndefined();
  expect(answer.status.blockid).not.toBe('');
  return answer;
}

beforeAll(async () => {
  node = running.node;
  s = await buildScenario(node);
  founder = s.eco1;
  await must('NewLang', {
    ApplicationId: 1,
    Name: 'shop_hello',
    Trans: '{"en":"Hello","fr":"Bonjour","de":"Hallo"}',
  });
  await must('NewSnippet', {
    ApplicationId: 1,
    Name: 'shop_card',
    Value: 'Div(card){Strong(#card_title#)}',
    Conditions: 'true',
  });
  await must('NewMenu', {
    Name: 'shop_menu',
    Value: 'MenuItem(Title: $shop_hello$, Page: shop)',
    Title: 'Shop',
    Conditions: 'true',
  });
  const shop = await must('NewPage', {
    ApplicationId: 1,
    Name: 'shop',
    Value: SHOP_PAGE,
    Menu: 'shop_menu',
    Conditions: 'true',
    ValidateCount: 3,
  });
  newPageHash = shop.hash;
  for (const [name, value, menu] of [
    ['vault_page', 'DBFind(vault, v).Columns(label)', 'no_such_menu'],
    ['plain', 'Div(box){Static text}', 'shop_menu'],
    ['heavy', 'Range(r, 0, 10000)ForList(r){Span(#id#)}', 'shop_menu'],
    ['slow', Array.from({ length: 40 }, () => 'DBFind(items).Columns(name)').join(''), 'shop_menu'],
  ]) {
    await must('NewPage', { ApplicationId: 1, Name: name, Value: value, Menu: menu, Conditions: 'true' });
  }
  await must('UploadBinary', {
    ApplicationId: 1,
    Name: 'logo',
    Data: new Uint8Array([137, 80, 78, 71]),
    DataMimeType: 'image/png',
  });
}, 180_000);

const SHOP_MENU_TREE_FR = '[{"tag":"menuitem","attr":{"page":"shop","title":"Bonjour"}}]';
const shopTree = (hello: string, withSecret: boolean) =>
  `[{"tag":"div","attr":{"class":"card"},"children":[{"tag":"strong","children":[{"tag":"text","text":"${hello}"}]}]},` +
  `{"tag":"div","attr":{"class":"box"},"children":[{"tag":"text","text":"${hello} Ann"}]},` +
  `{"tag":"dbfind","attr":{"columns":["name","weight",${withSecret ? '"secret",' : ''}"id"],"count":"3",` +
  `"data":[["anvil","71",${withSecret ? '"s-anvil-2",' : ''}"1"],["o'clock","5",${withSecret ? '"s-clock",' : ''}"3"]],` +
  `"limit":"2","name":"items","order":"{\\"weight\\": -1}","source":"src",` +
  `"types":["text","text",${withSecret ? '"text",' : ''}"text"]}},{"tag":"span","children":[{"tag":"text","text":"3"}]}]`;

function rpc(client: IbaxClient, method: string, params: unknown, token?: string | null) {
  return client.rpcRaw({ jsonrpc: '2.0', id: 1, method, params }, { token });
}

function rpcError(answer: HttpAnswer): { code: number; message: string } {
  expect(answer.status).toBe(200);
  expect(answer.body.error, JSON.stringify(answer.body)).toBeDefined();
  return answer.body.error;
}

const hashHex = (text: string) =>
  Buffer.from(createHasher(node.config.hasher).hash(Buffer.from(text, 'utf8'))).toString('hex');

describe('content/page and getPage', () => {
  it('renders the page and its menu with page params, the chosen language, snippet and DBFind', async () => {
    const answer = await founder.postMultipart('/api/v2/content/page/shop', { who: 'Ann', lang: 'fr' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.text).toBe(
      `{"menu":"shop_menu","menutree":${SHOP_MENU_TREE_FR},"tree":${shopTree('Bonjour', true)},"nodesCount":3}`,
    );
    // Form values over urlencoded bodies too; without lang the Accept-Language header chooses.
    const german = await founder.request('POST', '/api/v2/content/page/shop', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'de-DE,de;q=0.9' },
      body: 'who=Ann',
    });
    expect(german.status).toBe(200);
    expect(german.body.tree).toEqual(JSON.parse(shopTree('Hallo', true)));
  });

  it('applies read permissions: a column hidden from the stranger, a table refused, another ecosystem refused', async () => {
    const answer = await s.stranger.postForm('/api/v2/content/page/shop', { who: 'Ann', lang: 'fr' });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body.tree)).toBe(shopTree('Bonjour', false));

    const vaultOfFounder = await founder.postForm('/api/v2/content/page/vault_page', {});
    expect(vaultOfFounder.text).toBe(
      '{"menu":"no_such_menu","menutree":[],"tree":[{"tag":"dbfind","attr":{"columns":["label","id"],' +
        '"data":[["gold","1"]],"name":"vault","source":"v","types":["text","text"]}}],"nodesCount":1}',
    );
    const vaultOfStranger = await s.stranger.postForm('/api/v2/content/page/vault_page', {});
    expect(vaultOfStranger.body.tree).toEqual([{ tag: 'text', text: 'Access denied' }]);

    const foreign = await founder.postForm('/api/v2/content', {
      template: `DBFind(@${s.eco2Id}items, f).Columns(name)`,
    });
    expect(foreign.body.tree).toEqual([{ tag: 'text', text: `Table @${s.eco2Id}items has not been found` }]);
    // The second ecosystem's founder session sees its own rows under the same name.
    const own = await s.eco2.postForm('/api/v2/content', {
      template: 'DBFind(items, f).Columns(name).Order(id)',
    });
    expect(own.body.tree[0].attr.data).toEqual([
      ['eco2-alpha', '1'],
      ['eco2-beta', '2'],
    ]);
  });

  it('an anonymous render reads as nobody, whatever keyID it claims', async () => {
    const founderKeyId = node.app.get(NodeIdentity).founder.keyId.toString();
    const answer = await founder.postForm(
      '/api/v2/content',
      {
        template: 'DBFind(vault, v).Columns(label)#key_id# #ecosystem_id# #ecosystem_name#',
        ecosystem: '1',
        keyID: founderKeyId,
      },
      { token: null },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.tree[0]).toEqual({ tag: 'text', text: 'Access denied' });
    expect(answer.body.tree[1].text).toBe(`${founderKeyId} 1 platform ecosystem`);
  });

  it('JSON-RPC getPage gives the same content; an empty menu tree is left out', async () => {
    const answer = await rpc(founder, 'ibax.getPage', ['shop', { who: 'Ann', lang: 'fr' }]);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{"menu":"shop_menu","menutree":${SHOP_MENU_TREE_FR},"tree":${shopTree('Bonjour', true)},"nodesCount":3}}`,
    );
    const chain = await rpc(founder, 'chain.getPage', { name: 'vault_page' });
    expectShape(chain.body.result, { menu: 'string', tree: 'array', nodesCount: 'number' });
  });

  it('needs a session', async () => {
    expectRestError(
      await founder.postForm('/api/v2/content/page/shop', {}, { token: null }),
      401,
      'E_UNAUTHORIZED',
    );
    expect(rpcError(await rpc(founder, 'ibax.getPage', ['shop'], null)).code).toBe(-32014);
  });
});

describe('content/menu, content/source and content', () => {
  it('renders a menu with its title', async () => {
    const answer = await founder.postForm('/api/v2/content/menu/shop_menu', { lang: 'de' });
    expect(answer.text).toBe(
      '{"title":"Shop","tree":[{"tag":"menuitem","attr":{"page":"shop","title":"Hallo"}}]}',
    );
    const viaRpc = await rpc(founder, 'ibax.getMenu', ['@1shop_menu', { lang: 'fr' }]);
    expect(viaRpc.body.result).toEqual({ title: 'Shop', tree: JSON.parse(SHOP_MENU_TREE_FR) });
  });

  it('gives a page in source mode: nothing runs, nothing is read, no macro expands', async () => {
    const expected =
      '{"tree":[{"tag":"setvar","attr":{"name":"card_title","value":"LangRes(shop_hello)"}},' +
      '{"tag":"include","attr":{"name":"shop_card"}},' +
      '{"tag":"div","attr":{"class":"box"},"children":[{"tag":"text","text":"$shop_hello$ #who#"}]},' +
      '{"tag":"dbfind","attr":{"name":"items","source":"src"},"tail":[{"tag":"columns","attr":{"columns":"name,weight,secret"}},' +
      '{"tag":"order","attr":{"order":"{\\"weight\\": -1}"}},{"tag":"limit","attr":{"limit":"2"}},' +
      '{"tag":"count","attr":{"countvar":"total"}}]},{"tag":"span","children":[{"tag":"text","text":"#total#"}]}]}';
    const answer = await founder.postForm('/api/v2/content/source/shop', { who: 'Ann' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(expected);
    const viaRpc = await rpc(founder, 'ibax.getSource', ['shop']);
    expect(JSON.stringify(viaRpc.body.result)).toBe(expected);
    // The same template through `content` with source=1, anonymously.
    const content = await founder.postForm(
      '/api/v2/content',
      { template: SHOP_PAGE, source: '1', who: 'Ann' },
      { token: null },
    );
    expect(content.text).toBe(expected);
    const rpcContent = await rpc(founder, 'ibax.getContent', [{ template: SHOP_PAGE, source: true }], null);
    expect(JSON.stringify(rpcContent.body.result)).toBe(expected);
  });

  it('reads parameters, column types, binaries, history and transactions through the node', async () => {
    const account = founder.accountOf(s.founderKey);
    const sysParam = await founder.get('/api/v2/systemparams?names=max_tx_size');
    const template = [
      'EcosysParam(max_sum)',
      'AppParam(role_admin, App: 1)',
      'SysParam(max_tx_size)',
      'GetColumnType(items, weight)',
      `Binary(1, logo, ${account})`,
      `TransactionInfo(${newPageHash})`,
    ].join('|');
    const answer = await founder.postForm('/api/v2/content', { template });
    expect(answer.status).toBe(200);
    const texts = answer.body.tree
      .map((node: { text: string }) => node.text)
      .join('')
      .split('|');
    expect(texts.slice(0, 4)).toEqual(['1000000', '1', sysParam.body.list[0].value, 'number']);
    expect(texts[4]).toMatch(/^\/data\/1_binaries\/\d+\/data\/[0-9a-f]{64}$/);
    const download = await fetch(node.url + texts[4]);
    expect(download.status).toBe(200);
    // The link names the table's data column: served as octet-stream, as the reference does.
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await download.arrayBuffer())]).toEqual([137, 80, 78, 71]);
    const info = JSON.parse(texts.slice(5).join('|'));
    expect(info).toMatchObject({ contract: '@1NewPage', params: { Name: 'shop', ValidateCount: 3 } });
    expect(info.block).toMatch(/^\d+$/);

    const rows = await founder.postForm('/api/v2/content', {
      template: 'DBFind(items).Columns("name,image").WhereId(1).Cutoff(name)GetHistory(h, items, 1)',
    });
    const [find, history] = rows.body.tree;
    expect(find.attr.types).toEqual(['long_text', 'blob', 'text']);
    const [name, image] = find.attr.data[0].map((cell: string) => JSON.parse(cell === '1' ? '{}' : cell));
    expect(name).toEqual({
      link: expect.stringMatching(/^\/data\/1_items\/1\/name\/[0-9a-f]{32}$/),
      title: 'anvil',
    });
    const bytes = await founder.get(image.link);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe('img');
    expect((await founder.get(name.link)).text).toBe('anvil');
    // The row's former version: weight 70 and the secret before SetWeight changed them.
    expect(history.attr.columns).toContain('secret');
    const weight = history.attr.columns.indexOf('weight');
    expect(history.attr.data.map((row: string[]) => row[weight])).toEqual(['70']);
    const hidden = await s.stranger.postForm('/api/v2/content', { template: 'GetHistory(h, items, 1)' });
    expect(hidden.body.tree[0].attr.columns).not.toContain('secret');
  });

  it('refuses an empty template and a bad source flag', async () => {
    expectRestError(await founder.postForm('/api/v2/content', {}), 400, 'E_SERVER', 'Empty template');
    expectRestError(
      await founder.postForm('/api/v2/content', { template: 'x', source: 'maybe' }),
      400,
      'E_SERVER',
      'schema: error converting value for "source"',
    );
    expect(rpcError(await rpc(founder, 'ibax.getContent', []))).toEqual({
      code: -32602,
      message: 'params can not be empty',
    });
    expect(rpcError(await rpc(founder, 'ibax.getContent', [{ template: 7 }]))).toEqual({
      code: -32602,
      message: 'params can not be empty',
    });
    expect(rpcError(await rpc(founder, 'ibax.getContent', [{ Template: 'x', source: 'yes' }]))).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal into Go struct field of type bool',
    });
    expect(rpcError(await rpc(founder, 'ibax.getContent', ['x']))).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type object',
    });
  });

  it('takes page variables as text or numbers, and refuses any other vals', async () => {
    const numbers = await rpc(founder, 'ibax.getContent', [{ template: 'Span(#n#)' }, { n: 12 }]);
    expect(numbers.body.result.tree).toEqual([{ tag: 'span', children: [{ tag: 'text', text: '12' }] }]);
    expect(rpcError(await rpc(founder, 'ibax.getContent', [{ template: 'x' }, ['a']]))).toEqual({
      code: -32602,
      message: 'invalid argument 2: json: cannot unmarshal into Go value of type map[string]string',
    });
    expect(rpcError(await rpc(founder, 'ibax.getPage', ['shop', { who: true }]))).toEqual({
      code: -32602,
      message: 'invalid argument 2: json: cannot unmarshal into Go value of type string (vals.who)',
    });
    expect(rpcError(await rpc(founder, 'ibax.getPageHash', ['shop', 'one']))).toEqual({
      code: -32602,
      message: 'invalid argument 2: json: cannot unmarshal string into Go value of type int64',
    });
  });
});

describe('content/hash, getPageHash and validators', () => {
  it('is the hash of the exact JSON content/page answers, with the configured hasher', async () => {
    const page = await founder.postForm('/api/v2/content/page/shop', { who: 'Ann', lang: 'fr' });
    const hash = await founder.postForm('/api/v2/content/hash/shop', { who: 'Ann', lang: 'fr' });
    expect(hash.status).toBe(200);
    expectShape(hash.body, { hash: 'string' });
    expect(hash.body.hash).toBe(hashHex(page.text));
    const viaRpc = await rpc(founder, 'ibax.getPageHash', ['shop', 0, { who: 'Ann', lang: 'fr' }]);
    expect(viaRpc.body.result).toEqual({ hash: hash.body.hash });
  });

  it('anonymously, for the ecosystem asked; an edit by transaction changes it', async () => {
    const before = await founder.postForm('/api/v2/content/page/plain', {});
    const anonymous = await founder.postForm(
      '/api/v2/content/hash/plain',
      { ecosystem: '1' },
      { token: null },
    );
    expect(anonymous.body.hash).toBe(hashHex(before.text));
    expect(
      (await rpc(founder, 'ibax.getPageHash', ['plain', 1, { ecosystem: '1' }], null)).body.result.hash,
    ).toBe(anonymous.body.hash);

    const id = (await founder.get('/api/v2/interface/page/plain')).body.id;
    await must('EditPage', { Id: id, Value: 'Div(box){Edited text}' });
    const after = await founder.postForm('/api/v2/content/page/plain', {});
    expect(after.body.tree).toEqual([
      { tag: 'div', attr: { class: 'box' }, children: [{ tag: 'text', text: 'Edited text' }] },
    ]);
    const changed = await founder.postForm(
      '/api/v2/content/hash/@1plain',
      { ecosystem: '1' },
      { token: null },
    );
    expect(changed.body.hash).not.toBe(anonymous.body.hash);
    expect(changed.body.hash).toBe(hashHex(after.text));
  });

  it('page/validators_count gives the page validate_count', async () => {
    const answer = await founder.get('/api/v2/page/validators_count/shop', { token: null });
    expect(answer.text).toBe('{"validate_count":3}');
    expect((await founder.get('/api/v2/page/validators_count/@1plain')).body).toEqual({ validate_count: 1 });
    expect((await rpc(founder, 'ibax.getPageValidatorsCount', ['shop'], null)).body.result).toEqual({
      validate_count: 3,
    });
  });
});

describe('errors', () => {
  it('E_NOTFOUND for a missing page or menu and a bad @ name', async () => {
    for (const path of [
      'content/page/missing',
      'content/page/@1missing',
      'content/page/@x1shop',
      'content/page/@',
      'content/source/missing',
      'content/hash/missing',
      'content/menu/missing',
    ]) {
      expectRestError(await founder.postForm(`/api/v2/${path}`, {}), 404, 'E_NOTFOUND', 'Page not found');
    }
    // The page of another ecosystem by its @ name, which that ecosystem does not have.
    expectRestError(await founder.postForm(`/api/v2/content/page/@${s.eco2Id}shop`, {}), 404, 'E_NOTFOUND');
    const missing = await founder.get('/api/v2/page/validators_count/missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'E_NOTFOUND', msg: 'Page not found', params: [] });

    expect(rpcError(await rpc(founder, 'ibax.getPage', ['missing']))).toEqual({
      code: -32000,
      message: 'NotFound',
    });
    expect(rpcError(await rpc(founder, 'ibax.getSource', ['missing']))).toEqual({
      code: -32000,
      message: 'NotFound',
    });
    expect(rpcError(await rpc(founder, 'ibax.getPageHash', ['missing']))).toEqual({
      code: -32000,
      message: 'NotFound',
    });
    expect(rpcError(await rpc(founder, 'ibax.getPageValidatorsCount', ['missing']))).toEqual({
      code: -32000,
      message: 'NotFound',
    });
    expect(rpcError(await rpc(founder, 'ibax.getPage', ['']))).toEqual({ code: -32012, message: 'NotFound' });
    expect(rpcError(await rpc(founder, 'ibax.getMenu', ['missing']))).toEqual({
      code: -32012,
      message: 'NotFound',
    });
  });

  it('finds a page and a menu that were missing as soon as a transaction creates them', async () => {
    for (let round = 0; round < 2; round++) {
      expectRestError(await founder.postForm('/api/v2/content/page/late_page', {}), 404, 'E_NOTFOUND');
      expectRestError(await founder.postForm('/api/v2/content/menu/late_menu', {}), 404, 'E_NOTFOUND');
    }
    await must('NewMenu', {
      Name: 'late_menu',
      Value: 'MenuItem(Title: Late, Page: late_page)',
      Conditions: 'true',
    });
    await must('NewPage', {
      ApplicationId: 1,
      Name: 'late_page',
      Value: 'Div(box){Late text}',
      Menu: 'late_menu',
      Conditions: 'true',
    });
    const page = await founder.postForm('/api/v2/content/page/late_page', {});
    expect(page.status).toBe(200);
    expect(page.text).toBe(
      '{"menu":"late_menu","menutree":[{"tag":"menuitem","attr":{"page":"late_page","title":"Late"}}],' +
        '"tree":[{"tag":"div","attr":{"class":"box"},"children":[{"tag":"text","text":"Late text"}]}],"nodesCount":1}',
    );
    expect((await founder.postForm('/api/v2/content/menu/late_menu', {})).status).toBe(200);
  });

  it('E_HEAVYPAGE past the node budget, and past the time budget', async () => {
    for (const path of ['content/page/heavy', 'content/hash/heavy']) {
      expectRestError(
        await founder.postForm(`/api/v2/${path}`, {}),
        400,
        'E_HEAVYPAGE',
        'This page is heavy',
      );
    }
    expectRestError(
      await founder.postForm('/api/v2/content', { template: 'Range(r, 0, 10000)ForList(r){Span(#id#)}' }),
      400,
      'E_HEAVYPAGE',
    );
    expect(rpcError(await rpc(founder, 'ibax.getPage', ['heavy']))).toEqual({
      code: -32000,
      message: 'this page is heavy',
    });
    // The configured time: 40 DBFinds cannot finish in 1 ms; the same page renders with the default.
    const limits = node.config.pages;
    const saved = limits.timeMs;
    limits.timeMs = 1;
    try {
      expectRestError(await founder.postForm('/api/v2/content/page/slow', {}), 400, 'E_HEAVYPAGE');
    } finally {
      limits.timeMs = saved;
    }
    expect((await founder.postForm('/api/v2/content/page/slow', {})).status).toBe(200);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { stringify } from 'lossless-json';
import WebSocket from 'ws';
import * as prettier from 'prettier';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  API_EXAMPLES_FILE,
  parseExampleJson,
  trimForExample,
  type ApiExamples,
  type RestExample,
  type RpcExample,
} from '../../src/api-docs/examples';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { declaredName } from '../../src/rpc/rpc-registry.service';
import { IbaxClient, buildCoinTransfer } from '../../src/sdk';
import type { ArgumentValue } from '../../src/sdk/transactions';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from '../support/node';
import { startFakeCentrifugo, type FakeCentrifugo } from '../support/fake-centrifugo';

/**
 * The examples of the API documents, from a real node: data made by real transactions (an application with
 * a parameter, a page, a menu, a snippet and a language entry; a table with rows and a history; a binary and
 * an avatar; token transfers), then one successful request of every REST operation and one call of every
 * JSON-RPC method. Each answer is compared, by shape (member names and JSON types, recursively), with the
 * example recorded in `src/api-docs/examples.json`: an answer that changed shape fails here until the
 * examples are recorded again with
 *
 *   UPDATE_API_EXAMPLES=1 npx vitest run test/ops/api-examples.e2e.ts
 *
 * Every operation the OpenAPI document lists and every method `rpc.discover` lists must have one.
 */
const UPDATE = process.env.UPDATE_API_EXAMPLES === '1';
let database: TestDatabase;
/** A stand-in for Centrifugo's server API, so that config/centrifugo and updnotificator answer as configured. */
let centrifugo: FakeCentrifugo;
afterAll(async () => {
  socket?.close();
  await node?.stop(true);
  await database?.drop();
  await centrifugo?.close();
});
let node: TestNode;
let founder: IbaxClient;
let user: { client: IbaxClient; key: string; account: string; keyId: string };
let document: { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> };

const AVATAR = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);
const ids = { app: '', note: '', binary: '', lastBlock: '' };
const hashes = { note: '', transfer: '' };
let sendTxHex = '';
let sendTxBase64 = '';

const ADD_NOTE = `contract AddNote {
    data {
        Title string
        Amount money
    }
    action {
        $result = DBInsert("notes", {"title": $Title, "amount": $Amount})
    }
}`;
const RENAME_NOTE = `contract RenameNote {
    data {
        Id int
        Title string
    }
    action {
        DBUpdate("notes", $Id, {"title": $Title})
    }
}`;

async function must(
  session: { client: IbaxClient; key: string },
  contract: string,
  args: Record<string, ArgumentValue>,
) {
  const { hash, status } = await session.client.call(session.key, contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return { hash, result: status.result as string, block: status.blockid };
}

beforeAll(async () => {
  centrifugo = await startFakeCentrifugo();
  database = await createTestDatabase();
  node = await startNode({
    databaseUrl: database.url,
    env: {
      BLOCK_SLOT_MS: '200',
      CENTRIFUGO_URL: `${centrifugo.url}/connection/websocket`,
      CENTRIFUGO_API_URL: centrifugo.url,
      CENTRIFUGO_API_KEY: 'example-key',
    },
  });
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, founder.crypto);
  const session = await client.login(key);
  user = { client, key, account: session.account, keyId: String(session.keyId) };
  const boss = { client: founder, key: node.founderKey };

  ids.app = (await must(boss, 'NewApplication', { Name: 'notes_app', Conditions: 'true' })).result;
  await must(boss, 'NewParameter', { Name: 'notes_motto', Value: 'write it down', Conditions: 'true' });
  await must(boss, 'NewAppParam', {
    ApplicationId: ids.app,
    Name: 'colour',
    Value: 'blue',
    Conditions: 'true',
  });
  await must(boss, 'NewMenu', {
    Name: 'notes_menu',
    Value: 'MenuItem(Title: Notes, Page: notes_home)',
    Title: 'Notes',
    Conditions: 'true',
  });
  await must(boss, 'NewPage', {
    ApplicationId: ids.app,
    Name: 'notes_home',
    Value: 'Div(Class: notes){Hello, #name#}',
    Menu: 'notes_menu',
    Conditions: 'true',
  });
  await must(boss, 'NewSnippet', {
    ApplicationId: ids.app,
    Name: 'notes_snippet',
    Value: 'Span(Notes)',
    Conditions: 'true',
  });
  await must(boss, 'NewLang', {
    ApplicationId: ids.app,
    Name: 'notes_title',
    Trans: JSON.stringify({ en: 'Notes', fr: 'Notes' }),
  });
  await must(boss, 'NewTable', {
    ApplicationId: ids.app,
    Name: 'notes',
    Columns: JSON.stringify([
      { name: 'title', type: 'varchar', conditions: 'true' },
      { name: 'amount', type: 'money', conditions: 'true' },
    ]),
    Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
  });
  for (const source of [ADD_NOTE, RENAME_NOTE]) {
    await must(boss, 'NewContract', { ApplicationId: ids.app, Value: source, Conditions: 'true' });
  }
  const note = await must(boss, 'AddNote', { Title: 'milk', Amount: '250' });
  ids.note = note.result;
  hashes.note = note.hash;
  await must(boss, 'AddNote', { Title: 'bread', Amount: '120' });
  await must(boss, 'RenameNote', { Id: Number(ids.note), Title: 'oat milk' });

  ids.binary = (
    await must(user, 'UploadBinary', {
      ApplicationId: ids.app,
      Name: 'avatar.png',
      Data: AVATAR,
      DataMimeType: 'image/png',
    })
  ).result;
  await must(user, 'ProfileEdit', { MemberName: 'alice', ImageId: ids.binary, Info: '{"city":"Paris"}' });
  // The founder's coins start as an unspent output: some move to its account first (a type-6 transfer).
  const toAccount = buildCoinTransfer(
    founder.signer,
    node.founderKey,
    { transferSelf: { value: '1000000', source: 'UTXO', target: 'Account' } },
    { networkId: node.config.networkId },
  );
  for (const status of Object.values(
    await founder.waitForTransactions(await founder.sendTransactions([toAccount.bytes])),
  )) {
    expect(status.errmsg).toBeUndefined();
  }
  const transfer = await must(boss, 'TokensTransfer', {
    Recipient: user.account,
    Amount: '1500',
    Comment: 'pay',
  });
  hashes.transfer = transfer.hash;
  ids.lastBlock = transfer.block;

  // Two calls built now and sent by the examples of sendTx (REST, hex) and ibax.sendTx (base64).
  const first = await founder.buildCall(node.founderKey, 'AddNote', { Title: 'eggs', Amount: '300' });
  const second = await founder.buildCall(node.founderKey, 'AddNote', { Title: 'tea', Amount: '90' });
  sendTxHex = Buffer.from(first.bytes).toString('hex');
  sendTxBase64 = Buffer.from(second.bytes).toString('base64');

  document = (await (await fetch(`${node.url}/api/v2/openapi.json`)).json()) as typeof document;
}, 180_000);

interface RestCall {
  id: string;
  method?: 'GET' | 'POST';
  path: () => string;
  form?: () => Record<string, string>;
  /** The session to send, when not the founder's (login sends the getuid token). */
  token?: () => Promise<string>;
}

const md5 = () => createHash('md5').update(AVATAR).digest('hex');
const nodeHash = () => node.app.get(NodeCrypto).hasher.hashHex(AVATAR);
let loginForm: Record<string, string> = {};

const REST_CALLS: RestCall[] = [
  { id: 'System.version', path: () => '/api/v2/version' },
  { id: 'System.network', path: () => '/api/v2/network' },
  { id: 'Auth.getUid', path: () => '/api/v2/getuid' },
  {
    id: 'Auth.login',
    method: 'POST',
    path: () => '/api/v2/login',
    token: async () => {
      const uid = (await founder.get('/api/v2/getuid', { token: null })).body;
      const signed = user.client.signLogin(user.key, uid.network_id, uid.uid);
      loginForm = { pubkey: signed.publicKey, signature: signed.signature, ecosystem: '1', expire: '3600' };
      return uid.token as string;
    },
    form: () => loginForm,
  },
  // Without a session it answers `active: false`; the example shows a live one.
  { id: 'Auth.authStatus', path: () => '/api/v2/auth/status', token: async () => founder.token! },
  { id: 'Blocks.maxBlockId', path: () => '/api/v2/maxblockid' },
  { id: 'Blocks.block', path: () => `/api/v2/block/${ids.lastBlock}` },
  { id: 'Blocks.blocksList', path: () => `/api/v2/blocks?block_id=${ids.lastBlock}&count=1` },
  { id: 'Blocks.detailedBlocks', path: () => `/api/v2/detailed_blocks?block_id=${ids.lastBlock}&count=1` },
  { id: 'Ecosystem.ecosystemName', path: () => '/api/v2/ecosystemname?id=1' },
  { id: 'Ecosystem.keyInfo', path: () => `/api/v2/keyinfo/${user.account}` },
  { id: 'Parameters.systemParams', path: () => '/api/v2/systemparams?names=max_tx_size,gap_between_blocks' },
  {
    id: 'Parameters.ecosystemParams',
    path: () => '/api/v2/ecosystemparams?names=notes_motto,founder_account',
  },
  { id: 'Parameters.ecosystemParam', path: () => '/api/v2/ecosystemparam/notes_motto' },
  { id: 'Parameters.appParams', path: () => `/api/v2/appparams/${ids.app}` },
  { id: 'Parameters.appParam', path: () => `/api/v2/appparam/${ids.app}/colour` },
  { id: 'Parameters.appContent', path: () => `/api/v2/appcontent/${ids.app}` },
  { id: 'Accounts.balance', path: () => `/api/v2/balance/${user.account}?ecosystem=1` },
  { id: 'Accounts.member', path: () => `/api/v2/member/1/${user.account}` },
  { id: 'Accounts.avatar', path: () => `/api/v2/avatar/1/${user.account}` },
  { id: 'Accounts.walletHistory', path: () => '/api/v2/walletHistory?searchType=outcome&page=1&limit=10' },
  { id: 'Binaries.binary[0]', path: () => `/data/${ids.binary}/data/${md5()}` },
  { id: 'Binaries.binary[1]', path: () => `/api/v2/data/${ids.binary}/data/${nodeHash()}` },
  { id: 'Binaries.columnData[0]', path: () => `/data/1_binaries/${ids.binary}/data/${md5()}` },
  { id: 'Binaries.columnData[1]', path: () => `/api/v2/data/1_binaries/${ids.binary}/data/${nodeHash()}` },
  { id: 'Interface.sections', path: () => '/api/v2/sections?limit=2&lang=en' },
  { id: 'Interface.page', path: () => '/api/v2/interface/page/notes_home' },
  { id: 'Interface.menu', path: () => '/api/v2/interface/menu/notes_menu' },
  { id: 'Interface.snippet', path: () => '/api/v2/interface/snippet/notes_snippet' },
  {
    id: 'Pages.page',
    method: 'POST',
    path: () => '/api/v2/content/page/notes_home',
    form: () => ({ lang: 'en' }),
  },
  {
    id: 'Pages.menu',
    method: 'POST',
    path: () => '/api/v2/content/menu/notes_menu',
    form: () => ({ lang: 'en' }),
  },
  { id: 'Pages.source', method: 'POST', path: () => '/api/v2/content/source/notes_home', form: () => ({}) },
  {
    id: 'Pages.hash',
    method: 'POST',
    path: () => '/api/v2/content/hash/notes_home',
    form: () => ({ ecosystem: '1', lang: 'en' }),
  },
  {
    id: 'Pages.content',
    method: 'POST',
    path: () => '/api/v2/content',
    form: () => ({ template: 'Div(Class: total){Notes: $notes_title$}', lang: 'fr' }),
  },
  { id: 'Pages.validatorsCount', path: () => '/api/v2/page/validators_count/notes_home' },
  { id: 'Metrics.keys', path: () => '/api/v2/metrics/keys' },
  { id: 'Metrics.blocks', path: () => '/api/v2/metrics/blocks' },
  { id: 'Metrics.transactions', path: () => '/api/v2/metrics/transactions' },
  { id: 'Metrics.ecosystems', path: () => '/api/v2/metrics/ecosystems' },
  { id: 'Metrics.honorNodes', path: () => '/api/v2/metrics/honornodes' },
  { id: 'Metrics.ban', path: () => '/api/v2/metrics/ban' },
  { id: 'Metrics.blockPer', path: () => '/api/v2/metrics/blockper/0/1' },
  { id: 'Metrics.mem', path: () => '/api/v2/metrics/mem' },
  { id: 'Contracts.contract', path: () => '/api/v2/contract/AddNote' },
  { id: 'Contracts.list', path: () => '/api/v2/contracts?limit=2&offset=0' },
  { id: 'Tx.sendTx', method: 'POST', path: () => '/api/v2/sendTx', form: () => ({ tx1: sendTxHex }) },
  {
    id: 'Tx.txStatus',
    method: 'POST',
    path: () => '/api/v2/txstatus',
    form: () => ({ data: JSON.stringify({ hashes: [hashes.note] }) }),
  },
  { id: 'Tx.txInfo', path: () => `/api/v2/txinfo/${hashes.note}?contractinfo=true` },
  { id: 'Tx.txInfoMultiple[0]', path: () => `/api/v2/txinfoMultiple?data=${hashes.note},${hashes.transfer}` },
  { id: 'Tx.txInfoMultiple[1]', path: () => `/api/v2/txinfomultiple?data=${hashes.note}&contractinfo=true` },
  { id: 'Tx.txRecord', path: () => `/api/v2/tx_record/${hashes.note}` },
  { id: 'Tables.tableList', path: () => '/api/v2/tables?limit=2' },
  { id: 'Tables.table', path: () => '/api/v2/table/notes' },
  { id: 'Tables.list', path: () => '/api/v2/list/notes?limit=2&columns=title,amount' },
  {
    id: 'Tables.listWhere[0]',
    method: 'POST',
    path: () => '/api/v2/listWhere/notes',
    form: () => ({ where: '{"amount":{"$gt":100}}', columns: 'title,amount', order: '{"amount":-1}' }),
  },
  {
    id: 'Tables.listWhereGet[0]',
    path: () => '/api/v2/listWhere/notes?where={"title":"bread"}&columns=title',
  },
  {
    id: 'Tables.listWhere[1]',
    method: 'POST',
    path: () => '/api/v2/nodelistWhere/notes',
    form: () => ({ where: '{"title":{"$like":"milk"}}', limit: '5' }),
  },
  { id: 'Tables.listWhereGet[1]', path: () => '/api/v2/nodelistWhere/notes?limit=1&order={"id":1}' },
  {
    id: 'Tables.sumWhere',
    method: 'POST',
    path: () => '/api/v2/sumWhere/notes',
    form: () => ({ column: 'amount', where: '{"amount":{"$lt":200}}' }),
  },
  { id: 'Tables.sumWhereGet', path: () => '/api/v2/sumWhere/notes?column=amount' },
  { id: 'Tables.row', path: () => `/api/v2/row/notes/${ids.note}?columns=title,amount` },
  { id: 'Tables.rowBy', path: () => '/api/v2/row/notes/title/bread' },
  { id: 'Tables.history', path: () => `/api/v2/history/notes/${ids.note}` },
  { id: 'Notify.config', path: () => '/api/v2/config/centrifugo' },
  {
    id: 'Notify.updNotificator',
    method: 'POST',
    path: () => '/api/v2/updnotificator',
    form: () => ({ id: JSON.stringify([user.account]), ecosystem: '1' }),
  },
  { id: 'Health.alive', path: () => '/healthz' },
  { id: 'Health.ready', path: () => '/readyz' },
  { id: 'Prometheus.scrape', path: () => '/metrics' },
];

/** The JSON-RPC gateway's own operations: one call each way, on each of its two paths. */
const GATEWAY_CALLS = ['RpcGateway.handle_get', 'RpcGateway.handle_post'];

interface RpcCall {
  /** As served (the chain namespace as `ibax.`); the example is kept under the declared name. */
  method: string;
  params: () => unknown[] | Promise<unknown[]>;
  /** Subscriptions are served over a WebSocket connection only. */
  overWebSocket?: true;
}

let rpcLoginParams: unknown[] = [];
const RPC_CALLS: RpcCall[] = [
  { method: 'ibax.getVersion', params: () => [] },
  { method: 'ibax.getNetwork', params: () => [] },
  { method: 'net.getNetwork', params: () => [] },
  { method: 'net.status', params: () => [] },
  { method: 'net.peers', params: () => [] },
  { method: 'ibax.getUid', params: () => [] },
  {
    method: 'ibax.login',
    params: async () => {
      const uid = await founder.rpc('ibax.getUid', [], { token: null });
      const signed = user.client.signLogin(user.key, uid.network_id, uid.uid);
      rpcLoginParams = [
        { ecosystem_id: 1, public_key: signed.publicKey, signature: signed.signature, expire: 3600 },
      ];
      rpcLoginToken = uid.token;
      return rpcLoginParams;
    },
  },
  { method: 'ibax.getAuthStatus', params: () => [] },
  { method: 'ibax.maxBlockId', params: () => [] },
  { method: 'chain.finalizedBlockId', params: () => [] },
  { method: 'ibax.getBlockInfo', params: () => [Number(ids.lastBlock)] },
  { method: 'ibax.detailedBlock', params: () => [ids.lastBlock] },
  { method: 'ibax.detailedBlocks', params: () => [Number(ids.lastBlock), 1] },
  { method: 'ibax.getBlocksTxInfo', params: () => [Number(ids.lastBlock), 1] },
  { method: 'ibax.getBlocksCountByNode', params: () => [0, 1] },
  { method: 'ibax.getTransactionCount', params: () => [ids.lastBlock] },
  { method: 'ibax.getTxCount', params: () => [] },
  { method: 'ibax.getKeysCount', params: () => [] },
  { method: 'ibax.getEcosystemCount', params: () => [] },
  { method: 'ibax.honorNodesCount', params: () => [] },
  { method: 'ibax.ecosystemInfo', params: () => [1] },
  { method: 'ibax.getKeyInfo', params: () => [user.account] },
  { method: 'ibax.getBalance', params: () => [user.account, 1] },
  { method: 'ibax.getMember', params: () => [user.account, 1] },
  { method: 'ibax.systemParams', params: () => ['max_tx_size,gap_between_blocks'] },
  { method: 'ibax.getEcosystemParams', params: () => [1, 'notes_motto'] },
  { method: 'ibax.appParams', params: () => [Number(ids.app), 1] },
  { method: 'ibax.getAppContent', params: () => [Number(ids.app)] },
  { method: 'ibax.getSections', params: () => [{ limit: 2, lang: 'en' }] },
  { method: 'ibax.getPageRow', params: () => ['notes_home'] },
  { method: 'ibax.getMenuRow', params: () => ['notes_menu'] },
  { method: 'ibax.getSnippetRow', params: () => ['notes_snippet'] },
  { method: 'ibax.getPage', params: () => ['notes_home', { name: 'Ann' }] },
  { method: 'ibax.getMenu', params: () => ['notes_menu'] },
  { method: 'ibax.getSource', params: () => ['notes_home'] },
  { method: 'ibax.getPageHash', params: () => ['notes_home', 1] },
  { method: 'ibax.getContent', params: () => [{ template: 'Div(){Notes: #n#}' }, { n: '3' }] },
  { method: 'ibax.getPageValidatorsCount', params: () => ['notes_home'] },
  { method: 'ibax.getContractInfo', params: () => ['AddNote'] },
  { method: 'ibax.getContracts', params: () => [0, 2] },
  { method: 'ibax.getTableCount', params: () => [0, 2] },
  { method: 'ibax.getTable', params: () => ['notes'] },
  {
    method: 'ibax.getList',
    params: () => [{ name: 'notes', where: { amount: { $gt: 100 } }, columns: 'title,amount', limit: 2 }],
  },
  { method: 'ibax.getRow', params: () => ['notes', Number(ids.note), 'title,amount'] },
  { method: 'ibax.history', params: () => ['notes', Number(ids.note)] },
  { method: 'ibax.getConfig', params: () => ['centrifugo'] },
  { method: 'ibax.sendTx', params: () => [{ tx1: sendTxBase64 }] },
  { method: 'ibax.txStatus', params: () => [hashes.note] },
  { method: 'ibax.txInfo', params: () => [hashes.note, true] },
  { method: 'ibax.txInfoMultiple', params: () => [[hashes.note, hashes.transfer]] },
  { method: 'ibax.subscribe', params: () => ['newBlocks'], overWebSocket: true },
  { method: 'ibax.unsubscribe', params: () => [subscriptionId], overWebSocket: true },
  { method: 'debug.getMemStat', params: () => [] },
  { method: 'debug.getNodeBanStat', params: () => [] },
  { method: 'rpc.modules', params: () => [] },
  { method: 'rpc.discover', params: () => [] },
  { method: 'admin.startJsonRpc', params: () => ['ibax,chain,net,admin,debug'] },
  // Last: it takes the newest block back, and then JSON-RPC stops.
  { method: 'admin.rollbackBlocks', params: () => [1, true] },
  { method: 'admin.stopJsonRpc', params: () => [] },
];
let rpcLoginToken = '';

/** Member names that are data (block ids, hashes), which differ from run to run. */
const DATA_KEY = /^(\d+|[0-9a-f]{16,})$/;

/**
 * The shape of a JSON value: member names and JSON types; members named by data (block ids, transaction
 * hashes) count as one member, `<id or hash>`, whose shape is the union of theirs.
 */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (typeof value === 'bigint' || typeof value === 'number') return 'number';
  if (typeof value !== 'object') return typeof value;
  const union = (items: unknown[]) =>
    [...new Set(items.map((item) => JSON.stringify(shapeOf(item))))]
      .sort()
      .map((item) => JSON.parse(item) as unknown);
  if (Array.isArray(value)) return { array: union(value) };
  const entries = Object.entries(value);
  const named = entries.filter(([key]) => !DATA_KEY.test(key));
  const byData = entries.filter(([key]) => DATA_KEY.test(key)).map(([, item]) => item);
  return {
    ...Object.fromEntries(named.map(([key, item]) => [key, shapeOf(item)])),
    ...(byData.length > 0 ? { '<id or hash>': union(byData) } : {}),
  };
}

/** What the node answered: the JSON (exact integers), or the text of other media types, cut. */
function exampleBody(type: string, bytes: Buffer): unknown {
  if (type.includes('json')) return trimForExample(parseExampleJson(bytes.toString('utf8')));
  if (type.startsWith('text/')) {
    const lines = bytes.toString('utf8').split('\n');
    return lines.length > 12 ? `${lines.slice(0, 12).join('\n')}\n…` : lines.join('\n');
  }
  return `(${bytes.length} bytes of ${type})`;
}

async function recordRest(call: RestCall): Promise<RestExample> {
  const method = call.method ?? 'GET';
  const path = call.path();
  const operation = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === call.id);
  expect(operation, `${call.id} is in the OpenAPI document`).toBeDefined();
  const token = call.token ? await call.token() : operation!.security?.length ? founder.token : undefined;
  const form = call.form?.();
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const answer = await fetch(node.url + path, {
    method,
    headers,
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  expect(answer.status, `${call.id}: ${bytes.toString('utf8').slice(0, 300)}`).toBe(200);
  const type = (answer.headers.get('content-type') ?? '').split(';')[0];
  return {
    request: { method, path, ...(form ? { form } : {}), session: Boolean(token) },
    status: answer.status,
    type,
    response: exampleBody(type, bytes),
  };
}

let subscriptionId = '';
let socket: WebSocket | undefined;

/** One call over a WebSocket connection to the node (opened at the first), answered by its id. */
async function overWebSocket(request: { id: number; method: string; params: unknown[] }): Promise<string> {
  if (!socket) {
    socket = new WebSocket(node.url.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject));
  }
  const answered = new Promise<string>((resolve) => {
    const listener = (data: Buffer) => {
      const text = data.toString('utf8');
      if ((JSON.parse(text) as { id?: unknown }).id !== request.id) return;
      socket!.off('message', listener);
      resolve(text);
    };
    socket!.on('message', listener);
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', ...request }));
  return answered;
}

async function recordRpc(call: RpcCall): Promise<RpcExample> {
  const params = await call.params();
  const token = call.method.endsWith('.login') ? rpcLoginToken : founder.token;
  const text = call.overWebSocket
    ? await overWebSocket({ id: 1, method: call.method, params })
    : (await founder.rpcRaw({ jsonrpc: '2.0', id: 1, method: call.method, params }, { token })).text;
  const envelope = parseExampleJson(text) as { result?: unknown; error?: unknown };
  if (call.method.endsWith('.subscribe')) subscriptionId = envelope.result as string;
  expect(envelope.error, `${call.method}: ${text.slice(0, 300)}`).toBeUndefined();
  return { params, result: trimForExample(envelope.result) };
}

async function recordGateway(id: string): Promise<RestExample> {
  const [method, path] = id.endsWith('handle_get') ? (['GET', '/rpc'] as const) : (['POST', '/'] as const);
  const json = { jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId', params: [] };
  const answer = await founder.request(method, path, {
    body: JSON.stringify(json),
    headers: { 'Content-Type': 'application/json' },
    token: null,
  });
  expect(answer.status, answer.text).toBe(200);
  return {
    request: { method, path, json, session: false },
    status: answer.status,
    type: 'application/json',
    response: parseExampleJson(answer.text),
  };
}

it(
  'records or checks one example of every REST operation and JSON-RPC method',
  { timeout: 180_000 },
  async () => {
    const recorded: ApiExamples = { rest: {}, rpc: {} };
    const failed: string[] = [];
    const attempt = async <T>(record: () => Promise<T>, keep: (example: T) => void) => {
      try {
        keep(await record());
      } catch (error) {
        failed.push((error as Error).message.split('\n')[0]);
      }
    };
    for (const call of REST_CALLS)
      await attempt(
        () => recordRest(call),
        (example) => (recorded.rest[call.id] = example),
      );
    for (const id of GATEWAY_CALLS)
      await attempt(
        () => recordGateway(id),
        (example) => (recorded.rest[id] = example),
      );
    // rpc.modules lists what is served: read it before the admin calls change it.
    const served = (await founder.rpc<string[]>('rpc.modules')).map((name) => declaredName(name));
    for (const call of RPC_CALLS) {
      await attempt(
        () => recordRpc(call),
        (example) => (recorded.rpc[declaredName(call.method)] = example),
      );
    }
    expect(failed, 'every example call succeeds').toEqual([]);

    // Every operation of the document and every method served has an example.
    const operations = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .map((operation) => operation.operationId)
      .filter((id): id is string => Boolean(id));
    expect([...new Set(operations)].filter((id) => !recorded.rest[id])).toEqual([]);
    expect([...new Set(served)].filter((name) => !recorded.rpc[name])).toEqual([]);

    if (UPDATE) {
      // Written as the project's formatter writes JSON, so that `npm run lint` accepts it as recorded.
      const options = await prettier.resolveConfig(API_EXAMPLES_FILE);
      const text = await prettier.format(stringify(recorded)!, { ...options, parser: 'json' });
      writeFileSync(API_EXAMPLES_FILE, text);
      return;
    }
    const stored = parseExampleJson(readFileSync(API_EXAMPLES_FILE, 'utf8')) as ApiExamples;
    const changed: string[] = [];
    for (const [id, example] of Object.entries(recorded.rest)) {
      const before = stored.rest[id];
      if (!before) changed.push(`REST ${id}: no recorded example`);
      else if (JSON.stringify(shapeOf(before.response)) !== JSON.stringify(shapeOf(example.response)))
        changed.push(`REST ${id}: the answer's shape changed`);
      else if (before.request.method !== example.request.method || before.type !== example.type)
        changed.push(`REST ${id}: the request method or answer type changed`);
    }
    for (const [name, example] of Object.entries(recorded.rpc)) {
      const before = stored.rpc[name];
      if (!before) changed.push(`JSON-RPC ${name}: no recorded example`);
      else if (JSON.stringify(shapeOf(before.result)) !== JSON.stringify(shapeOf(example.result)))
        changed.push(`JSON-RPC ${name}: the result's shape changed`);
    }
    for (const id of Object.keys(stored.rest))
      if (!recorded.rest[id]) changed.push(`REST ${id}: no longer served`);
    for (const name of Object.keys(stored.rpc))
      if (!recorded.rpc[name]) changed.push(`JSON-RPC ${name}: no longer served`);
    expect(
      changed,
      'the examples in src/api-docs/examples.json no longer match the node: record them again with ' +
        'UPDATE_API_EXAMPLES=1 npx vitest run test/ops/api-examples.e2e.ts',
    ).toEqual([]);
  },
);

import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mp, parseBlock, verifyBlockHashes, forSign, asciiBytes, merkleRoot } from '../../src/chain/codec';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { signTransaction, smartTransaction } from '../../src/chain/tx-builder';
import { rollbacksHash } from '../../src/producer/rollbacks-hash';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { bytesToHex, parsePrivateKeyHex } from '../../src/crypto';
import { asBuffer, DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildCoinTransfer, buildContractCall } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';
import { expectRestError, expectShape } from '../support/wire';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BODY_LIMIT: '65536' } });
let node: TestNode;
let db: DatabaseService;
let founder: IbaxClient;

interface Session {
  client: IbaxClient;
  key: string;
  keyId: bigint;
  account: string;
}

/** A brand-new key, registered by its first login. */
async function newSession(): Promise<Session> {
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  const session = await client.login(key);
  return { client, key, keyId: BigInt(session.keyId), account: session.account };
}

const COLUMNS = JSON.stringify([
  { name: 'name', type: 'varchar', conditions: 'true' },
  { name: 'weight', type: 'number', conditions: 'true' },
]);
const PERMISSIONS = JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' });
const THING_CONTRACT = `contract AddThing {
    data {
        Name string
        Weight int
    }
    action {
        $result = DBInsert("things", {"name": $Name, "weight": $Weight})
    }
}`;

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
});

/** Every mined transaction shows in the block lists and in txinfo with its contract and parameters. */
async function expectListed(hash: string, blockId: string, contract: string, params: unknown) {
  const blocks = await node.client.get(`/api/v2/blocks?block_id=${blockId}&count=1`);
  expect(blocks.status).toBe(200);
  const brief = blocks.body[blockId].find(
    (tx: { hash: string }) => tx.hash === Buffer.from(hash, 'hex').toString('base64'),
  );
  expect(brief, `${hash} in /blocks`).toBeDefined();
  expect(brief.contract_name).toBe(contract);
  expect(brief.params).toEqual(params);
  const detailed = await node.client.get(`/api/v2/detailed_blocks?block_id=${blockId}&count=1`);
  const entry = detailed.body[blockId].transactions.find(
    (tx: { hash: string }) => tx.hash === Buffer.from(hash, 'hex').toString('base64'),
  );
  expect(entry.contract_name).toBe(contract);
  // Transfers (types 5 and 6) show their body instead of params here; they are checked by their test.
  if (params !== null) expect(entry.params).toEqual(params);
  expectShape(entry, {
    hash: 'string',
    contract_name: 'string',
    params: 'object',
    key_id: 'number',
    time: 'number',
    type: 'number',
    size: 'string',
  });
  const info = await node.client.get(`/api/v2/txinfo/${hash}?contractinfo=true`);
  expect(info.status).toBe(200);
  expect(info.body.blockid).toBe(blockId);
  expect(info.body.data.contract_name).toBe(contract);
  expect(info.body.data.hash).toBe(hash);
}

describe('a brand-new key', () => {
  let user: Session;
  let thingHash: string;

  beforeAll(async () => {
    user = await newSession();
    const role = await db.one<{ value: string }>(
      `SELECT "value" FROM "1_app_params" WHERE "ecosystem" = 1 AND "name" = 'role_developer'`,
    );
    const assigned = await founder.call(node.founderKey, 'RolesAssign', {
      RoleId: role!.value,
      MemberAccount: user.account,
    });
    expect(assigned.status.errmsg).toBeUndefined();
  });

  it('creates a table, uploads a contract and calls it to insert rows, each in a block', async () => {
    const table = await user.client.call(user.key, 'NewTable', {
      ApplicationId: '1',
      Name: 'things',
      Columns: COLUMNS,
      Permissions: PERMISSIONS,
    });
    expect(table.status.errmsg).toBeUndefined();
    expect(Number(table.status.blockid)).toBeGreaterThan(1);
    await expectListed(table.hash, table.status.blockid, '@1NewTable', {
      ApplicationId: 1,
      Name: 'things',
      Columns: COLUMNS,
      Permissions: PERMISSIONS,
    });

    const contract = await user.client.call(user.key, 'NewContract', {
      ApplicationId: '1',
      Value: THING_CONTRACT,
      Conditions: 'true',
    });
    expect(contract.status.errmsg).toBeUndefined();
    await expectListed(contract.hash, contract.status.blockid, '@1NewContract', {
      ApplicationId: 1,
      Value: THING_CONTRACT,
      Conditions: 'true',
    });

    const first = await user.client.call(user.key, 'AddThing', { Name: 'anvil', Weight: '70' });
    const second = await user.client.call(user.key, 'AddThing', { Name: 'feather', Weight: '1' });
    expect([first.status.result, second.status.result]).toEqual(['1', '2']);
    await expectListed(first.hash, first.status.blockid, '@1AddThing', { Name: 'anvil', Weight: 70 });
    thingHash = first.hash;
    const rows = await db.query<{ name: string; weight: string }>(
      `SELECT "name", "weight"::text AS "weight" FROM "1_things" ORDER BY "id"`,
    );
    expect(rows).toEqual([
      { name: 'anvil', weight: '70' },
      { name: 'feather', weight: '1' },
    ]);
  });

  it('shows what a transaction wrote in tx_record', async () => {
    const records = await node.client.get(`/api/v2/tx_record/${thingHash},abc`);
    expect(records.status).toBe(200);
    expect(records.body).toHaveLength(2);
    expect(records.body[0][0]).toMatchObject({ id: '1', name: 'anvil', weight: '70' });
    expect(records.body[1]).toBeNull();
  });

  it('keeps a block exact when transactions of one block read, update and fail on the same row', async () => {
    const bump = await user.client.call(user.key, 'NewContract', {
      ApplicationId: '1',
      Value: `contract Bump {
    data {
        Id int
        Fail bool
    }
    action {
        var row map
        row = DBFind("things").Columns("weight").WhereId($Id).Row()
        DBUpdate("things", $Id, {"+weight": 1})
        if $Fail {
            error "bump refused"
        }
        $result = row["weight"]
    }
}`,
      Conditions: 'true',
    });
    expect(bump.status.errmsg).toBeUndefined();
    const contract = await user.client.contract('Bump');
    // Distinct hashes for identical arguments: one second apart in their signed time.
    const txs = [false, true, false, false].map(
      (fail, i) =>
        buildContractCall(
          user.client.signer,
          user.key,
          contract,
          { Id: '1', Fail: String(fail) },
          {
            networkId: node.config.networkId,
            time: BigInt(Math.floor(Date.now() / 1000) - 10 + i),
          },
        ).bytes,
    );
    const hashes = await user.client.sendTransactions(txs);
    const statuses = await user.client.waitForTransactions(hashes);
    const [first, failed, second, third] = hashes.map((hash) => statuses[hash]);
    expect(new Set([first.blockid, second.blockid, third.blockid]).size).toBe(1);
    expect(failed.errmsg).toEqual({ type: 'error', error: 'bump refused' });
    // Each bump answers the weight it read before bumping. The failed bump is taken back in the database
    // and in what the block's later reads see. Same-millisecond envelopes run in hash order (the queue's
    // order), so the results come in any order.
    expect([first.result, second.result, third.result].sort()).toEqual(['70', '71', '72']);
    const row = await db.one<{ weight: string }>(
      `SELECT "weight"::text AS "weight" FROM "1_things" WHERE "id" = 1`,
    );
    expect(row?.weight).toBe('73');
  });

  it('creates and edits a page', async () => {
    const page = await user.client.call(user.key, 'NewPage', {
      ApplicationId: '1',
      Name: 'welcome',
      Value: 'Div(){Hello}',
      Menu: 'default_menu',
      Conditions: 'true',
    });
    expect(page.status.errmsg).toBeUndefined();
    const edit = await user.client.call(user.key, 'EditPage', { Id: page.status.result, Value: 'Div(){Hi}' });
    expect(edit.status.errmsg).toBeUndefined();
    await expectListed(edit.hash, edit.status.blockid, '@1EditPage', {
      Id: Number(page.status.result),
      Value: 'Div(){Hi}',
    });
    const row = await db.one<{ value: string }>(`SELECT "value" FROM "1_pages" WHERE "name" = 'welcome'`);
    expect(row?.value).toBe('Div(){Hi}');
  });

  it('receives tokens: the founder moves coins to its account (type 6), then transfers (contract and type 5)', async () => {
    const options = { networkId: node.config.networkId };
    const toAccount = buildCoinTransfer(
      founder.signer,
      node.founderKey,
      { transferSelf: { value: '1000000', source: 'UTXO', target: 'Account' } },
      options,
    );
    const utxo = buildCoinTransfer(
      founder.signer,
      node.founderKey,
      { utxo: { toId: user.keyId, value: '5000', comment: 'welcome' } },
      options,
    );
    const [selfHash, utxoHash] = await founder.sendTransactions([toAccount.bytes, utxo.bytes]);
    const statuses = await founder.waitForTransactions([selfHash, utxoHash]);
    expect(statuses[selfHash].errmsg).toBeUndefined();
    expect(statuses[utxoHash].errmsg).toBeUndefined();
    await expectListed(selfHash, statuses[selfHash].blockid, '', null);
    const detailed = await node.client.get(
      `/api/v2/detailed_blocks?block_id=${statuses[selfHash].blockid}&count=1`,
    );
    const self = detailed.body[statuses[selfHash].blockid].transactions.find(
      (tx: { type: number }) => tx.type === 6,
    );
    expect(self.params).toEqual({ TransferSelf: { Value: '1000000', Source: 'UTXO', Target: 'Account' } });
    const received = await db.one<{ output_value: string }>(
      `SELECT "output_value"::text AS "output_value" FROM "spent_info" WHERE "output_key_id" = $1 AND "input_tx_hash" IS NULL`,
      [user.keyId.toString()],
    );
    expect(received?.output_value).toBe('5000');

    const transfer = await founder.call(node.founderKey, 'TokensTransfer', {
      Recipient: user.account,
      Amount: '250',
      Comment: 'first',
    });
    expect(transfer.status.errmsg).toBeUndefined();
    await expectListed(transfer.hash, transfer.status.blockid, '@1TokensTransfer', {
      Recipient: user.account,
      Amount: '250',
      Comment: 'first',
    });
    const balance = await db.one<{ amount: string }>(
      `SELECT "amount"::text AS "amount" FROM "1_keys" WHERE "id" = $1 AND "ecosystem" = 1`,
      [user.keyId.toString()],
    );
    expect(balance?.amount).toBe('250');
  });
});

describe('the transaction envelopes', () => {
  it('accept the SDK format, the 0x80 client format, and JSON-RPC in base64 and hex', async () => {
    const user = await newSession();
    const contract = await user.client.contract('NewParameter');
    const build = (name: string, format: 'sdk' | 'client') =>
      buildContractCall(
        user.client.signer,
        user.key,
        contract,
        { Name: name, Value: '1', Conditions: 'true' },
        { networkId: node.config.networkId, format },
      ).bytes;
    const viaFile = await user.client.sendTransactions([build('env_file', 'client')]);
    const viaHex = await user.client.sendTransactions([build('env_hex', 'sdk')], { via: 'hex' });
    const viaRpc = await user.client.sendTransactions([build('env_rpc', 'client')], { via: 'rpc' });
    const hexRpc = await user.client.rpc('ibax.sendTx', [
      { one: Buffer.from(build('env_rpc_hex', 'sdk')).toString('hex') },
    ]);
    const hashes = [...viaFile, ...viaHex, ...viaRpc, ...Object.keys(hexRpc.hashes)];
    expect(hashes.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
    const statuses = await user.client.waitForTransactions(hashes);
    // A new key is not a developer: each call ran, and was refused by the contract's conditions.
    for (const hash of hashes)
      expect(statuses[hash].errmsg).toEqual({ type: 'warning', error: 'Access denied' });
  });

  it('answer sendTx with the hashes keyed by hash and by part name, and txstatus in the documented shape', async () => {
    const user = await newSession();
    const tx = await user.client.buildCall(user.key, 'NewParameter', {
      Name: 'shape',
      Value: '1',
      Conditions: 'true',
    });
    const answer = await user.client.postMultipart('/api/v2/sendTx', {
      data: Buffer.from(tx.bytes),
    });
    const hash = bytesToHex(tx.hash);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ hashes: { [hash]: hash, data: hash } });
    await user.client.waitForTransactions([hash]);
    const failed = await user.client.postForm('/api/v2/txstatus', {
      data: JSON.stringify({ hashes: [hash] }),
    });
    expect(failed.status).toBe(200);
    expect(failed.body.results[hash]).toEqual({
      blockid: '',
      errmsg: { type: 'warning', error: 'Access denied' },
      result: '',
      penalty: 0,
    });
    const rpc = await user.client.rpc('ibax.txStatus', [hash]);
    expectShape(rpc[hash], { blockid: 'string', errmsg: 'object', result: 'string', penalty: 'number' });
    const mined = await founder.call(node.founderKey, 'NewParameter', {
      Name: 'shape',
      Value: '1',
      Conditions: 'true',
    });
    const status = await founder.postForm('/api/v2/txstatus', {
      data: JSON.stringify({ hashes: [mined.hash] }),
    });
    expectShape(status.body.results[mined.hash], { blockid: 'string', result: 'string', penalty: 'number' });
    expect(status.body.results[mined.hash].blockid).toMatch(/^[1-9]\d*$/);
    const unknown = await founder.postForm('/api/v2/txstatus', {
      data: JSON.stringify({ hashes: ['ab'.repeat(32)] }),
    });
    expectRestError(unknown, 400, 'E_HASHNOTFOUND');
    const wrong = await founder.postForm('/api/v2/txstatus', { data: JSON.stringify({ hashes: ['xyz'] }) });
    expectRestError(wrong, 400, 'E_HASHWRONG');
    // `data` sent twice: the first (the body's, before the query's) counts, as Go's r.FormValue has it.
    const repeated = await founder.postForm('/api/v2/txstatus?data=not-json', {
      data: JSON.stringify({ hashes: [mined.hash] }),
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body.results[mined.hash].blockid).toBe(status.body.results[mined.hash].blockid);
  });
});

describe('a refused transaction', () => {
  async function refusedWith(
    build: (user: Session) => Promise<Uint8Array> | Uint8Array,
    message: string | RegExp,
  ) {
    const user = await newSession();
    const bytes = await build(user);
    const answer = await user.client.postMultipart('/api/v2/sendTx', { tx: Buffer.from(bytes) });
    expectRestError(answer, 400, 'E_SERVER', message);
    const queued = await db.one<{ count: string }>(`SELECT count(*) AS "count" FROM "transactions"`);
    expect(queued?.count).toBe('0');
    return { user, answer };
  }

  const call = (user: Session, args: Record<string, string>, options: Record<string, unknown> = {}) =>
    user.client.buildCall(
      user.key,
      'NewParameter',
      { Name: 'x', Value: '1', Conditions: 'true', ...args },
      options,
    );

  it('is refused for a forged signature, leaving only its failed status', async () => {
    const { user } = await refusedWith(async (user) => {
      const tx = await call(user, {});
      const forged = Buffer.from(tx.bytes);
      const signature = Buffer.from(tx.signature);
      const at = forged.indexOf(signature);
      forged[at + 10] ^= 0xff;
      return forged;
    }, 'Incorrect sign');
    expect(user).toBeDefined();
  });

  it('is refused for a wrong network id, a tampered payload, a late or early time', async () => {
    await refusedWith(
      (user) => call(user, {}, { networkId: 99n }).then((tx) => tx.bytes),
      'error networkid invalid',
    );
    await refusedWith(async (user) => {
      const tx = await call(user, {});
      const tampered = Buffer.from(tx.bytes);
      const at = tampered.lastIndexOf(Buffer.from('Conditions'));
      tampered[at] = 'c'.charCodeAt(0);
      return tampered;
    }, /does not match its payload/);
    await refusedWith(
      (user) =>
        call(user, {}, { format: 'sdk' }).then(() => {
          const keyHex = user.key;
          const signer = user.client.signer;
          const privateKey = parsePrivateKeyHex(keyHex);
          return signTransaction(
            signer,
            privateKey,
            smartTransaction({
              contractId: 5029,
              ecosystemId: 1n,
              keyId: user.keyId,
              networkId: node.config.networkId,
              publicKey: signer.publicKey(privateKey),
              params: mp.map([
                ['Name', 'late'],
                ['Value', '1'],
                ['Conditions', 'true'],
              ]),
            }),
            { timestampMs: BigInt(Date.now() - 25 * 3600 * 1000) },
          ).bytes;
        }),
      'Transaction processing time is expired',
    );
  });

  it('is refused for an unknown contract, a missing parameter and a parameter of the wrong type', async () => {
    const raw = (user: Session, id: number, params: ReturnType<typeof mp.map>) => {
      const privateKey = parsePrivateKeyHex(user.key);
      return signTransaction(
        user.client.signer,
        privateKey,
        smartTransaction({
          contractId: id,
          ecosystemId: 1n,
          keyId: user.keyId,
          networkId: node.config.networkId,
          publicKey: user.client.signer.publicKey(privateKey),
          params,
        }),
      ).bytes;
    };
    await refusedWith((user) => raw(user, 99_999, mp.map([])), 'unknown contract 99999');
    const newParameter = (await founder.contract('NewParameter')).id;
    await refusedWith(
      (user) => raw(user, newParameter, mp.map([['Name', 'a']])),
      'Parameter Value has not been found',
    );
    await refusedWith(
      (user) =>
        raw(
          user,
          newParameter,
          mp.map([
            ['Name', mp.int64(5)],
            ['Value', '1'],
            ['Conditions', 'true'],
          ]),
        ),
      /parameter Name must be string, got int/,
    );
  });

  it('is accepted again once mined, as the reference accepts it, keeping its status; refused over the size limit', async () => {
    const tx = await founder.buildCall(node.founderKey, 'NewParameter', {
      Name: 'replayed',
      Value: '1',
      Conditions: 'true',
    });
    const [hash] = await founder.sendTransactions([tx.bytes]);
    const mined = await founder.waitForTransactions([hash]);
    expect(Number(mined[hash].blockid)).toBeGreaterThan(0);
    const replay = await founder.postMultipart('/api/v2/sendTx', { tx: Buffer.from(tx.bytes) });
    expect(replay.status).toBe(200);
    expect(Object.keys(replay.body.hashes)).toContain(hash);
    expect((await founder.txStatus([hash]))[hash]).toEqual(mined[hash]);
    // Not queued again: a mined transaction leaves the queue, and the one sent again does not enter it.
    const queued = await node.app
      .get(DatabaseService)
      .query(`SELECT 1 FROM "transactions" WHERE "hash" = $1`, [Buffer.from(hash, 'hex')]);
    expect(queued).toHaveLength(0);
    const huge = await founder.postMultipart('/api/v2/sendTx', { tx: Buffer.alloc(70_000) });
    expect(huge.status).toBe(413);
  });

  it('bans a key after five bad transactions', async () => {
    const user = await newSession();
    for (let i = 0; i < 5; i++) {
      const bad = await user.client.postMultipart('/api/v2/sendTx', { tx: 'zz' });
      expect(bad.status).toBe(400);
    }
    const tx = await call(user, { Name: 'after_ban' });
    const banned = await user.client.postMultipart('/api/v2/sendTx', {
      tx: Buffer.from(tx.bytes),
    });
    expectRestError(
      banned,
      403,
      'E_BANNED',
      new RegExp(`^The key ${user.keyId} is banned till \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`),
    );
  });
});

describe('the chain', () => {
  it('recomputes every block: merkle root, hash, signature, links and journal digest', async () => {
    const crypto = node.app.get(NodeCrypto);
    const keys = node.app.get(NodeIdentity).keys;
    const rows = await db.query<{ id: string; hash: unknown; rollbacks_hash: unknown; data: unknown }>(
      `SELECT "id", "hash", "rollbacks_hash", "data" FROM "block_chain" ORDER BY "id"`,
    );
    expect(rows.length).toBeGreaterThan(10);
    let previous: { hash: Buffer; rollbacksHash: Buffer } | undefined;
    for (const row of rows) {
      const block = parseBlock(asBuffer(row.data));
      const hash = (data: Uint8Array) => crypto.hasher.hash(data);
      verifyBlockHashes(block, hash);
      expect(Buffer.from(block.header.blockHash).equals(asBuffer(row.hash)), `hash of ${row.id}`).toBe(true);
      const root = merkleRoot(block.compressedTxs, hash);
      crypto.signer.verify(
        keys.node.publicKey,
        asciiBytes(forSign(block.header, block.prevHeader, root)),
        block.header.sign,
      );
      if (previous) {
        expect(Buffer.from(block.prevHeader.blockHash).equals(previous.hash)).toBe(true);
        expect(Buffer.from(block.prevHeader.rollbacksHash).equals(previous.rollbacksHash)).toBe(true);
        const journal = await db.query<{
          tx_hash: unknown;
          table_name: string;
          table_id: string;
          data: string;
        }>(
          `SELECT "tx_hash", "table_name", "table_id", "data" FROM "rollback_tx" WHERE "block_id" = $1 ORDER BY "id"`,
          [row.id],
        );
        const digest = rollbacksHash(
          BigInt(row.id),
          journal.map((record) => ({ ...record, tx_hash: asBuffer(record.tx_hash) })),
          crypto.hasher,
        );
        expect(Buffer.from(digest).equals(asBuffer(row.rollbacks_hash)), `rollbacks hash of ${row.id}`).toBe(
          true,
        );
      }
      previous = { hash: asBuffer(row.hash), rollbacksHash: asBuffer(row.rollbacks_hash) };
    }
  });

  it('answers the block reads over JSON-RPC in their documented shapes', async () => {
    const max = await node.client.rpc('ibax.maxBlockId');
    expect(max).toBeGreaterThan(10);
    const list = await node.client.rpc('ibax.getBlocksTxInfo', [2, 3]);
    expect(Object.keys(list)).toEqual(['2', '3', '4']);
    expectShape(list['2'][0], {
      hash: 'string',
      contract_name: 'string',
      params: 'object',
      key_id: 'number',
    });
    const detailed = await node.client.rpc('ibax.detailedBlock', ['2']);
    const byHash = await node.client.rpc('chain.detailedBlock', [{ hash: detailed.hash }]);
    expect(byHash).toEqual(detailed);
    expect(detailed.header.block_id).toBe(2);
    expect(await node.client.rpc('ibax.getTransactionCount', ['2'])).toBe(detailed.tx_count);
    const total = await node.client.rpc('ibax.getTxCount');
    expect((await node.client.get('/api/v2/metrics/transactions')).body.count).toBe(total);
    expect(await node.client.rpc('ibax.getBlocksCountByNode', [0, 1])).toEqual({
      total_count: max,
      partial_count: max,
    });
    expect((await node.client.get('/api/v2/metrics/blockper/0/1')).body).toEqual({
      totalcount: max,
      partialcount: max,
    });
    expectRestError(await node.client.get('/api/v2/metrics/blockper/0/3'), 404, 'E_PARAMNOTFOUND');
    expect(await node.client.rpc('debug.getNodeBanStat')).toEqual([{ node_position: 0, status: false }]);
    expect((await node.client.get('/api/v2/metrics/ban')).body).toEqual([
      { node_position: 0, status: false },
    ]);
    const over = await node.client.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getBlocksTxInfo',
      params: [0, 5],
    });
    expect(over.body.error).toEqual({ code: -32602, message: 'params 0 invalid' });
  });
});

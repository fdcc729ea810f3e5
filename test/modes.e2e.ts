import { afterAll, describe, expect, it } from 'vitest';
import { encodeClientEnvelope } from '../src/chain/codec';
import { bytesToHex } from '../src/crypto';
import { IbaxClient, buildContractCall } from '../src/sdk';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from './support/node';
import { expectRestError, expectShape } from './support/wire';

// These nodes run one after the other: each test stops its node (and its database) before the next starts.
let running: { node: TestNode; db: TestDatabase } | undefined;

async function boot(env: Record<string, string>) {
  await shutdown();
  const db = await createTestDatabase();
  const node = await startNode({ databaseUrl: db.url, env });
  running = { node, db };
  return node;
}

async function shutdown() {
  if (!running) return;
  await running.node.stop(true);
  await running.db.drop();
  running = undefined;
}

afterAll(shutdown);

/** DER (SEQUENCE of two INTEGERs) of a 64-byte r‖s signature, as jsrsasign in Weaver produces. */
function derSignature(compactHex: string): string {
  const integer = (bytes: Buffer) => {
    let trimmed = bytes;
    while (trimmed.length > 1 && trimmed[0] === 0) trimmed = trimmed.subarray(1);
    if (trimmed[0] & 0x80) trimmed = Buffer.concat([Buffer.of(0), trimmed]);
    return Buffer.concat([Buffer.of(0x02, trimmed.length), trimmed]);
  };
  const compact = Buffer.from(compactHex, 'hex');
  const body = Buffer.concat([integer(compact.subarray(0, 32)), integer(compact.subarray(32))]);
  return Buffer.concat([Buffer.of(0x30, body.length), body]).toString('hex');
}

describe('CLB mode', () => {
  it('has no blockchain routes, and says clb at login', async () => {
    const node = await boot({ NODE_MODE: 'clb' });
    for (const path of [
      '/api/v2/maxblockid',
      '/api/v2/block/1',
      '/api/v2/ecosystemname?id=1',
      '/api/v2/metrics/keys',
      '/api/v2/balance/0000-0000-0000-0000-5555',
      '/api/v2/systemparams',
      '/api/v2/ecosystemparams',
      '/api/v2/ecosystemparam/founder_account',
      '/api/v2/appparams/1',
      '/api/v2/appparam/1/role_developer',
      '/api/v2/appcontent/1',
      '/api/v2/walletHistory',
    ]) {
      expectRestError(await node.client.get(path), 404, 'E_NOTFOUND');
    }
    expect((await node.client.get('/api/v2/version')).status).toBe(200);
    expect((await node.client.get('/api/v2/keyinfo/0000-0000-0000-0000-5555')).status).toBe(200);
    expect((await node.client.get('/api/v2/member/1/0000-0000-0000-0000-5555')).status).toBe(200);
    expect((await node.client.login(node.founderKey)).raw.clb).toBe(true);
  });
});

describe('P-256 with SHA-256 (the crypto Weaver speaks)', () => {
  it('reports its crypto and logs the founder in over REST and JSON-RPC', async () => {
    const node = await boot({
      CRYPTOER: 'ECC_P256',
      HASHER: 'SHA256',
      NETWORK_ID: '7',
      CENTRIFUGO_URL: 'http://127.0.0.1:8000',
    });
    const uid = await node.client.get('/api/v2/getuid');
    expect(uid.body).toMatchObject({ network_id: '7', cryptoer: 'ECC_P256', hasher: 'SHA256' });
    const session = await node.client.login(node.founderKey);
    expect(session.raw.isowner).toBe(true);
    expect(session.account).toBe(node.client.accountOf(node.founderKey));
    const rpc = await node.client.loginRpc(node.founderKey);
    expect(rpc.keyId).toBe(session.keyId);
    // As the reference answers it: the configured address, `http:` written `ws:`.
    expect((await node.client.get('/api/v2/config/centrifugo')).body).toBe('ws://127.0.0.1:8000');

    // Weaver's dialect: multipart, 65-byte public key with 04, DER signature.
    const weaverUid = await node.client.get('/api/v2/getuid', { token: null });
    const signed = node.client.signLogin(node.founderKey, weaverUid.body.network_id, weaverUid.body.uid);
    const weaver = await node.client.postMultipart(
      '/api/v2/login',
      {
        pubkey: '04' + signed.publicKey,
        signature: derSignature(signed.signature),
        ecosystem: '1',
        expire: '7776000',
      },
      { token: weaverUid.body.token },
    );
    expect(weaver.status).toBe(200);
    expect(weaver.body.key_id).toBe(session.keyId);
    expect(await node.client.rpc('ibax.getConfig', ['centrifugo'])).toEqual({
      centrifugo: 'ws://127.0.0.1:8000',
    });
    expectShape((await node.client.get('/api/v2/network')).body, {
      network_id: 'string',
      centrifugo_url: 'string',
      test: 'boolean',
      private: 'boolean',
      honor_nodes: 'array',
    });
  });
});

describe('P-256 transactions', () => {
  it('registers a Weaver-style login and mines SDK and 0x80 transactions with raw and DER signatures', async () => {
    const node = await boot({ CRYPTOER: 'ECC_P256', HASHER: 'SHA256', BLOCK_SLOT_MS: '200' });
    const stranger = new IbaxClient(node.url, { cryptoer: 'ECC_P256', hasher: 'SHA256' });
    const key = Buffer.from(stranger.signer.generatePrivateKey()).toString('hex');
    const uid = await stranger.get('/api/v2/getuid', { token: null });
    const signed = stranger.signLogin(key, uid.body.network_id, uid.body.uid);
    const login = await stranger.postMultipart(
      '/api/v2/login',
      { pubkey: '04' + signed.publicKey, signature: derSignature(signed.signature), ecosystem: '1' },
      { token: uid.body.token },
    );
    expect(login.status).toBe(200);
    expect(login.body.account).toBe(stranger.accountOf(key));

    await node.client.login(node.founderKey);
    const contract = await node.client.contract('NewParameter');
    const call = (name: string, format: 'sdk' | 'client') =>
      buildContractCall(
        node.client.signer,
        node.founderKey,
        contract,
        { Name: name, Value: '1', Conditions: 'true' },
        { networkId: node.config.networkId, format },
      );
    const weaver = call('p256_der', 'client');
    const der = encodeClientEnvelope(
      weaver.payload,
      Buffer.from(derSignature(bytesToHex(weaver.signature)), 'hex'),
    );
    const hashes = await node.client.sendTransactions([
      call('p256_sdk', 'sdk').bytes,
      call('p256_raw', 'client').bytes,
      der,
    ]);
    const statuses = await node.client.waitForTransactions(hashes);
    for (const hash of hashes) {
      expect(statuses[hash].errmsg).toBeUndefined();
      expect(Number(statuses[hash].blockid)).toBeGreaterThan(1);
    }
  });
});

describe('JSON-RPC switched off', () => {
  it('answers / with 404 and keeps REST', async () => {
    const node = await boot({ JSONRPC_ENABLED: 'false' });
    const answer = await node.client.rpcRaw({ jsonrpc: '2.0', id: 1, method: 'net.status' });
    expectRestError(answer, 404, 'E_NOTFOUND');
    expect((await node.client.get('/api/v2/maxblockid')).status).toBe(200);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildContractCall } from '../../src/sdk';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from '../support/node';

/**
 * Back-pressure: the transactions admitted and not yet in a block are bounded. The node makes no blocks
 * here (BLOCK_PRODUCER=false), so what is admitted stays queued and the bounds are met exactly.
 */
let running: { node: TestNode; db: TestDatabase } | undefined;

async function boot(env: Record<string, string>): Promise<TestNode> {
  await shutdown();
  const db = await createTestDatabase();
  const node = await startNode({
    databaseUrl: db.url,
    env: { BLOCK_PRODUCER: 'false', BLOCK_SLOT_MS: '2500', ...env },
  });
  running = { node, db };
  return node;
}

async function shutdown(): Promise<void> {
  if (!running) return;
  await running.node.stop(true);
  await running.db.drop();
  running = undefined;
}

afterAll(shutdown);

let sequence = 0;

/** `count` distinct NewParameter calls signed by `key`. */
async function calls(client: IbaxClient, key: string, count: number): Promise<Uint8Array[]> {
  const contract = await client.contract('NewParameter');
  return Array.from(
    { length: count },
    () =>
      buildContractCall(
        client.signer,
        key,
        contract,
        { Name: `bp_${sequence++}`, Value: '1', Conditions: 'true' },
        { networkId: client.networkId! },
      ).bytes,
  );
}

async function sendRest(client: IbaxClient, txs: Uint8Array[]) {
  const fields = Object.fromEntries(txs.map((tx, i) => [`tx${i}`, Buffer.from(tx)]));
  return client.postMultipart('/api/v2/sendTx', fields);
}

async function queued(node: TestNode): Promise<{ queue: number; statuses: number }> {
  const db = node.app.get(DatabaseService);
  const row = await db.one<{ queue: string; statuses: string }>(
    `SELECT (SELECT count(*) FROM "transactions") AS "queue",
            (SELECT count(*) FROM "transactions_status" WHERE "block_id" = 0) AS "statuses"`,
  );
  return { queue: Number(row!.queue), statuses: Number(row!.statuses) };
}

describe('a bounded queue of transactions', () => {
  it('refuses a key past TX_QUEUE_PER_KEY and everyone past TX_QUEUE_LIMIT with 503 E_BUSY and Retry-After, storing nothing', async () => {
    const node = await boot({ TX_QUEUE_LIMIT: '12', TX_QUEUE_PER_KEY: '8', TX_QUEUE_SLOTS: '0' });
    const founder = node.client;
    const founderKeyId = (await founder.login(node.founderKey)).keyId;
    const nodeKeyClient = new IbaxClient(node.url, {
      cryptoer: node.config.cryptoer,
      hasher: node.config.hasher,
    });
    await nodeKeyClient.login(node.nodeKey);

    expect((await sendRest(founder, await calls(founder, node.founderKey, 8))).status).toBe(200);
    const before = await queued(node);

    // The ninth of one key: the per-key bound.
    const ninth = await calls(founder, node.founderKey, 1);
    const perKey = await sendRest(founder, ninth);
    expect(perKey.status).toBe(503);
    expect(perKey.headers.get('retry-after')).toBe('3');
    expect(perKey.body).toEqual({
      error: 'E_BUSY',
      msg: `The node is busy: key ${founderKeyId} has 8 transactions waiting and sends 1 (at most 8); send again in 3 s`,
      params: [`key ${founderKeyId} has 8 transactions waiting and sends 1 (at most 8)`, 3],
    });
    // Nothing of the refused batch is stored: no queue row, no status.
    expect(await queued(node)).toEqual(before);

    // Another key fills the queue to its bound; one more is refused, over JSON-RPC too.
    expect((await sendRest(nodeKeyClient, await calls(nodeKeyClient, node.nodeKey, 4))).status).toBe(200);
    const over = await calls(nodeKeyClient, node.nodeKey, 1);
    const full = await sendRest(nodeKeyClient, over);
    expect(full.status).toBe(503);
    expect(full.body.params[0]).toBe('12 transactions wait for a block (at most 12)');
    const rpc = await nodeKeyClient.rpcRaw({
      jsonrpc: '2.0',
      id: 7,
      method: 'ibax.sendTx',
      params: [{ tx: Buffer.from(over[0]).toString('base64') }],
    });
    expect(rpc.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32000,
        message: 'The node is busy: 12 transactions wait for a block (at most 12); send again in 3 s',
      },
    });
    expect(await queued(node)).toEqual({ queue: 12, statuses: 12 });

    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    expect(metrics).toMatch(/^ibax_tx_refused_total\{reason="busy"\} 3$/m);
  }, 120_000);

  it("follows the chain's pace: a quiet chain takes a fifth of TX_QUEUE_LIMIT, a busy one up to TX_QUEUE_LIMIT", async () => {
    // One node making blocks back to back: what is admitted is mined within moments.
    const node = await boot({
      BLOCK_PRODUCER: 'true',
      BLOCK_SLOT_MS: '1000',
      TX_QUEUE_LIMIT: '100',
      TX_QUEUE_SLOTS: '2',
    });
    const founder = node.client;
    await founder.login(node.founderKey);
    // Quiet: the bound is what the chain mined lately in two slots, at least 20.
    const large = await calls(founder, node.founderKey, 60);
    const quiet = await sendRest(founder, large);
    expect(quiet.status).toBe(503);
    const quietBound = Number(/\(at most (\d+)\)$/.exec(quiet.body.params[0])?.[1]);
    expect(quietBound).toBeGreaterThanOrEqual(20);
    expect(quietBound).toBeLessThan(60);
    // Busy: batches of 20, each mined before the next, for the ten slots the pace is the mean of.
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const batch = await calls(founder, node.founderKey, 20);
      const sent = await sendRest(founder, batch);
      expect(sent.status).toBe(200);
      await founder.waitForTransactions(Object.values(sent.body.hashes), { timeoutMs: 30_000 });
    }
    const busy = await sendRest(founder, large);
    expect(busy.status, JSON.stringify(busy.body)).toBe(200);
  }, 120_000);

  it('refuses clients while a transaction has waited longer than TX_QUEUE_SLOTS slots, by its time in the queue', async () => {
    const node = await boot({ TX_QUEUE_SLOTS: '2' });
    const founder = node.client;
    await founder.login(node.founderKey);
    const db = node.app.get(DatabaseService);
    // Signed now and sent later: a transaction's own time says nothing of how long it waited here.
    const [early, late, later] = [
      await calls(founder, node.founderKey, 1),
      await calls(founder, node.founderKey, 1),
      await calls(founder, node.founderKey, 1),
    ];
    const sent = await sendRest(founder, early);
    expect(sent.status).toBe(200);
    const [hash] = Object.values(sent.body.hashes as Record<string, string>);
    const row = await db.one<{ queued_at: string }>(
      `SELECT "queued_at" FROM "transactions" WHERE "hash" = decode($1, 'hex')`,
      [hash],
    );
    expect(Math.abs(Number(row!.queued_at) - Date.now())).toBeLessThan(10_000);

    // Ten minutes in the queue: the chain is not mining what it accepted, and clients are told so.
    await db.query(`UPDATE "transactions" SET "queued_at" = "queued_at" - 600000`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await sendRest(founder, late);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.body.error).toBe('E_BUSY');
    expect(refused.body.params[0]).toMatch(/^a transaction has waited \d+ ms for a block \(at most 5000\)$/);
    expect(Number(/waited (\d+) ms/.exec(refused.body.params[0])![1])).toBeGreaterThanOrEqual(600_000);
    expect((await queued(node)).queue).toBe(1);

    // Once it is mined (here: gone from the queue), the queue takes transactions again.
    await db.query(`DELETE FROM "transactions"`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await sendRest(founder, later)).status).toBe(200);
  }, 60_000);

  it('refuses past TX_QUEUE_BYTES', async () => {
    const node = await boot({ TX_QUEUE_BYTES: '1000' });
    const founder = node.client;
    await founder.login(node.founderKey);
    const txs = await calls(founder, node.founderKey, 8);
    const size = txs[0].length;
    const fitting = Math.floor(1000 / (size + 8));
    expect(fitting).toBeGreaterThan(0);
    expect((await sendRest(founder, txs.slice(0, fitting))).status).toBe(200);
    const refused = await sendRest(founder, txs.slice(fitting, fitting + 4));
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('E_BUSY');
    expect(refused.body.params[0]).toMatch(
      /^the transactions waiting for a block hold \d+ bytes \(at most 1000\)$/,
    );
    expect((await queued(node)).queue).toBe(fitting);
  }, 60_000);
});

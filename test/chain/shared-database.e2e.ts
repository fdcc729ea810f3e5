import { afterAll, beforeAll, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { startNode, useTestNode, type TestNode } from '../support/node';
import { sleep } from '../support/wire';

/**
 * Two node processes on one PostgreSQL database: the first makes blocks, the second (BLOCK_PRODUCER=false)
 * serves the API. The second keeps the chain's height and blocks in memory, so it must hear of every
 * block and rollback the first one commits (LISTEN/NOTIFY). PostgreSQL only: the embedded database
 * belongs to one process.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', JSONRPC_NAMESPACES: 'ibax,admin' } });
let producer: TestNode;
let reader: TestNode | undefined;

beforeAll(async () => {
  producer = running.node;
  if (!onServer) return;
  reader = await startNode({
    databaseUrl: running.db.url,
    dataDir: producer.dataDir,
    env: { BLOCK_PRODUCER: 'false', BLOCK_SLOT_MS: '200' },
  });
});

afterAll(async () => {
  await reader?.stop();
});

async function maxBlockId(node: TestNode): Promise<number> {
  const answer = await node.client.get('/api/v2/maxblockid');
  expect(answer.status).toBe(200);
  return Number(answer.body.max_block_id);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error('the reader did not catch up');
}

it.runIf(onServer)('a second process follows the blocks and rollbacks of the producing one', async () => {
  const node = reader!;
  const founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(producer.founderKey);
  for (let round = 0; round < 3; round++) {
    // Asked many times between blocks: the reader answers from memory, and must not go stale.
    const before = await maxBlockId(node);
    for (let i = 0; i < 5; i++) expect(await maxBlockId(node)).toBe(before);
    const call = await founder.call(producer.founderKey, 'NewParameter', {
      Name: `shared_${round}`,
      Value: String(round),
      Conditions: 'true',
    });
    const mined = Number(call.status.blockid);
    expect(mined).toBeGreaterThan(before);
    await until(async () => (await maxBlockId(node)) >= mined);
    expect(await maxBlockId(node)).toBe(await maxBlockId(producer));
    const onReader = await node.client.get(`/api/v2/block/${mined}`);
    expect(onReader.body).toEqual((await producer.client.get(`/api/v2/block/${mined}`)).body);
  }
  const height = await maxBlockId(producer);
  expect((await node.client.get(`/api/v2/block/${height}`)).status).toBe(200);
  expect(await producer.client.rpc('admin.rollbackBlocks', [2, true])).toMatchObject({ rolled_back: 2 });
  await until(async () => (await maxBlockId(node)) === height - 2);
  const gone = await node.client.get(`/api/v2/block/${height}`);
  expect(gone.status).toBe(404);
  expect(gone.body.error).toBe('E_NOTFOUND');
});

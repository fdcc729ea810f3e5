import { beforeAll, describe, expect, it } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { IbaxClient } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';

/**
 * Delayed contracts over HTTP: rows of 1_delayed_contracts that the producer runs itself, as calls of
 * @1CallDelayedContract signed by the node at the head of the blocks they are due in (every `every_block`
 * blocks from `block_id` on, at most `limit` times), with the effects journalled with the block.
 */

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let founder: IbaxClient;
let nodeKeyId: bigint;
let pushes = 0;

const TICKS_COLUMNS = JSON.stringify([
  { name: 'block', type: 'number', conditions: 'true' },
  { name: 'caller', type: 'number', conditions: 'true' },
  { name: 'label', type: 'varchar', conditions: 'true' },
]);
const OPEN = JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' });

/** The contracts the rows call: each leaves a row naming its block. */
const TICK = (name: string) => `contract ${name} {
    action {
        DBInsert("ticks", {"block": $block, "caller": $key_id, "label": "${name}"})
    }
}`;

/** Schedules a delayed contract: the founder of ecosystem 1 may insert rows (the table's insert permission). */
const SCHEDULE = `contract ScheduleDelayed {
    data {
        Contract string
        KeyId int
        From int
        Every int
        Limit int
        HighRate int
        Deleted int
    }
    action {
        $result = DBInsert("delayed_contracts", {"contract": $Contract, "key_id": $KeyId, "block_id": $From,
            "every_block": $Every, "limit": $Limit, "high_rate": $HighRate, "deleted": $Deleted,
            "conditions": "ContractConditions(\\"MainCondition\\")"})
    }
}`;

/** A transaction that only makes a block. */
const PUSH = `contract PushBlock {
    data {
        N int
    }
    action {
        $result = $N
    }
}`;

interface BlockTx {
  hash: string;
  contract_name: string;
  params: Record<string, unknown> | null;
}

async function mustCall(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const { status } = await founder.call(node.founderKey, name, args as Record<string, string>);
  expect(status.errmsg, `${name}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result;
}

async function height(): Promise<number> {
  return Number((await node.client.get('/api/v2/maxblockid')).body.max_block_id);
}

/** Sends transactions, one block each, until the chain is at least `target` high. */
async function advanceTo(target: number): Promise<void> {
  while ((await height()) < target) await mustCall('PushBlock', { N: String(++pushes) });
}

async function blockTxs(blockId: number): Promise<BlockTx[]> {
  const answer = await node.client.get(`/api/v2/blocks?block_id=${blockId}&count=1`);
  expect(answer.status).toBe(200);
  return (answer.body[String(blockId)] ?? []) as BlockTx[];
}

/** The ids of the delayed rows a block called, in the block's order. */
async function delayedCalls(blockId: number): Promise<number[]> {
  return (await blockTxs(blockId))
    .filter((tx) => tx.contract_name === '@1CallDelayedContract')
    .map((tx) => Number(tx.params?.Id));
}

async function rows(table: string, where: Record<string, unknown>): Promise<Record<string, string>[]> {
  const answer = await founder.postForm(`/api/v2/listWhere/${table}`, {
    where: JSON.stringify(where),
    order: 'id',
    limit: '1000',
  });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.list ?? []) as Record<string, string>[];
}

async function delayedRow(id: number): Promise<Record<string, string>> {
  const [row] = await rows('delayed_contracts', { id });
  return row;
}

async function ticks(label: string): Promise<number[]> {
  return (await rows('ticks', { label })).map((row) => Number(row.block));
}

/** The first block id after `after` that is a multiple of `every`. */
const nextMultiple = (after: number, every: number) => (Math.floor(after / every) + 1) * every;

async function schedule(row: {
  contract: string;
  from: number;
  every: number;
  limit?: number;
  highRate?: number;
  keyId?: bigint;
  deleted?: number;
}): Promise<number> {
  return Number(
    await mustCall('ScheduleDelayed', {
      Contract: row.contract,
      KeyId: String(row.keyId ?? nodeKeyId),
      From: String(row.from),
      Every: String(row.every),
      Limit: String(row.limit ?? 0),
      HighRate: String(row.highRate ?? 0),
      Deleted: String(row.deleted ?? 0),
    }),
  );
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  node = running.node;
  nodeKeyId = node.app.get(NodeIdentity).keys.node.keyId;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  await mustCall('NewTable', {
    ApplicationId: '1',
    Name: 'ticks',
    Columns: TICKS_COLUMNS,
    Permissions: OPEN,
  });
  for (const source of [SCHEDULE, PUSH, TICK('TickA'), TICK('TickB'), TICK('TickC'), TICK('TickD')]) {
    await mustCall('NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });
  }
});

describe('the genesis row', () => {
  it('runs @1CheckNodesBan every 10 blocks as the node', async () => {
    const [genesisRow] = await rows('delayed_contracts', { contract: '@1CheckNodesBan' });
    expect(genesisRow).toMatchObject({
      key_id: String(nodeKeyId),
      every_block: '10',
      high_rate: '4',
      limit: '0',
    });
    await advanceTo(21);
    for (const blockId of [10, 20]) expect(await delayedCalls(blockId)).toEqual([Number(genesisRow.id)]);
    for (const blockId of [9, 11, 19]) expect(await delayedCalls(blockId)).toEqual([]);
    const [status] = (await blockTxs(10)).filter((tx) => tx.contract_name === '@1CallDelayedContract');
    const info = await node.client.get(
      `/api/v2/txinfo/${Buffer.from(status.hash, 'base64').toString('hex')}`,
    );
    expect(info.body.blockid).toBe('10');
    const after = await delayedRow(Number(genesisRow.id));
    expect(after).toMatchObject({ counter: '2', block_id: '30' });
  });
});

describe('a scheduled row', () => {
  it('runs every N blocks from its first block, at the head of the block, until its limit', async () => {
    const from = nextMultiple((await height()) + 2, 3);
    const id = await schedule({ contract: '@1TickA', from, every: 3, limit: 3 });
    await advanceTo(from + 3 * 3 + 1);
    expect(await ticks('TickA')).toEqual([from, from + 3, from + 6]);
    for (let blockId = from - 1; blockId <= from + 10; blockId++) {
      const calls = await delayedCalls(blockId);
      const due = blockId >= from && blockId <= from + 6 && (blockId - from) % 3 === 0;
      expect(calls.includes(id), `block ${blockId}`).toBe(due);
      // The producer's calls come first in their block.
      const txs = await blockTxs(blockId);
      const firstOther = txs.findIndex((tx) => tx.contract_name !== '@1CallDelayedContract');
      if (firstOther >= 0)
        expect(txs.slice(firstOther).map((tx) => tx.contract_name)).not.toContain('@1CallDelayedContract');
    }
    // Its limit reached, the row stays at the block of its last run and is never due again.
    expect(await delayedRow(id)).toMatchObject({ counter: '3', block_id: String(from + 6), limit: '3' });
    const [tick] = await rows('ticks', { label: 'TickA' });
    expect(tick.caller).toBe(String(nodeKeyId));
  });

  it('makes a block of its own when nothing else waits', async () => {
    const start = await height();
    const id = await schedule({ contract: '@1TickB', from: start + 2, every: 1, limit: 2 });
    // No transaction is sent: the producer makes the blocks the row is due in.
    await waitFor(async () => (await ticks('TickB')).length === 2, 'two runs of TickB');
    const [first, second] = await ticks('TickB');
    expect(second).toBe(first + 1);
    expect(first).toBeGreaterThanOrEqual(start + 2);
    for (const blockId of [first, second]) {
      const txs = await blockTxs(blockId);
      expect(txs.filter((tx) => tx.contract_name !== '@1CallDelayedContract')).toEqual([]);
      expect(await delayedCalls(blockId)).toContain(id);
    }
    expect(await delayedRow(id)).toMatchObject({ counter: '2' });
  });

  it('orders the calls of a block by high_rate, then id; deleted rows and rows of other keys never run', async () => {
    const from = nextMultiple((await height()) + 5, 5);
    const low = await schedule({ contract: '@1TickC', from, every: 5, limit: 1, highRate: 1 });
    const high = await schedule({ contract: '@1TickD', from, every: 5, limit: 1, highRate: 9 });
    const deleted = await schedule({ contract: '@1TickC', from, every: 5, deleted: 1 });
    const others = await schedule({ contract: '@1TickC', from, every: 5, keyId: 12345n });
    await advanceTo(from + 1);
    const calls = await delayedCalls(from);
    expect(calls.filter((call) => [low, high, deleted, others].includes(call))).toEqual([high, low]);
    expect(await ticks('TickC')).toEqual([from]);
    expect(await ticks('TickD')).toEqual([from]);
    expect(await delayedRow(deleted)).toMatchObject({ counter: '0' });
    expect(await delayedRow(others)).toMatchObject({ counter: '0' });
  });

  it('is taken back with its block by a rollback, and called again when the block is made again', async () => {
    const from = nextMultiple((await height()) + 2, 4);
    const id = await schedule({ contract: '@1TickA', from, every: 4, limit: 1 });
    await advanceTo(from + 1);
    expect(await delayedCalls(from)).toContain(id);
    const ticked = (await ticks('TickA')).filter((block) => block === from);
    expect(ticked).toEqual([from]);
    // Back to two blocks before it: the next block is not due, so nothing makes it before we look.
    const top = await height();
    const undone = await node.client.rpc('admin.rollbackBlocks', [top - from + 2, true]);
    expect(Number(undone.max_block_id)).toBe(from - 2);
    expect(await height()).toBe(from - 2);
    expect((await ticks('TickA')).filter((block) => block === from)).toEqual([]);
    expect(await delayedRow(id)).toMatchObject({ counter: '0', block_id: String(from) });
    await advanceTo(from);
    expect(await delayedCalls(from)).toContain(id);
    expect((await ticks('TickA')).filter((block) => block === from)).toEqual([from]);
    expect(await delayedRow(id)).toMatchObject({ counter: '1', block_id: String(from) });
  });
});

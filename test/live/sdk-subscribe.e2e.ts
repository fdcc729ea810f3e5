import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RootLiveGateway } from '../../src/live/live.gateway';
import { LiveSubscriptions } from '../../src/live/subscriptions.service';
import { IbaxClient, LiveConnectionError, type NewBlockPush, type TxStatusPush } from '../../src/sdk';
import { freePort } from '../support/child-node';
import { useTestNode, type TestNode } from '../support/node';
import { sleep } from '../support/wire';

/**
 * The SDK's subscriptions (`IbaxClient.subscribe`) against a real node: pushes through the async iterator
 * and through `onPush`, one shared WebSocket connection per client that carries the session and closes
 * once its last subscription ends, txStatus ending by itself, and a lost connection reported.
 */
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let founder: IbaxClient;

/** Connections the node holds on `ws://…/`, and subscriptions it serves. */
const connections = () => node.app.get(RootLiveGateway).connectionCount;
const subscriptions = () => node.app.get(LiveSubscriptions).count;

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > timeoutMs) throw new Error(`${what}: not in ${timeoutMs} ms`);
    await sleep(20);
  }
}

let parameter = 0;
/** A signed NewParameter call (a fresh name: it lands; a name used before: it fails in the block). */
function newParameter(name = `sdk_live_${++parameter}`, value = '1') {
  return founder.buildCall(node.founderKey, 'NewParameter', { Name: name, Value: value, Conditions: 'true' });
}

/** Clients of the test under way, closed after it whatever happened (each holds a connection). */
const clients: IbaxClient[] = [];
function newClient(): IbaxClient {
  const made = new IbaxClient(node.url, founder.crypto);
  clients.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((made) => made.close()));
  await until(() => connections() === 0, 'every connection closed');
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

beforeAll(async () => {
  node = running.node;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
});

describe('IbaxClient.subscribe', () => {
  it('iterates over new blocks, and leaving the loop unsubscribes and closes the connection', async () => {
    const client = newClient();
    const blocks = await client.subscribe('newBlocks');
    expect(blocks.id).toMatch(/^0x[0-9a-f]{32}$/);
    expect(connections()).toBe(1);
    const tx = await newParameter();
    await founder.sendTransactions([tx.bytes]);
    const { [hex(tx.hash)]: status } = await founder.waitForTransactions([hex(tx.hash)]);
    const seen: NewBlockPush[] = [];
    for await (const block of blocks) {
      seen.push(block);
      if (block.block_id >= Number(status.blockid)) break;
    }
    const last = seen.at(-1)!;
    expect(last).toEqual({
      block_id: Number(status.blockid),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      time: expect.any(Number),
      tx_count: 1,
    });
    expect(last.hash).toBe((await founder.rpc('ibax.getBlockInfo', [last.block_id])).hash);
    expect(await blocks.ended).toBe('unsubscribed');
    await until(() => connections() === 0, 'the connection closed');
    expect(subscriptions()).toBe(0);
  });

  it('shares one connection between subscriptions; txStatus pushes each outcome once, then ends by itself', async () => {
    const client = newClient();
    const [first, second] = [await newParameter(), await newParameter()];
    // A twin of the second call (same name) lands first: the first call lands, the second fails.
    const twin = await newParameter(`sdk_live_${parameter}`, '2');
    await founder.waitForTransactions(await founder.sendTransactions([twin.bytes]));
    const hashes = [hex(first.hash), hex(second.hash)];
    const blocks: NewBlockPush[] = [];
    const statuses: TxStatusPush[] = [];
    const [blockSubscription, txSubscription] = await Promise.all([
      client.subscribe('newBlocks', { onPush: (block) => blocks.push(block) }),
      client.subscribe('txStatus', {
        hashes: hashes.map((hash) => hash.toUpperCase()),
        onPush: (status) => statuses.push(status),
      }),
    ]);
    expect(connections()).toBe(1);
    await founder.sendTransactions([first.bytes, second.bytes]);
    expect(await txSubscription.ended).toBe('settled');
    expect(statuses.map((status) => status.hash).sort()).toEqual([...hashes].sort());
    const landed = statuses.find((status) => status.hash === hashes[0])!;
    expect(landed).toMatchObject({ blockid: expect.stringMatching(/^[1-9]\d*$/), penalty: 0 });
    expect(landed.errmsg).toBeUndefined();
    expect(statuses.find((status) => status.hash === hashes[1])!.errmsg?.error).toContain(
      `sdk_live_${parameter}`,
    );
    await until(() => blocks.some((block) => block.block_id === Number(landed.blockid)), 'its block');
    // The txStatus subscription is taken off the node; the connection stays for the other one.
    await until(() => subscriptions() === 1, 'txStatus unsubscribed');
    expect(connections()).toBe(1);
    await blockSubscription.unsubscribe();
    expect(await blockSubscription.ended).toBe('unsubscribed');
    await until(() => connections() === 0, 'the connection closed');
  });

  it('pushes a transaction settled before the subscription at once', async () => {
    const { hash } = await founder.call(node.founderKey, 'NewParameter', {
      Name: `sdk_live_${++parameter}`,
      Value: '1',
      Conditions: 'true',
    });
    const client = newClient();
    const pushes: TxStatusPush[] = [];
    for await (const status of await client.subscribe('txStatus', { hashes: [hash] })) pushes.push(status);
    expect(pushes).toEqual([expect.objectContaining({ hash, blockid: expect.any(String) })]);
  });

  it("sends the client's session: notifications of a logged-in client, refused without one", async () => {
    const anonymous = newClient();
    await expect(anonymous.subscribe('notifications')).rejects.toMatchObject({ code: -32014 });
    await until(() => connections() === 0, 'the refused connection closed');

    const client = newClient();
    const session = await client.login(randomBytes(32).toString('hex'));
    const counts = await client.subscribe('notifications');
    const { hash } = await founder.call(node.founderKey, 'NewContract', {
      ApplicationId: 1,
      Value: `contract SdkNotify {\n data { Account string }\n action { CallContract("@1NotificationsSend", {"Recipient": $Account, "Header": "hi"}) }\n}`,
      Conditions: 'true',
    });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const { status } = await founder.call(node.founderKey, 'SdkNotify', { Account: session.account });
    expect(status.errmsg).toBeUndefined();
    for await (const push of counts) {
      expect(push).toEqual([{ ecosystem: '1', role_id: '0', count: 1 }]);
      break;
    }
  });

  it('close() ends every subscription and closes the connection cleanly', async () => {
    const client = newClient();
    const blocks = await client.subscribe('newBlocks');
    const iteration = (async () => {
      let count = 0;
      for await (const _block of blocks) count++;
      return count;
    })();
    await client.close();
    expect(await blocks.ended).toBe('closed');
    expect(await iteration).toBe(0);
    await until(() => connections() === 0, 'the connection closed');
    // A later subscription opens a new connection.
    const again = await client.subscribe('newBlocks');
    expect(connections()).toBe(1);
    await again.unsubscribe();
    await until(() => connections() === 0, 'the connection closed');
  });

  it('reports a connection the node closes, and one it cannot open', async () => {
    const client = newClient();
    const blocks = await client.subscribe('newBlocks');
    const iteration = (async () => {
      for await (const _block of blocks) {
        // waits
      }
    })();
    // What the node does to its connections when it stops.
    node.app.get(RootLiveGateway).onApplicationShutdown();
    await expect(blocks.ended).rejects.toThrow('the node closed the connection (1001 the node is stopping)');
    await expect(iteration).rejects.toThrow(/1001/);

    const nowhere = new IbaxClient(`http://127.0.0.1:${await freePort()}`);
    const refused = nowhere.subscribe('newBlocks');
    await expect(refused).rejects.toBeInstanceOf(LiveConnectionError);
    await expect(refused).rejects.toThrow(/^cannot open ws:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED$/);
  });
});

import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { IbaxClient } from '../../src/sdk';
import { parseExactJson } from '../../src/sdk/client';
import { useTestNode, type TestNode } from '../support/node';
import { sleep } from '../support/wire';

/**
 * JSON-RPC over WebSocket on the node's port, with subscriptions: every method callable over the socket,
 * `newBlocks`, `txStatus` and `notifications` pushed as JSON-RPC notifications, unsubscribe, the session
 * from the opening request, and the per-connection limits (size, rate, subscriptions) answered with errors.
 */
const running = useTestNode({
  env: {
    BLOCK_SLOT_MS: '200',
    WS_MESSAGE_SIZE: '4096',
    WS_MESSAGES_PER_SECOND: '20',
    WS_SUBSCRIPTIONS_LIMIT: '3',
  },
});
let node: TestNode;
let founder: IbaxClient;

/** A socket that collects every message it receives. */
async function connect(path = '/', headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${node.url.replace('http', 'ws')}${path}`, { headers });
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(parseExactJson(data.toString())));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  return {
    socket,
    messages,
    async call(method: string, params: unknown = []) {
      const id = nextId++;
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return waitFor(() => messages.find((message) => message.id === id));
    },
    pushes(subscription: string) {
      return messages.filter((message) => message.params?.subscription === subscription);
    },
  };
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 20) {
    const found = find();
    if (found !== undefined) return found;
    await sleep(20);
  }
  throw new Error('nothing arrived in time');
}

async function must(contract: string, args: Record<string, string | number>) {
  const { status, hash } = await founder.call(node.founderKey, contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return { hash, block: Number(status.blockid), result: status.result as string };
}

beforeAll(async () => {
  node = running.node;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
});

describe('JSON-RPC over WebSocket', () => {
  it('answers any method on / and /rpc, batches too, as over HTTP', async () => {
    for (const path of ['/', '/rpc']) {
      const ws = await connect(path);
      const answer = await ws.call('ibax.maxBlockId');
      expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: await founder.rpc('ibax.maxBlockId') });
      ws.socket.send(
        JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'net.status' },
          { jsonrpc: '2.0', id: 'b', method: 'rpc.nope' },
        ]),
      );
      const batch = await waitFor(() => ws.messages.find((message) => Array.isArray(message)));
      expect(batch.map((item: { id: string }) => item.id)).toEqual(['a', 'b']);
      expect(batch[1].error.code).toBe(-32601);
      ws.socket.close();
    }
  });

  it('pushes each new block to a newBlocks subscription, until unsubscribed', async () => {
    const ws = await connect();
    const { result: id } = await ws.call('ibax.subscribe', ['newBlocks']);
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    const { block } = await must('NewParameter', { Name: 'ws_first', Value: '1', Conditions: 'true' });
    const push = await waitFor(() =>
      ws.pushes(id).find((message) => message.params.result.block_id === block),
    );
    expect(push).toEqual({
      jsonrpc: '2.0',
      method: 'ibax.subscription',
      params: {
        subscription: id,
        result: {
          block_id: block,
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          time: expect.any(Number),
          tx_count: 1,
        },
      },
    });
    const stored = await founder.rpc('ibax.getBlockInfo', [block]);
    expect(push.params.result.hash).toBe(stored.hash);
    expect((await ws.call('ibax.unsubscribe', [id])).result).toBe(true);
    expect((await ws.call('ibax.unsubscribe', [id])).result).toBe(false);
    const seen = ws.pushes(id).length;
    await must('NewParameter', { Name: 'ws_second', Value: '1', Conditions: 'true' });
    await sleep(300);
    expect(ws.pushes(id).length).toBe(seen);
    ws.socket.close();
  });

  it('tells a txStatus subscriber once when its transaction reaches a block, and under chain. too', async () => {
    const ws = await connect();
    const call = await founder.buildCall(node.founderKey, 'NewParameter', {
      Name: 'ws_tx',
      Value: '1',
      Conditions: 'true',
    });
    const hash = Buffer.from(call.hash).toString('hex');
    const { result: id } = await ws.call('chain.subscribe', ['txStatus', [hash]]);
    await founder.sendTransactions([call.bytes]);
    const push = await waitFor(() => ws.pushes(id)[0]);
    expect(push.method).toBe('chain.subscription');
    expect(push.params.result).toMatchObject({
      hash,
      blockid: expect.stringMatching(/^\d+$/),
      result: expect.any(String),
    });
    await sleep(500);
    expect(ws.pushes(id)).toHaveLength(1);
    ws.socket.close();
  });

  it("pushes a logged-in caller's notification counts when a block changes them", async () => {
    const key = randomBytes(32).toString('hex');
    const client = new IbaxClient(node.url, founder.crypto);
    const session = await client.login(key);
    await must('NewContract', {
      ApplicationId: 1,
      Value: `contract WsNotify {\n data { Account string }\n action { CallContract("@1NotificationsSend", {"Recipient": $Account, "Header": "hi"}) }\n}`,
      Conditions: 'true',
    });
    const anonymous = await connect();
    expect((await anonymous.call('ibax.subscribe', ['notifications'])).error.code).toBe(-32014);
    const ws = await connect('/', { Authorization: `Bearer ${session.token}` });
    const { result: id } = await ws.call('ibax.subscribe', ['notifications']);
    await must('WsNotify', { Account: session.account });
    const push = await waitFor(() => ws.pushes(id)[0]);
    expect(push.params.result).toEqual([{ ecosystem: '1', role_id: '0', count: 1 }]);
    ws.socket.close();
    anonymous.socket.close();
  });

  it('answers bad frames, oversized messages, floods and too many subscriptions with errors, and stays up', async () => {
    const ws = await connect();
    ws.socket.send('{');
    expect(
      (await waitFor(() => ws.messages.find((message) => message.error?.code === -32700))).id,
    ).toBeNull();
    ws.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await waitFor(() => ws.messages.find((message) => /text messages/.test(message.error?.message ?? '')));
    ws.socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ibax.getVersion', params: ['x'.repeat(5000)] }),
    );
    await waitFor(() =>
      ws.messages.find((message) => /exceeds the limit of 4096/.test(message.error?.message ?? '')),
    );
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ws.call('ibax.subscribe', ['newBlocks'])).result);
    expect((await ws.call('ibax.subscribe', ['newBlocks'])).error.message).toMatch(
      /too many subscriptions .*limit 3/,
    );
    expect((await ws.call('ibax.subscribe', ['sideways'])).error.code).toBe(-32602);
    await sleep(1100);
    for (let i = 0; i < 30; i++)
      ws.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'net.status' }));
    await waitFor(() =>
      ws.messages.find((message) => /more than 20 messages a second/.test(message.error?.message ?? '')),
    );
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    ws.socket.close();
    const again = await connect();
    expect((await again.call('ibax.maxBlockId')).result).toBeGreaterThan(0);
    again.socket.close();
  });

  it('over HTTP, subscribe says subscriptions need a WebSocket', async () => {
    const answer = await founder.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.subscribe',
      params: ['newBlocks'],
    });
    expect(answer.body.error).toEqual({
      code: -32000,
      message: expect.stringMatching(/subscribe over a WebSocket/),
    });
  });
});

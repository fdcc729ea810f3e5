import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IbaxClient, buildContractCall } from '../../src/sdk';
import { expectWholeChain } from '../support/chain-check';
import { freePort, killChildNode, startChildNode, type ChildNode } from '../support/child-node';
import { createTestDatabase, newDataDir, startNode, type TestDatabase } from '../support/node';
import { sleep } from '../support/wire';

let database: TestDatabase;
let dataDir: string;
let child: ChildNode | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = newDataDir();
});

afterAll(async () => {
  await killChildNode(child);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A request whose head and all but the last byte of its body are sent: the server holds it open. */
function startHeldRequest(port: number, path: string, token: string, body: string) {
  const socket: Socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body.slice(0, -1),
  );
  return {
    /** Sends the last byte and resolves with the status and body of the answer. */
    finish: async (): Promise<{ status: number; body: unknown }> => {
      socket.end(body.slice(-1));
      await ended;
      const [head, payload] = answer.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), body: JSON.parse(payload) };
    },
  };
}

/** Whether a new TCP connection to the port is refused (a fresh socket, never a pooled keep-alive one). */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

it(
  'SIGTERM: stops admitting (503 E_STOPPING), finishes requests and the block under way, closes the database, exits 0; the restarted chain is whole',
  { timeout: 180_000 },
  async () => {
    const port = await freePort();
    child = await startChildNode({
      dataDir,
      databaseUrl: database.url,
      port,
      env: { BLOCK_SLOT_MS: '100', LOG_LEVEL: 'info' },
    });
    const founderKey = readFileSync(join(dataDir, 'founder.key'), 'utf8').trim();
    const client = new IbaxClient(child.url);
    await client.login(founderKey);
    const contract = await client.contract('NewParameter');
    let sequence = 0;
    const call = () =>
      buildContractCall(
        client.signer,
        founderKey,
        contract,
        { Name: `graceful_${sequence++}`, Value: '1', Conditions: 'true' },
        { networkId: client.networkId! },
      );

    // A transaction the node accepts and mines before the stop.
    const [first] = await client.sendTransactions([call().bytes]);
    expect(Number((await client.waitForTransactions([first]))[first].blockid)).toBeGreaterThan(1);

    // Load, so that the producer is at work when the signal comes.
    const accepted = new Set<string>([first]);
    let loading = true;
    const load = (async () => {
      while (loading) {
        try {
          const hashes = await client.sendTransactions(Array.from({ length: 5 }, () => call().bytes));
          hashes.forEach((hash) => accepted.add(hash));
        } catch {
          return; // refused (503) or the listener is closed: the stop has begun
        }
      }
    })();
    await sleep(500);

    const held = startHeldRequest(
      port,
      '/api/v2/sendTx',
      client.token!,
      `tx=${Buffer.from(call().bytes).toString('hex')}`,
    );
    await sleep(100);
    child.process.kill('SIGTERM');

    // The listener closes at once: a new connection is refused.
    let refused = false;
    for (let attempt = 0; attempt < 100 && !refused; attempt++) {
      refused = await connectionRefused(port);
      if (!refused) await sleep(20);
    }
    expect(refused, 'new connections are refused once the node stops').toBe(true);

    // A request under way is still answered, in the envelope: the node takes no new transaction.
    const answer = await held.finish();
    expect(answer).toEqual({
      status: 503,
      body: { error: 'E_STOPPING', msg: 'Network is stopping', params: [] },
    });

    expect(await child.exited).toEqual({ code: 0, signal: null });
    loading = false;
    await load;
    const log = child.output();
    expect(log).toMatch(/SIGTERM: stopping/);
    expect(log).toMatch(/stopped \(block under way finished: true, requests finished: true\)/);
    expect(accepted.size).toBeGreaterThan(5);

    // Restart on the same data: the chain is whole, and whatever was accepted but not mined is mined now.
    const node = await startNode({ dataDir, databaseUrl: database.url, env: { BLOCK_SLOT_MS: '100' } });
    try {
      const { mined } = await expectWholeChain(node, accepted);
      expect(mined).toBeGreaterThan(0);
      await node.client.login(founderKey);
      const statuses = await node.client.waitForTransactions([...accepted], { timeoutMs: 60_000 });
      for (const hash of accepted) {
        expect(statuses[hash].errmsg, hash).toBeUndefined();
        expect(Number(statuses[hash].blockid), hash).toBeGreaterThan(1);
      }
    } finally {
      await node.stop();
    }
  },
);

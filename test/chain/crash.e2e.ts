import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IbaxClient, buildContractCall } from '../../src/sdk';
import { expectWholeChain } from '../support/chain-check';
import { freePort, startChildNode } from '../support/child-node';
import { createTestDatabase, newDataDir, startNode, type TestDatabase } from '../support/node';
import { sleep } from '../support/wire';

/** Kills of a producing node; each at a random moment of its work. */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);

let database: TestDatabase;
let dataDir: string;
let child: ChildProcess | undefined;

/** The real node as its own process, so that SIGKILL hits it and nothing else. */
async function startProcess(port: number): Promise<string> {
  const started = await startChildNode({
    dataDir,
    databaseUrl: database.url,
    port,
    env: { BLOCK_SLOT_MS: '100' },
  });
  child = started.process;
  return started.url;
}

async function kill(): Promise<void> {
  // A process killed by a signal has a signalCode and no exitCode.
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = newDataDir();
});

afterAll(async () => {
  await kill();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * On both databases: a PostgreSQL server of TEST_DATABASE_URL, and the embedded one, whose server the
 * killed node leaves to shut itself down (or to the next start to stop) while the next start takes over.
 */
it(
  `keeps a consistent chain and every accepted transaction across ${KILLS} SIGKILLs`,
  { timeout: 600_000 },
  async () => {
    const accepted = new Set<string>();
    let sequence = 0;
    const port = await freePort();
    let founderKey = '';
    for (let round = 0; round < KILLS; round++) {
      const url = await startProcess(port);
      founderKey ||= readFileSync(join(dataDir, 'founder.key'), 'utf8').trim();
      const client = new IbaxClient(url);
      await client.login(founderKey);
      const contract = await client.contract('NewParameter');
      // Load: batches of calls, each a distinct parameter, until the kill lands at a random moment.
      const killAt = Date.now() + 150 + Math.floor(Math.random() * 1200);
      const load = (async () => {
        while (Date.now() < killAt + 500) {
          const txs = Array.from({ length: 5 }, () =>
            buildContractCall(
              client.signer,
              founderKey,
              contract,
              { Name: `crash_${sequence++}`, Value: '1', Conditions: 'true' },
              { networkId: client.networkId! },
            ),
          );
          try {
            const hashes = await client.sendTransactions(txs.map((tx) => tx.bytes));
            hashes.forEach((hash) => accepted.add(hash));
          } catch {
            return; // the node is gone: whatever was in flight is not counted as accepted
          }
        }
      })();
      await sleep(Math.max(0, killAt - Date.now()));
      await kill();
      await load;
    }

    // A last start on the same data: the chain must be whole and every accepted transaction accounted for.
    const node = await startNode({ dataDir, databaseUrl: database.url, env: { BLOCK_SLOT_MS: '100' } });
    try {
      const { height, mined } = await expectWholeChain(node, accepted);
      expect(height).toBeGreaterThan(KILLS);
      expect(accepted.size).toBeGreaterThan(KILLS * 5);
      expect(mined).toBeGreaterThan(0);
    } finally {
      await node.stop(true);
    }
  },
);

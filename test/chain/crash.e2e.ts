import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseBlock, verifyBlockHashes } from '../../src/chain/codec';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { asBuffer, DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildContractCall } from '../../src/sdk';
import { createTestDatabase, newDataDir, startNode, type TestDatabase } from '../support/node';
import { sleep } from '../support/wire';

/** Kills of a producing node; each at a random moment of its work. */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);

let database: TestDatabase;
let dataDir: string;
let child: ChildProcess | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The real node as its own process (`src/main.ts`), so that SIGKILL hits it and nothing else. */
async function startProcess(port: number): Promise<string> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'error',
    BLOCK_SLOT_MS: '100',
    DATABASE_URL: database.url ?? '',
  };
  child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return url;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode} while starting`);
    await sleep(100);
  }
  throw new Error('the node did not become ready');
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
 * PostgreSQL only: the embedded database (PGlite 0.5) does not survive SIGKILL — after a kill, even of an
 * idle node, its WAL no longer holds the checkpoint its control file names and it refuses to start
 * ("could not locate a valid checkpoint record"). The README says so; a node that must survive kills
 * runs on a PostgreSQL server, which CI gives this test.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);

it.runIf(onServer)(
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
      const db = node.app.get(DatabaseService);
      const crypto = node.app.get(NodeCrypto);
      const tip = await db.one<{ block_id: string; hash: unknown }>(
        `SELECT "block_id", "hash" FROM "info_block"`,
      );
      const last = await db.one<{ id: string; hash: unknown }>(
        `SELECT "id", "hash" FROM "block_chain" ORDER BY "id" DESC LIMIT 1`,
      );
      expect(tip!.block_id).toBe(last!.id);
      expect(asBuffer(tip!.hash).equals(asBuffer(last!.hash))).toBe(true);
      expect(Number(last!.id)).toBeGreaterThan(KILLS);

      const blocks = await db.query<{ id: string; tx: number; data: unknown; logged: string }>(
        `SELECT "b"."id", "b"."tx", "b"."data", (SELECT count(*) FROM "log_transactions" "l" WHERE "l"."block" = "b"."id") AS "logged"
         FROM "block_chain" "b" ORDER BY "b"."id"`,
      );
      for (const block of blocks) {
        const parsed = parseBlock(asBuffer(block.data));
        verifyBlockHashes(parsed, (data) => crypto.hasher.hash(data));
        expect(parsed.txs.length, `transactions of block ${block.id}`).toBe(Number(block.tx));
        expect(Number(block.logged), `log of block ${block.id}`).toBe(Number(block.tx));
      }

      const fates = await db.query<{ hash: unknown; block_id: string; error: string; waiting: boolean }>(
        `SELECT "s"."hash", "s"."block_id", "s"."error",
              EXISTS (SELECT 1 FROM "transactions" "t" WHERE "t"."hash" = "s"."hash") AS "waiting"
         FROM "transactions_status" "s"`,
      );
      const byHash = new Map(fates.map((fate) => [asBuffer(fate.hash).toString('hex'), fate]));
      let mined = 0;
      for (const hash of accepted) {
        const fate = byHash.get(hash);
        expect(fate, `status of accepted ${hash}`).toBeDefined();
        const inBlock = BigInt(fate!.block_id) > 0n;
        if (inBlock) mined++;
        // The status's text is the contract's result once mined, and empty while waiting: never an error.
        if (!inBlock) {
          expect(fate!.waiting, `${hash} is in a block or still waiting`).toBe(true);
          expect(fate!.error, `${hash} failed`).toBe('');
        }
      }
      expect(accepted.size).toBeGreaterThan(KILLS * 5);
      expect(mined).toBeGreaterThan(0);
    } finally {
      await node.stop(true);
    }
  },
);

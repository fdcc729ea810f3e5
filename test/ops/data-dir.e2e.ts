import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, killChildNode, startChildNode, type ChildNode } from '../support/child-node';
import { newDataDir } from '../support/node';

/**
 * One node per data directory, on the embedded database (the default these tests are about; a PostgreSQL
 * server's database may be shared by several processes, one of which makes blocks). Run once, in the
 * embedded pass of the suite.
 */
const embedded = !process.env.TEST_DATABASE_URL;

const dirs: string[] = [];
const children: ChildNode[] = [];

afterAll(async () => {
  for (const child of children) await killChildNode(child);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The node's start as `npm start` runs it, to its end: exit code and what it wrote on stderr. */
function startToEnd(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/start.cjs'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    }),
  );
}

async function height(url: string): Promise<number> {
  const answer = (await (await fetch(`${url}/api/v2/maxblockid`)).json()) as { max_block_id: number };
  return answer.max_block_id;
}

describe.runIf(embedded)('one node per data directory', () => {
  it('refuses a second node on a data directory in use, with one line naming DATA_DIR and the holder; the first goes on', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const first = await startChildNode({ dataDir, databaseUrl: undefined, port: await freePort() });
    children.push(first);
    const before = await height(first.url);

    const holder = JSON.parse(readFileSync(join(dataDir, 'node.lock'), 'utf8')) as {
      host: string;
      since: string;
    };
    const second = await startToEnd({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `DATA_DIR=${JSON.stringify(dataDir)}: in use by another node (process ${first.process.pid} on ` +
        `${holder.host}, since ${holder.since}); stop it first, or give this node a DATA_DIR of its own\n`,
    );

    // The first node is unharmed: ready, its lock and its database its own, its chain going on.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect(JSON.parse(readFileSync(join(dataDir, 'node.lock'), 'utf8')).pid).toBe(first.process.pid);
    const rpc = await fetch(first.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ibax.maxBlockId' }),
    });
    expect(((await rpc.json()) as { result: number }).result).toBeGreaterThanOrEqual(before);
  }, 120_000);

  it('takes over the lock and the database of a node killed with SIGKILL', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const port = await freePort();
    const killed = await startChildNode({ dataDir, databaseUrl: undefined, port });
    const before = await height(killed.url);
    killed.process.kill('SIGKILL');
    await killed.exited;
    // Its lock is left behind, naming a process that is gone.
    expect(JSON.parse(readFileSync(join(dataDir, 'node.lock'), 'utf8')).pid).toBe(killed.process.pid);

    const restarted = await startChildNode({ dataDir, databaseUrl: undefined, port });
    children.push(restarted);
    expect(await height(restarted.url)).toBeGreaterThanOrEqual(before);
    expect(JSON.parse(readFileSync(join(dataDir, 'node.lock'), 'utf8')).pid).toBe(restarted.process.pid);
    await killChildNode(restarted);
  }, 120_000);

  it('says a taken PORT before it writes anything', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const dataDir = join(newDataDir(), 'not-yet');
    dirs.push(dataDir);
    try {
      const start = await startToEnd({ DATA_DIR: dataDir, PORT: String(port) });
      expect(start).toEqual({
        code: 1,
        stderr: `PORT=${port}: 127.0.0.1:${port} is already in use (EADDRINUSE)\n`,
      });
      expect(existsSync(dataDir), 'the data directory was not created').toBe(false);
    } finally {
      taken.close();
    }
  }, 60_000);

  it('will not start a second chain beside one of the earlier embedded engine (PGlite, in pgdata)', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    mkdirSync(join(dataDir, 'pgdata'));
    writeFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    const start = await startToEnd({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(start).toEqual({
      code: 1,
      stderr:
        `DATA_DIR=${JSON.stringify(dataDir)}: ${join(dataDir, 'pgdata')} holds a chain of the earlier embedded ` +
        'database (PGlite), which this version cannot open; move that folder away to start a new chain here, ' +
        'or run the earlier version to keep it\n',
    });
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { freePort, isRunning } from '../support/child-node';
import { newDataDir } from '../support/node';
import { sleep } from '../support/wire';

/**
 * `npm run devnet` as a developer runs it, on the embedded database (once, in the embedded pass): two
 * nodes, then the command killed in ways that give it no chance to stop them itself.
 */
const embedded = !process.env.TEST_DATABASE_URL;

let devnet: ChildProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (devnet?.pid) {
    try {
      process.kill(-devnet.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  devnet = undefined;
  // A node left behind by a failed test still holds its directory: stop what its lock names.
  for (const node of dir ? nodePids(dir) : []) {
    try {
      process.kill(node, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The node processes (from their data directories' locks) and their PostgreSQL servers (postmaster.pid). */
function nodePids(devnetDir: string): number[] {
  const pids: number[] = [];
  for (const node of ['node0', 'node1']) {
    for (const file of ['node.lock', 'postgres/postmaster.pid']) {
      try {
        const text = readFileSync(join(devnetDir, node, file), 'utf8');
        pids.push(
          file === 'node.lock' ? (JSON.parse(text) as { pid: number }).pid : Number(text.split('\n')[0]),
        );
      } catch {
        // not there (yet, or any more)
      }
    }
  }
  return pids;
}

/** Starts the devnet through npm, as the README says, and waits for its lines on stdout. */
async function startDevnet(basePort: number, followers = 0): Promise<{ npm: ChildProcess; lines: string[] }> {
  dir = join(newDataDir(), 'devnet');
  const npm = spawn(
    'npm',
    [
      'run',
      '-s',
      'devnet',
      '--',
      '--nodes',
      '2',
      '--base-port',
      String(basePort),
      '--followers',
      String(followers),
      '--slot-ms',
      '1000',
      '--dir',
      dir,
    ],
    {
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  devnet = npm;
  let stdout = '';
  let stderr = '';
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  for (let attempt = 0; attempt < 1200 && !stdout.includes('founder '); attempt++) {
    if (npm.exitCode !== null) throw new Error(`devnet exited with ${npm.exitCode}: ${stderr}`);
    await sleep(100);
  }
  return { npm, lines: stdout.trim().split('\n') };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(embedded && process.platform === 'linux')('npm run devnet', () => {
  it('names the chain’s founder key (node 0’s); a node that took its genesis from node 0 has none; a follower is not listed', async () => {
    const basePort = await freePort();
    const { npm, lines } = await startDevnet(basePort, 1);
    const url = (i: number) => `http://127.0.0.1:${basePort + i}`;
    expect(lines).toEqual([
      `node 0 ${url(0)} ${join(dir!, 'node0')}`,
      `node 1 ${url(1)} ${join(dir!, 'node1')}`,
      `follower 0 ${url(2)} ${join(dir!, 'follower0')}`,
      `founder ${join(dir!, 'node0', 'founder.key')}`,
    ]);
    // Node 0 lists node 1 in honor_nodes once it answers; never the follower.
    const listed = async () =>
      (
        (await (await fetch(`${url(0)}/api/v2/network`)).json()) as { honor_nodes: { api_address: string }[] }
      ).honor_nodes
        .map((node) => node.api_address)
        .sort();
    await expect.poll(listed, { timeout: 60_000 }).toEqual([url(0), url(1)]);
    expect(existsSync(join(dir!, 'follower0', 'founder.key'))).toBe(false);
    expect(existsSync(join(dir!, 'node1', 'founder.key'))).toBe(false);
    // The key printed is the chain's founder: it owns ecosystem 1, at either node.
    const founderKey = readFileSync(join(dir!, 'node0', 'founder.key'), 'utf8').trim();
    const client = new IbaxClient(url(1));
    const login = await client.login(founderKey);
    expect(login.raw.isowner).toBe(true);

    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
  }, 240_000);

  it('leaves no node or database process behind when npm is killed with SIGKILL', async () => {
    const basePort = await freePort();
    const { npm } = await startDevnet(basePort);
    const pids = nodePids(dir!);
    expect(pids).toHaveLength(4);
    expect(pids.every(isRunning)).toBe(true);

    npm.kill('SIGKILL');
    for (let attempt = 0; attempt < 300 && pids.some(isRunning); attempt++) await sleep(100);
    expect(pids.filter(isRunning), 'processes left running').toEqual([]);
    expect(await answers(`http://127.0.0.1:${basePort}`)).toBe(false);
  }, 240_000);

  it('refuses to start on a port in use, before it starts any node', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    dir = join(newDataDir(), 'devnet');
    try {
      const run = spawn(
        'npm',
        ['run', '-s', 'devnet', '--', '--nodes', '2', '--base-port', String(port - 1), '--dir', dir],
        { env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      run.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise((resolve) => run.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(
        `devnet: port ${port} (node 1) is in use: another devnet or node runs there; stop it, or choose ` +
          'other ports with --base-port\n',
      );
      expect(existsSync(dir)).toBe(false);
    } finally {
      taken.close();
    }
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, isRunning } from '../support/child-node';
import { createTestDatabase, newDataDir, type TestDatabase } from '../support/node';
import { sleep } from '../support/wire';

/**
 * `npm start` as a supervisor runs it: the supervisor knows only npm's process, signals it, and reads its
 * exit code. The node must get the signal (not be left serving under PID 1) and its code must be npm's.
 */

let npm: ChildProcess | undefined;
let database: TestDatabase | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  // npm leads its own process group (detached): whatever a failed test left in it goes with it.
  if (npm?.pid) {
    try {
      process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  npm = undefined;
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The processes under `pid`, from the kernel's list of each task's children. */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The program a process runs and its arguments (argv[0] is the program as it was started). */
function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** A node process running scripts/start.cjs (not the shell whose command line names it). */
function isStartScript(pid: number): boolean {
  const [program, script] = commandLine(pid);
  return /(^|\/)node$/.test(program ?? '') && script === 'scripts/start.cjs';
}

async function waitForReady(url: string, process: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (process.exitCode !== null || process.signalCode !== null) {
      throw new Error(`npm start exited (${process.exitCode ?? process.signalCode}) before /readyz answered`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('the node did not become ready');
}

/** `npm <args>` in a process group of its own, on a fresh database and data directory; once ready. */
async function startUnderNpm(args: string[]) {
  database = await createTestDatabase();
  dataDir = newDataDir();
  const port = await freePort();
  const started = spawn('npm', args, {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      DATABASE_URL: database.url ?? '',
    },
    stdio: 'ignore',
    detached: true,
  });
  npm = started;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    started.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(url, started);
  return { started, exited, url };
}

describe.skipIf(process.platform !== 'linux')('npm start under a supervisor', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the npm process stops the node, and npm exits with the node’s code (0)',
    { timeout: 120_000 },
    async (signal) => {
      const { started, exited, url } = await startUnderNpm(['start']);
      const nodes = descendants(started.pid!).filter(isStartScript);
      expect(nodes, 'the node runs under npm').toHaveLength(1);

      started.kill(signal);

      expect(await exited).toEqual({ code: 0, signal: null });
      expect(isRunning(nodes[0]), `the node (pid ${nodes[0]}) is gone`).toBe(false);
      await expect(fetch(`${url}/readyz`)).rejects.toThrow();
    },
  );
});

describe.skipIf(process.platform !== 'linux')('npm run start:dev under a supervisor', () => {
  it(
    'SIGTERM to the npm process stops the watcher, the node and (embedded) its database',
    { timeout: 180_000 },
    async () => {
      const { started, exited, url } = await startUnderNpm(['run', 'start:dev']);
      // The watcher (nest), its type checker, the node and (embedded) the node's PostgreSQL server.
      const below = descendants(started.pid!);
      expect(below.some((pid) => commandLine(pid).some((arg) => arg.endsWith('.nest/main')))).toBe(true);

      started.kill('SIGTERM');
      await exited;
      for (let attempt = 0; attempt < 100 && below.some(isRunning); attempt++) await sleep(100);
      expect(
        below.filter(isRunning).map((pid) => commandLine(pid).join(' ')),
        'processes left running',
      ).toEqual([]);
      await expect(fetch(`${url}/readyz`)).rejects.toThrow();
    },
  );
});

/** What the benchmarks share: a fresh database, the node as a child process, its memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The baseline every request-path number is a share of: a bare Express 5 hello-world, its own process. */
export function startHelloWorld(port: number): ChildProcess {
  const script = `
const express = require('express');
const app = express();
app.get('/', (_req, res) => { res.json({ hello: 'world' }); });
app.listen(${port}, '127.0.0.1');
`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A fresh database on the server of BENCH_DATABASE_URL, or none (the node's embedded database). */
export async function freshDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) return { drop: async () => {} };
  const name = `ibax_bench_${process.pid}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface NodeProcess {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** Milliseconds from spawning to the first `/readyz` 200. */
  startMs: number;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the node (`npm start`'s scripts/start.cjs, or the built `dist/main.js`) as its own process and
 * waits until `/readyz` answers 200. NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles it;
 * NODE_LOG=<file> keeps its log.
 */
export async function startNodeProcess(options: {
  port: number;
  databaseUrl?: string;
  dataDir?: string;
  env?: Record<string, string>;
  /** Run the built node (`dist/main.js`, `npm run start:prod`) instead of `npm start`'s. */
  built?: boolean;
  /** Where the built node is (default `dist`). */
  builtDir?: string;
}): Promise<NodeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ibax-bench-'));
  const nodeArgs = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);
  // UNBUNDLED=1: the sources file by file through SWC's require hook, to compare with the bundle.
  const entry = options.built
    ? [join(options.builtDir ?? 'dist', 'main.js')]
    : process.env.UNBUNDLED
      ? ['-r', '@swc-node/register', 'src/main.ts']
      : ['scripts/start.cjs'];
  const started = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.NODE_LOG_LEVEL ?? 'warn',
      DATABASE_URL: options.databaseUrl ?? '',
      ...options.env,
    },
    stdio: ['ignore', process.env.NODE_LOG ? openSync(process.env.NODE_LOG, 'w') : 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async ({ keepData = false } = {}) => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // starting
    }
    if (child.exitCode !== null || i > 1200) {
      await stop();
      throw new Error('the node did not start');
    }
    await sleep(25);
  }
  return { url, process: child, dataDir, startMs: Date.now() - started, stop };
}

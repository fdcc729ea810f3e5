/**
 * What the benchmarks share: a fresh database, the node as a child process, its memory and CPU, and the
 * chain load of `throughput.ts` and `network.ts` (funded accounts, TokensTransfer signed in advance,
 * offered at a rate, committed transactions counted on the chain).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { IbaxClient, buildCoinTransfer, buildContractCall } from '../src/sdk';

/**
 * The baselines every request-path number is a share of, in their own process: a bare Express 5
 * hello-world (GET /) and a bare JSON-RPC echo (POST / through `express.json()`, answering the call's id).
 */
export function startHelloWorld(port: number): ChildProcess {
  const script = `
const express = require('express');
const app = express();
app.get('/', (_req, res) => { res.json({ hello: 'world' }); });
app.post('/', express.json(), (req, res) => { res.json({ jsonrpc: '2.0', id: req.body.id, result: 1 }); });
app.listen(${port}, '127.0.0.1');
`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

/**
 * The same hello-world and echo answered by a bare NestJS application (`nest-hello-world.ts`): a reference for
 * what the framework the node is built on costs beside bare Express. Its errors are shown (a port in use).
 */
export function startNestHelloWorld(port: number): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'nest-hello-world.ts'), String(port)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** Resolves once `url` answers a GET; fails if `child` ends first or nothing answers within `timeoutMs`. */
export async function untilAnswering(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url}: its process ended with ${child.exitCode ?? child.signalCode}`);
    }
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url}: no answer within ${timeoutMs / 1000} s`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The middle value, or the mean of the middle two. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * Proportional memory (PSS) of a process and every process under it, in MB: the node with the embedded
 * PostgreSQL server it runs, each shared page counted once among the processes sharing it.
 */
export function treePssMb(pid: number): number {
  let kb = 0;
  const visit = (id: number) => {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      const children = readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').split(' ').filter(Boolean);
      for (const child of children) visit(Number(child));
    } catch {
      // the process ended meanwhile
    }
  };
  visit(pid);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The whole machine's CPU time so far (all cores), busy and in total, in clock ticks (/proc/stat). */
export function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait
  return { busy: total - fields[3] - fields[4], total };
}

/**
 * Waits until the machine is quiet (less than `busyShare` of its CPU busy over a second), `limitMs` at
 * most: what an earlier phase left running (PostgreSQL flushing its writes, a node exiting, the collector)
 * must not be counted against the next phase. Returns how long it waited and the last second's busy share.
 */
export async function settle(
  busyShare = 0.15,
  limitMs = 30_000,
): Promise<{ waitedMs: number; busy: number }> {
  const startedAt = Date.now();
  for (;;) {
    const before = machineCpu();
    await sleep(1000);
    const after = machineCpu();
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    if (busy < busyShare || Date.now() - startedAt >= limitMs) {
      return { waitedMs: Date.now() - startedAt, busy: Math.round(busy * 100) / 100 };
    }
  }
}

/**
 * A fresh database on the server of BENCH_DATABASE_URL, or none (the node's embedded database). `label`
 * tells apart the databases of one run (one per node).
 */
export async function freshDatabase(label?: string): Promise<{ url?: string; drop(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) return { drop: async () => {} };
  const name = `ibax_bench_${process.pid}${label ? `_${label}` : ''}`;
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
  /** Where its log goes (default NODE_LOG; none when unset). */
  logFile?: string;
  /** The checkout to run it from (default this one): another commit's node, to compare in the same run. */
  checkout?: string;
}): Promise<NodeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ibax-bench-'));
  const nodeArgs = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);
  // UNBUNDLED=1: the sources file by file through SWC's require hook, to compare with the bundle.
  const entry = options.built
    ? [join(options.builtDir ?? 'dist', 'main.js')]
    : process.env.UNBUNDLED
      ? ['-r', '@swc-node/register', 'src/main.ts']
      : ['scripts/start.cjs'];
  const logFile = options.logFile ?? process.env.NODE_LOG;
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
    stdio: ['ignore', logFile ? openSync(logFile, 'w') : 'ignore', 'inherit'],
    cwd: options.checkout,
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

// ---------------------------------------------------------------- the chain under load (throughput, network)

/** A sendTx the node refused because its queue is full (503 E_BUSY): the transactions were not taken. */
export function isBusy(error: unknown): boolean {
  const answer = (error as { answer?: { status: number; body?: { error?: string } } }).answer;
  return answer?.status === 503 && answer.body?.error === 'E_BUSY';
}

/** The first request after a pause may meet a keep-alive socket the node just closed: up to 3 retries. */
export async function retried<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 3 || isBusy(error)) throw error;
    }
  }
}

/** Transactions in blocks on a node's chain (`metrics/transactions`): committed throughput is read here. */
export function chainTxCount(client: IbaxClient): Promise<number> {
  return retried(async () => Number((await client.get('/api/v2/metrics/transactions')).body.count));
}

/** The founder of a fresh chain, logged in: its key is in the data directory of the node that made the genesis. */
export async function founderOf(url: string, dataDir: string): Promise<{ client: IbaxClient; key: string }> {
  const key = readFileSync(join(dataDir, 'founder.key'), 'utf8').trim();
  const client = new IbaxClient(url);
  await client.login(key);
  return { client, key };
}

export interface FundedAccounts {
  keys: string[];
  accounts: string[];
}

/**
 * `count` fresh keys, registered by their first logins (NewUser blocks, 50 at a time) and funded: the
 * founder's genesis output to its account (TransferSelf), then a TokensTransfer to every account.
 */
export async function fundedAccounts(
  founder: { client: IbaxClient; key: string },
  count: number,
): Promise<FundedAccounts> {
  const { client, key } = founder;
  const keys = Array.from({ length: count }, () => randomBytes(32).toString('hex'));
  const accounts: string[] = [];
  for (let start = 0; start < keys.length; start += 50) {
    const logins = keys
      .slice(start, start + 50)
      .map(async (one) => (await new IbaxClient(client.baseUrl).login(one)).account);
    accounts.push(...(await Promise.all(logins)));
  }
  const toAccount = buildCoinTransfer(
    client.signer,
    key,
    { transferSelf: { value: '4000000000000000000', source: 'UTXO', target: 'Account' } },
    { networkId: client.networkId! },
  );
  await client.waitForTransactions(await client.sendTransactions([toAccount.bytes]));
  const transfer = await client.contract('TokensTransfer');
  const funding = accounts.map((account, i) =>
    buildContractCall(
      client.signer,
      key,
      transfer,
      { Recipient: account, Amount: '1000000000000', Comment: `fund ${i}` },
      { networkId: client.networkId! },
    ),
  );
  for (let start = 0; start < funding.length; start += 200) {
    const hashes = await client.sendTransactions(funding.slice(start, start + 200).map((tx) => tx.bytes));
    await client.waitForTransactions(hashes, { timeoutMs: 120_000 });
  }
  return { keys, accounts };
}

/**
 * TokensTransfer of 1 between random accounts, `perClient` for each of `clients` clients, signed before the
 * window opens: the measurement is the node's, not the signing speed of a benchmark that shares its cores.
 * `tag` keeps the transactions of two runs on one chain apart.
 */
export async function signedTransfers(
  founder: IbaxClient,
  funded: FundedAccounts,
  options: { clients: number; perClient: number; tag?: string },
): Promise<Uint8Array[][]> {
  const transfer = await founder.contract('TokensTransfer');
  const { keys, accounts } = funded;
  const prepared: Uint8Array[][] = Array.from({ length: options.clients }, () => []);
  // Signed in the order they are sent (each client's first, then each one's second, …): a queue is taken
  // by the transactions' own time, and a client signing all of its transactions before the next client
  // began would have the last client's wait behind everyone else's under saturation.
  for (let sequence = 0; sequence < options.perClient; sequence++) {
    for (let index = 0; index < options.clients; index++) {
      const txs = prepared[index];
      const from = Math.floor(Math.random() * keys.length);
      let to = Math.floor(Math.random() * keys.length);
      if (to === from) to = (to + 1) % keys.length;
      txs.push(
        buildContractCall(
          founder.signer,
          keys[from],
          transfer,
          { Recipient: accounts[to], Amount: '1', Comment: `${options.tag ?? 'c'}${index}-${sequence}` },
          { networkId: founder.networkId! },
        ).bytes,
      );
    }
  }
  return prepared;
}

/** A process's resident memory sampled every second; `stop()` ends it and gives first / max / last, MB. */
export function sampleRss(pid: number): { stop(): { first: number; max: number; last: number } } {
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(pid)), 1000);
  return {
    stop: () => {
      clearInterval(sampler);
      return {
        first: Math.round(samples[0] ?? 0),
        max: Math.round(Math.max(0, ...samples)),
        last: Math.round(samples.at(-1) ?? 0),
      };
    },
  };
}

export interface LoadOptions {
  /** The nodes; client i sends its k-th batch to `urls[(i + k) % urls.length]` and polls it there. */
  urls: string[];
  /** Client i logs in with `keys[i]` on every node. */
  keys: string[];
  /** One list per client, from {@link signedTransfers}. */
  prepared: Uint8Array[][];
  /** Transactions per second the clients offer together, at most. */
  rate: number;
  /** Transactions per sendTx. */
  batch: number;
  /** Transactions a client keeps outstanding at most. */
  inFlight: number;
  /** Each pending transaction's status is asked about this often. */
  pollMs: number;
  durationS: number;
  /** The chain's committed transactions, read at both ends of the window. */
  committed: () => Promise<number>;
  /** Called at the window's start (after the first count) and end (after the last): e.g. CPU times. */
  onWindow?: (edge: 'start' | 'end') => Promise<void> | void;
}

export interface LoadResult {
  sent: number;
  /** From the chain, at the window's ends. */
  committedInWindow: number;
  /** Statuses with a block id seen by the clients within the window. */
  statusesSeen: number;
  busy: number;
  failed: number;
  /** From sendTx to the first status with a block id, ms, sorted. */
  latencies: number[];
  /**
   * The same latencies with the block each transaction went into and the node (index in `urls`) it was
   * sent to: to tell them apart by producer.
   */
  mined: { blockId: number; ms: number; sentTo: number; sentAtMs: number }[];
}

/**
 * The clients: together they offer `rate` transactions per second in multipart batches for `durationS`
 * seconds, each keeping at most `inFlight` outstanding, and poll `txstatus` every `pollMs` (the Go SDK
 * polls every second). Committed throughput is read from the chain at both ends of the window.
 */
export async function offerLoad(options: LoadOptions): Promise<LoadResult> {
  const { urls, prepared, batch, pollMs } = options;
  const clients = prepared.length;
  const sessions = await Promise.all(
    prepared.map((_, index) =>
      Promise.all(
        urls.map(async (url) => {
          const client = new IbaxClient(url);
          await retried(() => client.login(options.keys[index]));
          return client;
        }),
      ),
    ),
  );
  const latencies: number[] = [];
  const mined: { blockId: number; ms: number; sentTo: number; sentAtMs: number }[] = [];
  let statusesSeen = 0;
  /** Transactions refused with E_BUSY (the queue was full): not sent again. */
  let busy = 0;
  let failed = 0;
  let sent = 0;
  const countAtStart = await options.committed();
  await options.onWindow?.('start');
  const started = Date.now();
  const stopAt = started + options.durationS * 1000;

  const runClient = async (index: number) => {
    const nodes = sessions[index];
    // Per node: hash → when it was sent.
    const pending = nodes.map(() => new Map<string, number>());
    const outstanding = () => pending.reduce((total, one) => total + one.size, 0);
    const poller = (async () => {
      // As the Go SDK polls: each pending transaction about every POLL_MS.
      while (Date.now() < stopAt + 30_000) {
        await sleep(pollMs);
        if (outstanding() === 0) {
          if (Date.now() >= stopAt) break;
          continue;
        }
        await Promise.all(
          nodes.map(async (client, node) => {
            const hashes = [...pending[node].keys()];
            if (hashes.length === 0) return;
            const statuses = await retried(() => client.txStatus(hashes));
            const now = Date.now();
            for (const hash of hashes) {
              const status = statuses[hash];
              if (status.blockid !== '') {
                if (now <= stopAt) statusesSeen++;
                const sentAtMs = pending[node].get(hash)!;
                latencies.push(now - sentAtMs);
                mined.push({ blockId: Number(status.blockid), ms: now - sentAtMs, sentTo: node, sentAtMs });
                pending[node].delete(hash);
              } else if (status.errmsg) {
                failed++;
                pending[node].delete(hash);
              }
            }
          }),
        );
      }
    })();
    const txs = prepared[index];
    let next = 0;
    let batches = 0;
    // Paced: together the clients offer `rate` transactions per second, in batches of `batch`.
    const interval = (batch * clients * 1000) / options.rate;
    let due = started + (index * interval) / clients;
    while (Date.now() < stopAt && next < txs.length) {
      if (Date.now() < due || outstanding() + batch > options.inFlight) {
        await sleep(Math.max(5, Math.min(20, due - Date.now())));
        continue;
      }
      due += interval;
      const node = (index + batches++) % nodes.length;
      const slice = txs.slice(next, next + batch);
      next += slice.length;
      const at = Date.now();
      // A node that was not asked anything for a while may have closed the client's idle connection.
      let hashes: string[];
      try {
        hashes = await retried(() => nodes[node].sendTransactions(slice));
      } catch (error) {
        if (!isBusy(error)) throw error;
        busy += slice.length;
        continue;
      }
      for (const hash of hashes) pending[node].set(hash, at);
      sent += hashes.length;
    }
    await poller;
  };
  const windowEnd = (async () => {
    await sleep(Math.max(0, stopAt - Date.now()));
    const count = await options.committed();
    await options.onWindow?.('end');
    return count;
  })();
  await Promise.all(Array.from({ length: clients }, (_, i) => runClient(i)));
  const countAtEnd = await windowEnd;
  latencies.sort((a, b) => a - b);
  return {
    sent,
    busy,
    committedInWindow: countAtEnd - countAtStart,
    statusesSeen,
    failed,
    latencies,
    mined,
  };
}

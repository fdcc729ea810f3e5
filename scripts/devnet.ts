/**
 * A network of honor nodes on this machine, for development: N nodes (`npm start`'s scripts/start.cjs) as
 * child processes on 127.0.0.1, ports P, P+1, …, each with its own data directory and database, each with
 * every other one as a peer. Node 0 makes the genesis; the others take it from node 0 at their first start.
 *   npm run devnet -- --nodes 3 --base-port 7180 [--slot-ms 1000] [--dir ./devnet]
 * Once all are ready it prints `node <i> <url> <data dir>` for each and `founder <key file>`; Ctrl-C (or
 * SIGTERM, SIGHUP) stops them all, and so does this process's death by any signal.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';

const USAGE = `Usage: npm run devnet -- [--nodes <n>] [--followers <k>] [--base-port <port>] [--slot-ms <ms>] [--dir <path>]

Starts a network of honor nodes on this machine, each a child process of this one.

  --nodes <n>          how many honor nodes (default 3)
  --followers <k>      how many follower nodes besides (default 0): not in honor_nodes, they take every
                       block from the honor nodes, serve the whole API and pass transactions on to them;
                       follower j listens at <port + n + j>, its directory is <path>/follower<j>
  --base-port <port>   node i listens at http://127.0.0.1:<port + i> (default 7180)
  --slot-ms <ms>       block slot length of every node (BLOCK_SLOT_MS); default: the platform parameters'
  --dir <path>         node i keeps its keys, embedded database and log (node.log) in <path>/node<i>
                       (default ./devnet)
  --help               this text

With DATABASE_URL set (a PostgreSQL server), node i uses its own database devnet_<i> there (follower j
devnet_follower_<j>), created if missing; otherwise the embedded database in its directory. Other settings
in the environment (LOG_LEVEL, …) reach every node. Once every node is ready it prints "node <i> <url> <data
dir>" (and "follower <j> …"), one line each, and "founder <key file>": the chain's founder key, node 0's
(the other nodes took their genesis from it and have none). Ctrl-C stops them all. The nodes' data stays
for the next run: remove the directory (and drop the databases) to start a new chain.
`;

const ROOT = resolve(__dirname, '..');
const START = join(ROOT, 'scripts/start.cjs');
/** More nodes than this is a typo, not a network this machine can run. */
const MAX_NODES = 32;
/** Longer than the node's own bound on a graceful stop (SHUTDOWN_TIMEOUT_MS, 10 s by default). */
const STOP_TIMEOUT_MS = 15_000;
/** A first start copies or makes a database and, for nodes 1…, waits for node 0's genesis. */
const READY_TIMEOUT_MS = 180_000;

interface Options {
  nodes: number;
  followers: number;
  basePort: number;
  slotMs?: number;
  dir: string;
}

/** A wrong command line: one line on stderr, exit 2. */
class UsageError extends Error {}

function wholeNumber(option: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new UsageError(
      `--${option} accepts a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`,
    );
  return Number(text);
}

function parseOptions(args: string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        nodes: { type: 'string' },
        followers: { type: 'string' },
        'base-port': { type: 'string' },
        'slot-ms': { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // parseArgs names the option or argument it refused in its first line; the rest is advice.
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  if (values.help) return 'help';
  const nodes = wholeNumber('nodes', values.nodes ?? '3', 1, MAX_NODES);
  const followers = wholeNumber('followers', values.followers ?? '0', 0, MAX_NODES);
  // The last node's port must exist too.
  const basePort = wholeNumber('base-port', values['base-port'] ?? '7180', 1, 65536 - nodes - followers);
  const slotMs =
    values['slot-ms'] === undefined ? undefined : wholeNumber('slot-ms', values['slot-ms'], 1, 3_600_000);
  if (values.dir === '') throw new UsageError('--dir needs a path');
  return { nodes, followers, basePort, slotMs, dir: resolve(values.dir ?? 'devnet') };
}

/**
 * Node i's database on the server DATABASE_URL names: the same URL with the database devnet_<i>, created if
 * missing. Nodes cannot share one: each keeps its own copy of the chain (and only one process per database
 * makes blocks).
 */
async function prepareDatabases(serverUrl: string, names: string[]): Promise<string[]> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const urls: string[] = [];
    for (const name of names) {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      urls.push(url.toString());
    }
    return urls;
  } finally {
    await client.end();
  }
}

/** The first of the ports that something listens on already (another devnet, a node), if any. */
async function portInUse(ports: number[]): Promise<number | undefined> {
  for (const port of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
    });
    if (!free) return port;
  }
  return undefined;
}

/**
 * How a node is started: under util-linux `setpriv` (where there is one) with a parent-death signal, so
 * that the nodes stop even when this process is killed with SIGKILL and cannot stop them itself.
 */
function nodeCommand(): [string, string[]] {
  const setpriv = spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0;
  return setpriv
    ? ['setpriv', ['--pdeathsig', 'TERM', process.execPath, START]]
    : [process.execPath, [START]];
}

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false; // not listening yet
  }
}

async function main(): Promise<void> {
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`devnet: ${error.message}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const { nodes: count, followers, basePort, slotMs, dir } = options;
  // The honor nodes, then the followers; ports and TCP labels in that order.
  const members = [
    ...Array.from({ length: count }, (_, i) => ({
      name: `node ${i}`,
      folder: `node${i}`,
      database: `devnet_${i}`,
    })),
    ...Array.from({ length: followers }, (_, j) => ({
      name: `follower ${j}`,
      folder: `follower${j}`,
      database: `devnet_follower_${j}`,
    })),
  ].map((member, i) => ({
    ...member,
    port: basePort + i,
    url: `http://127.0.0.1:${basePort + i}`,
    dataDir: join(dir, member.folder),
  }));
  const honorUrls = members.slice(0, count).map((member) => member.url);
  // Before anything starts: a node answering there already would pass for one of ours.
  const taken = await portInUse(members.map((member) => member.port));
  if (taken !== undefined) {
    throw new Error(
      `port ${taken} (${members[taken - basePort].name}) is in use: another devnet or node runs there; ` +
        'stop it, or choose other ports with --base-port',
    );
  }
  for (const member of members) mkdirSync(member.dataDir, { recursive: true });

  let databases: string[] | undefined;
  if (process.env.DATABASE_URL) {
    try {
      databases = await prepareDatabases(
        process.env.DATABASE_URL,
        members.map((member) => member.database),
      );
    } catch (error) {
      // Not the URL itself: it may hold a password.
      throw new Error(
        `cannot prepare the devnet_<i> databases on DATABASE_URL's server: ${(error as Error).message}`,
      );
    }
  }

  // Bundle the node once, here: nodes started from changed sources would each bundle it, all at once.
  const bundled = spawnSync(process.execPath, [START, '--bundle-only'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (bundled.status !== 0) throw new Error('the node could not be bundled');

  const running = new Set<ChildProcess>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (code: number): void => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (running.size === 0) process.exit(exitCode);
    for (const child of running) child.kill('SIGTERM');
    // Each node leads a process group of its own (detached): the kill takes whatever it started with it.
    setTimeout(() => {
      for (const child of running) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone between its exit and the 'exit' event
        }
      }
    }, STOP_TIMEOUT_MS);
  };

  // Node 0 first: the others ask it for the genesis block, and wait for it themselves. A follower has the
  // honor nodes as its peers and is no peer of theirs: node 0 lists only its own peers in honor_nodes.
  const [command, args] = nodeCommand();
  for (const [i, { url, dataDir, name }] of members.entries()) {
    const log = openSync(join(dataDir, 'node.log'), 'a');
    const child = spawn(command, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(basePort + i),
        API_ADDRESS: url,
        // Only a label here (nodes talk over HTTP), but honor_nodes wants each node's to differ.
        TCP_ADDRESS: `127.0.0.1:${7078 + i}`,
        DATA_DIR: dataDir,
        NETWORK_PEERS: honorUrls.filter((other) => other !== url).join(','),
        // Empty means unset to the node, and outweighs a value in a .env file, which every node would read.
        GENESIS_PEER: i === 0 ? '' : honorUrls[0],
        DATABASE_URL: databases?.[i] ?? '',
        ...(slotMs === undefined ? {} : { BLOCK_SLOT_MS: String(slotMs) }),
      },
      stdio: ['ignore', log, log],
      // Out of the terminal's process group: a Ctrl-C reaches the nodes once, from here, as SIGTERM.
      detached: true,
    });
    closeSync(log);
    running.add(child);
    child.on('error', (error) => {
      running.delete(child);
      process.stderr.write(`${name} could not be started: ${error.message}\n`);
      if (stopping && running.size === 0) process.exit(exitCode);
      stopAll(1);
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      if (!stopping) {
        process.stderr.write(`${name} exited with ${code ?? signal}\n`);
        process.stderr.write(`  its log: ${join(dataDir, 'node.log')}\n`);
        stopAll(1);
      } else if (running.size === 0) process.exit(exitCode);
    });
  }

  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  // The terminal closed.
  process.on('SIGHUP', () => stopAll(0));
  // Under `npm run devnet`, npm killed (even by SIGKILL) leaves this process to its init: stop with it.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stopAll(0);
  }, 500).unref();
  // Detached nodes outlive this process unless told: a crash here must not leave them running.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const { name, url, dataDir } of members) {
    while (!stopping && !(await isReady(url))) {
      if (Date.now() > deadline) {
        process.stderr.write(`${name} is not ready after ${READY_TIMEOUT_MS / 1000} s\n`);
        process.stderr.write(`  its log: ${join(dataDir, 'node.log')}\n`);
        stopAll(1);
      }
      await sleep(250);
    }
  }
  if (stopping) return;
  for (const { name, url, dataDir } of members) process.stdout.write(`${name} ${url} ${dataDir}\n`);
  process.stdout.write(`founder ${join(members[0].dataDir, 'founder.key')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`devnet: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});

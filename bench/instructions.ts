/**
 * Instructions a request, counted by valgrind's callgrind. The same node, route and number of requests
 * give nearly the same count whatever else the machine does, where requests/s and CPU per request swing by
 * a sixth between runs of one hour (bench/README.md): this is for a change too small to show through that.
 *
 * Each checkout of CHECKOUTS (comma-separated; this one when unset) is bundled as `npm start` bundles it and
 * run from its bundle under callgrind, with counting off until the node has started and answered WARM
 * requests; then AMOUNT requests (8 connections) are counted, in every thread of the node. ROUNDS rounds
 * take the checkouts in turn. NODE_ARGS go to the node (`--predictable`: V8 without its background
 * threads, whose timing otherwise moves the count by a few percent).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CHECKOUTS=../base,. npm run bench:instructions
 *   # knobs: URL_PATH (/api/v2/version) or RPC_METHOD (a JSON-RPC call), WARM (3000), AMOUNT (2000),
 *   #        ROUNDS (1), NODE_ARGS, BENCH_PORT (7420)
 *
 * Needs valgrind (Debian's package). The node runs about fifty times slower under it: a round of one
 * checkout takes a minute or two. One at a time: `callgrind_control` is given no pid (valgrind's wrapper
 * script is the child, not valgrind) and acts on every Callgrind process of the machine. The count also
 * takes in what the node does each second rather than for a request; it moves by 1–2 % between runs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freshDatabase, median, sleep, untilAnswering } from './support';

const PORT = Number(process.env.BENCH_PORT ?? 7420);
const WARM = Number(process.env.WARM ?? 3000);
const AMOUNT = Number(process.env.AMOUNT ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const RPC_METHOD = process.env.RPC_METHOD;
const URL_PATH = process.env.URL_PATH ?? '/api/v2/version';
const NODE_ARGS = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The node's own HOST setting is in its environment, and valgrind names its control pipes after $HOST. */
const HOST = '127.0.0.1';

/** Bundles a checkout where its bundle can still find its packages (below a node_modules). */
function bundleOf(checkout: string, index: number): string {
  const dir = join(
    'node_modules',
    '.cache',
    'ibax-node',
    'instructions',
    `${index}-${basename(resolve(checkout))}`,
  );
  execFileSync(process.execPath, ['scripts/bundle.cjs', dir], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return resolve(checkout, dir);
}

function load(amount: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://${HOST}:${PORT}${RPC_METHOD ? '/' : URL_PATH}`,
    method: RPC_METHOD ? 'POST' : 'GET',
    body: RPC_METHOD ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: RPC_METHOD, params: [] }) : undefined,
    headers: RPC_METHOD ? { 'content-type': 'application/json' } : undefined,
    connections: 8,
    amount,
    timeout: 120,
  });
}

function callgrindControl(...args: string[]): void {
  execFileSync('callgrind_control', args, { env: { ...process.env, HOST }, stdio: 'ignore' });
}

/** The node of one bundle under callgrind: instructions a request over AMOUNT requests. */
async function count(bundle: string): Promise<number> {
  const database = await freshDatabase('instructions');
  const dataDir = mkdtempSync(join(tmpdir(), 'ibax-instructions-'));
  const node = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '-q',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dataDir, 'callgrind.out')}`,
      process.execPath,
      ...NODE_ARGS,
      join(bundle, 'main.js'),
    ],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(PORT),
        HOST,
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let failed: Error | undefined;
  node.once('error', (error) => (failed = error));
  const exited = new Promise((done) => node.once('close', done));
  try {
    try {
      // Ten minutes: the node starts under valgrind, about five times slower even while nothing is counted.
      await untilAnswering(`http://${HOST}:${PORT}/readyz`, node, 600_000);
    } catch (error) {
      throw new Error(`the node of ${bundle} did not start: ${(failed ?? (error as Error)).message}`);
    }
    await load(WARM);
    await sleep(1000);
    callgrindControl('--instr=on');
    const result = await load(AMOUNT);
    // Dumped before counting stops: switching it off writes a file of its own whose summary reads 0, and the
    // dump after it is lost. The moment between the two is counted; it is the same for every checkout.
    callgrindControl('--dump');
    callgrindControl('--instr=off');
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${result.non2xx} answers not 2xx, ${result.errors} errors`);
    // The dump of the counted window, and the one written at exit (the moment before counting stopped).
    let instructions = 0;
    for (const file of readdirSync(dataDir).filter((name) => name.startsWith('callgrind.out'))) {
      instructions += Number(/^summary: (\d+)/m.exec(readFileSync(join(dataDir, file), 'utf8'))?.[1] ?? 0);
    }
    return instructions / result.requests.total;
  } finally {
    if (node.exitCode === null && node.signalCode === null) node.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

async function main(): Promise<void> {
  const checkouts = (process.env.CHECKOUTS ?? '.').split(',');
  const bundles = checkouts.map(bundleOf);
  const counts: number[][] = checkouts.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, bundle] of bundles.entries()) {
      counts[i].push(await count(bundle));
      console.log(
        `round ${round + 1}, ${checkouts[i]}: ${(counts[i].at(-1)! / 1000).toFixed(1)} k instructions a request`,
      );
    }
  }
  console.log(
    `${RPC_METHOD ?? URL_PATH}, ${AMOUNT} requests counted after ${WARM}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}`,
  );
  console.log('| checkout | k instructions a request (median; each round) |');
  console.log('| --- | --- |');
  for (const [i, checkout] of checkouts.entries()) {
    const each = counts[i].map((value) => (value / 1000).toFixed(1)).join(', ');
    console.log(`| ${checkout} | ${(median(counts[i]) / 1000).toFixed(1)} (${each}) |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * The node's start: time to the first `/readyz` 200 and resident memory, on a fresh data directory (the
 * first start: schema, genesis, keys) and again on the same directory (the second start), each repeated
 * REPEAT times; medians are printed. The embedded database by default; BENCH_DATABASE_URL compares with a
 * PostgreSQL server (a fresh database per repetition).
 *
 *   npm run bench:startup
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:startup
 *   # knobs: REPEAT (3), IDLE_MS (5000), BUILT=1 (dist/main.js instead of npm start's; BUILT=<dir>: <dir>/main.js), NODE_ENV_EXTRA
 *   #        ("KEY=value KEY2=value", passed to the node), NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freshDatabase, median, rssMb, sleep, startNodeProcess, treePssMb } from './support';

const REPEAT = Number(process.env.REPEAT ?? 3);
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000);
const PORT = Number(process.env.BENCH_PORT ?? 7396);
/** BUILT=1 runs `dist/main.js`; BUILT=<dir> runs `<dir>/main.js`. */
const BUILT = process.env.BUILT;
const EXTRA_ENV = Object.fromEntries(
  (process.env.NODE_ENV_EXTRA ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

interface Start {
  startMs: number;
  readyRssMb: number;
  idleRssMb: number;
  /** PSS of the node and the processes under it (the embedded PostgreSQL server) after the idle period. */
  idleTreePssMb: number;
  /** process.memoryUsage() of the node after the idle period, in MB. */
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** CPU time the node used until the end of the idle period. */
  cpuMs: number;
}

const MB = 1024 * 1024;

async function startOnce(
  dataDir: string,
  databaseUrl: string | undefined,
  probeFile: string,
): Promise<Start> {
  const node = await startNodeProcess({
    port: PORT,
    databaseUrl,
    dataDir,
    built: Boolean(BUILT),
    builtDir: BUILT && BUILT !== '1' ? BUILT : undefined,
    env: {
      ...EXTRA_ENV,
      NODE_OPTIONS: `--require ${resolve(__dirname, 'memory-probe.cjs')}`,
      MEMORY_PROBE_FILE: probeFile,
    },
  });
  const pid = node.process.pid!;
  const readyRssMb = rssMb(pid);
  await sleep(IDLE_MS);
  const idleRssMb = rssMb(pid);
  const idleTreePssMb = treePssMb(pid);
  const usage = JSON.parse(readFileSync(probeFile, 'utf8')) as NodeJS.MemoryUsage & { cpuMs: number };
  await node.stop({ keepData: true });
  return {
    startMs: node.startMs,
    readyRssMb,
    idleRssMb,
    idleTreePssMb,
    heapUsedMb: usage.heapUsed / MB,
    externalMb: usage.external / MB,
    arrayBuffersMb: usage.arrayBuffers / MB,
    cpuMs: usage.cpuMs,
  };
}

function report(name: string, runs: Start[]): void {
  const m = (key: keyof Start) => median(runs.map((run) => run[key]));
  const min = (key: keyof Start) => Math.min(...runs.map((run) => run[key]));
  const all = (key: keyof Start) => runs.map((run) => Math.round(run[key])).join(', ');
  console.log(
    `${name.padEnd(13)} start ${m('startMs').toFixed(0).padStart(5)} ms (min ${min('startMs')}) [${all('startMs')}]` +
      `  RSS ready ${m('readyRssMb').toFixed(0).padStart(4)} MB, after ${IDLE_MS / 1000} s idle ` +
      `${m('idleRssMb').toFixed(0).padStart(4)} MB [${all('idleRssMb')}]` +
      `, with its database (PSS of the process tree) ${m('idleTreePssMb').toFixed(0)} MB` +
      `  (heapUsed ${m('heapUsedMb').toFixed(0)}, external ${m('externalMb').toFixed(0)},` +
      ` arrayBuffers ${m('arrayBuffersMb').toFixed(0)} MB)` +
      `  CPU ${m('cpuMs').toFixed(0)} ms [${all('cpuMs')}]`,
  );
}

async function main(): Promise<void> {
  const first: Start[] = [];
  const second: Start[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const database = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'ibax-startup-'));
    const probeFile = join(dataDir, 'memory.json');
    try {
      first.push(await startOnce(dataDir, database.url, probeFile));
      second.push(await startOnce(dataDir, database.url, probeFile));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  }
  const where = process.env.BENCH_DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL';
  console.log(`${where}, ${BUILT ? 'built (npm run start:prod)' : 'npm start'}, medians of ${REPEAT}:`);
  report('first start', first);
  report('second start', second);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

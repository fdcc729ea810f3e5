/**
 * Request-path throughput against bare Express 5 in the same run (issue 28: reads close to bare Express). 8
 * concurrent connections (autocannon) per target, DURATION_S each, after WARMUP_S unmeasured on every target
 * (the JIT's first seconds otherwise fall on whichever target comes first). ROUNDS interleaved rounds: in each,
 * every target right after its baseline — the hello-world (GET) for REST, a bare JSON-RPC echo through
 * `express.json()` for JSON-RPC — and the share is the target's over that baseline's; the median round is
 * reported with the range.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:http
 *   # knobs: CONNECTIONS (8), DURATION_S (5), WARMUP_S (2), ROUNDS (3), BENCH_PORT (7392; baselines + 1)
 */
import autocannon from 'autocannon';
import { cpuMs, freshDatabase, sleep, startHelloWorld, startNodeProcess } from './support';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DURATION_S = Number(process.env.DURATION_S ?? 5);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const NODE_PORT = Number(process.env.BENCH_PORT ?? 7392);
const HELLO_PORT = NODE_PORT + 1;

interface Target {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Calls per request (a JSON-RPC batch). */
  calls?: number;
  target?: string;
  /** What it is a share of: the GET hello-world (REST) or the JSON-RPC echo. */
  baseline?: 'hello' | 'echo';
}

/** Requests per second, and the CPU time the answering process spent per request (µs; robust to load). */
async function measure(
  target: Target,
  pid: number,
  durationS = DURATION_S,
): Promise<{ perSecond: number; cpuUs: number }> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    body: target.body,
    headers: target.body ? { 'content-type': 'application/json' } : undefined,
    connections: CONNECTIONS,
    duration: durationS,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target.name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return {
    perSecond: result.requests.average,
    cpuUs: ((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total,
  };
}

function rpc(method: string, params: unknown[] = [], id = 1) {
  return { jsonrpc: '2.0', id, method, params };
}

async function main(): Promise<void> {
  const hello = startHelloWorld(HELLO_PORT);
  const database = await freshDatabase();
  const node = await startNodeProcess({ port: NODE_PORT, databaseUrl: database.url });
  try {
    await sleep(500);
    const base = node.url;
    const targets: Target[] = [
      { name: 'GET /api/v2/version', url: `${base}/api/v2/version`, target: '≥ 85 %' },
      { name: 'GET /api/v2/block/1', url: `${base}/api/v2/block/1`, target: '≥ 85 %' },
      { name: 'GET /api/v2/maxblockid', url: `${base}/api/v2/maxblockid`, target: '≥ 85 %' },
      {
        name: 'JSON-RPC ibax.getBlockInfo (one read)',
        url: `${base}/`,
        method: 'POST',
        body: JSON.stringify(rpc('ibax.getBlockInfo', [1])),
        target: '≥ 45 %',
      },
      {
        name: 'JSON-RPC ibax.maxBlockId',
        url: `${base}/`,
        method: 'POST',
        body: JSON.stringify(rpc('ibax.maxBlockId')),
        target: '≥ 80 % of the echo',
      },
      {
        name: 'JSON-RPC batch of 100 ibax.maxBlockId',
        url: `${base}/`,
        method: 'POST',
        baseline: 'hello',
        body: JSON.stringify(Array.from({ length: 100 }, (_, i) => rpc('ibax.maxBlockId', [], i + 1))),
        calls: 100,
        target: '≥ 8,000 calls/s',
      },
    ];
    const baselines: Record<'hello' | 'echo', Target> = {
      hello: { name: 'hello', url: `http://127.0.0.1:${HELLO_PORT}/` },
      echo: {
        name: 'echo',
        url: `http://127.0.0.1:${HELLO_PORT}/`,
        method: 'POST',
        body: JSON.stringify(rpc('ibax.maxBlockId')),
      },
    };
    for (const target of [...Object.values(baselines), ...targets]) {
      const pid = target.url.includes(`:${HELLO_PORT}/`) ? hello.pid! : node.process.pid!;
      await measure(target, pid, WARMUP_S);
    }
    const rounds = new Map<Target, { share: number; perSecond: number; cpuUs: number; base: number }[]>();
    const baseCpu: Record<string, number[]> = { hello: [], echo: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const kind = target.baseline ?? (target.method === 'POST' ? 'echo' : 'hello');
        const base = await measure(baselines[kind], hello.pid!);
        const measured = await measure(target, node.process.pid!);
        baseCpu[kind].push(base.cpuUs);
        const list = rounds.get(target) ?? [];
        list.push({ ...measured, share: measured.perSecond / base.perSecond, base: base.perSecond });
        rounds.set(target, list);
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    console.log(
      `baselines, CPU per request: hello-world ${Math.round(median(baseCpu.hello))} µs, JSON-RPC echo ${Math.round(median(baseCpu.echo))} µs`,
    );
    console.log(
      '| route | requests/s (median round) | baseline requests/s | share (median; range) | node CPU per request | calls/s | target |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const target of targets) {
      const list = [...rounds.get(target)!].sort((x, y) => x.share - y.share);
      const mid = list[Math.floor(list.length / 2)];
      const pct = (share: number) => `${(100 * share).toFixed(0)} %`;
      const calls = target.calls ? Math.round(mid.perSecond * target.calls).toLocaleString('en') : '';
      console.log(
        `| ${target.name} | ${Math.round(mid.perSecond).toLocaleString('en')} | ${Math.round(mid.base).toLocaleString('en')} | ` +
          `${pct(mid.share)} (${pct(list[0].share)}–${pct(list[list.length - 1].share)}) | ${Math.round(mid.cpuUs)} µs | ${calls} | ${target.target ?? ''} |`,
      );
    }
  } finally {
    hello.kill();
    await node.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

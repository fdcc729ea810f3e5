/**
 * Request-path throughput against bare Express 5 in the same run (issue 28: reads close to bare Express). 8
 * concurrent connections (autocannon) per target, DURATION_S each, after WARMUP_S unmeasured on every target
 * (the JIT's first seconds otherwise fall on whichever target comes first). ROUNDS interleaved rounds: in each,
 * every target right after its two baselines — bare Express's hello-world (GET) for REST or its JSON-RPC echo
 * through `express.json()` for JSON-RPC, and the same answered by a bare NestJS application
 * (`nest-hello-world.ts`), in an order that alternates by round — and the target's share of each is reported
 * (the median round, with the range), with NestJS's own share of bare Express.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:http
 *   # knobs: CONNECTIONS (8), DURATION_S (5), WARMUP_S (2), ROUNDS (3), BENCH_PORT (7392; baselines + 1, NestJS + 3),
 *   #        AGAINST=<another checkout> (its node against this one, in turn; on BENCH_PORT + 2),
 *   #        ONLY=<part of a route's name>
 */
import autocannon from 'autocannon';
import {
  untilAnswering,
  cpuMs,
  freshDatabase,
  median,
  sleep,
  startHelloWorld,
  startNestHelloWorld,
  startNodeProcess,
} from './support';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DURATION_S = Number(process.env.DURATION_S ?? 5);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const NODE_PORT = Number(process.env.BENCH_PORT ?? 7392);
const HELLO_PORT = NODE_PORT + 1;
const NEST_PORT = NODE_PORT + 3;

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

interface Measured {
  perSecond: number;
  cpuUs: number;
}

const pct = (ratio: number) => `${(100 * ratio).toFixed(0)} %`;

/** Ratios as their median and range in percent: `87 % (81 %–97 %)`. */
function spread(ratios: number[]): string {
  const sorted = [...ratios].sort((x, y) => x - y);
  return `${pct(median(sorted))} (${pct(sorted[0])}–${pct(sorted[sorted.length - 1])})`;
}

/** Requests per second, and the CPU time the answering process spent per request (µs; robust to load). */
async function measure(target: Target, pid: number, durationS = DURATION_S): Promise<Measured> {
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

/** The routes measured, on the node at `base` (ONLY=<part of a name>: those alone). */
function targetsOn(base: string): Target[] {
  const only = process.env.ONLY;
  return routesOn(base).filter((target) => !only || target.name.includes(only));
}

function routesOn(base: string): Target[] {
  return [
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
}

async function main(): Promise<void> {
  if (process.env.AGAINST) return againstAnotherCheckout(process.env.AGAINST);
  const database = await freshDatabase();
  const node = await startNodeProcess({ port: NODE_PORT, databaseUrl: database.url });
  const hello = startHelloWorld(HELLO_PORT);
  const nest = startNestHelloWorld(NEST_PORT);
  try {
    const nestUrl = `http://127.0.0.1:${NEST_PORT}/`;
    const helloUrl = `http://127.0.0.1:${HELLO_PORT}/`;
    await untilAnswering(helloUrl, hello);
    await untilAnswering(nestUrl, nest);
    const targets = targetsOn(node.url);
    const echoBody = JSON.stringify(rpc('ibax.maxBlockId'));
    const baselines: Record<'hello' | 'echo', { express: Target; nest: Target }> = {
      hello: { express: { name: 'hello', url: helloUrl }, nest: { name: 'nest hello', url: nestUrl } },
      echo: {
        express: { name: 'echo', url: helloUrl, method: 'POST', body: echoBody },
        nest: { name: 'nest echo', url: nestUrl, method: 'POST', body: echoBody },
      },
    };
    const pidOf = (target: Target) =>
      target.url === nestUrl ? nest.pid! : target.url === helloUrl ? hello.pid! : node.process.pid!;
    for (const target of [
      ...Object.values(baselines).flatMap((pair) => [pair.express, pair.nest]),
      ...targets,
    ]) {
      await measure(target, pidOf(target), WARMUP_S);
    }
    const rounds = new Map<Target, { share: number; ofNest: number; perSecond: number; cpuUs: number }[]>();
    const baseCpu: Record<string, number[]> = { hello: [], echo: [] };
    const nestShares: Record<string, number[]> = { hello: [], echo: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const kind = target.baseline ?? (target.method === 'POST' ? 'echo' : 'hello');
        // Which baseline goes first alternates by round: neither share always has the longer gap.
        let base: Measured;
        let nestBase: Measured;
        if (round % 2 === 0) {
          base = await measure(baselines[kind].express, hello.pid!);
          nestBase = await measure(baselines[kind].nest, nest.pid!);
        } else {
          nestBase = await measure(baselines[kind].nest, nest.pid!);
          base = await measure(baselines[kind].express, hello.pid!);
        }
        const measured = await measure(target, node.process.pid!);
        baseCpu[kind].push(base.cpuUs);
        nestShares[kind].push(nestBase.perSecond / base.perSecond);
        const list = rounds.get(target) ?? [];
        list.push({
          ...measured,
          share: measured.perSecond / base.perSecond,
          ofNest: measured.perSecond / nestBase.perSecond,
        });
        rounds.set(target, list);
      }
    }
    console.log(
      `baselines, CPU per request: hello-world ${Math.round(median(baseCpu.hello))} µs, JSON-RPC echo ${Math.round(median(baseCpu.echo))} µs; ` +
        `bare NestJS's share of bare Express, over every pairing: hello-world ${spread(nestShares.hello)}, echo ${spread(nestShares.echo)}`,
    );
    console.log(
      '| route | requests/s (median round) | share of bare Express (median; range) | share of bare NestJS (median; range) | node CPU per request | calls/s | target |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const target of targets) {
      const list = [...rounds.get(target)!].sort((x, y) => x.share - y.share);
      const mid = list[Math.floor(list.length / 2)];
      const calls = target.calls ? Math.round(mid.perSecond * target.calls).toLocaleString('en') : '';
      console.log(
        `| ${target.name} | ${Math.round(mid.perSecond).toLocaleString('en')} | ${spread(list.map((r) => r.share))} | ` +
          `${spread(list.map((r) => r.ofNest))} | ${Math.round(mid.cpuUs)} µs | ${calls} | ${target.target ?? ''} |`,
      );
    }
  } finally {
    hello.kill();
    nest.kill();
    await node.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * AGAINST=<another checkout>: that checkout's node and this one's, each on its own database, measured on
 * every route in turn within each round (which goes first alternates), for a change too small to show
 * through the machine's noise between two runs. The ratio is this node's requests/s over the other's in
 * the same round; the CPU per request is the median round's.
 */
async function againstAnotherCheckout(checkout: string): Promise<void> {
  const databases = [await freshDatabase('this'), await freshDatabase('other')];
  const nodes = [
    await startNodeProcess({ port: NODE_PORT, databaseUrl: databases[0].url }),
    await startNodeProcess({ port: NODE_PORT + 2, databaseUrl: databases[1].url, checkout }),
  ];
  try {
    await sleep(500);
    const [mine, theirs] = nodes.map((node) => targetsOn(node.url));
    for (const [i, node] of nodes.entries()) {
      for (const target of [mine, theirs][i]) await measure(target, node.process.pid!, WARMUP_S);
    }
    const ratios: number[][] = mine.map(() => []);
    const cpu: number[][][] = mine.map(() => [[], []]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [t, target] of mine.entries()) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        const perSecond = [0, 0];
        for (const side of order) {
          const measured = await measure([target, theirs[t]][side], nodes[side].process.pid!);
          perSecond[side] = measured.perSecond;
          cpu[t][side].push(measured.cpuUs);
        }
        ratios[t].push(perSecond[0] / perSecond[1]);
      }
    }
    console.log(`this checkout against ${checkout}, ${ROUNDS} rounds of ${DURATION_S} s`);
    console.log('| route | this / other, requests/s (median; range) | CPU per request: this · other |');
    console.log('| --- | --- | --- |');
    for (const [t, target] of mine.entries()) {
      console.log(
        `| ${target.name} | ${spread(ratios[t])} | ` +
          `${Math.round(median(cpu[t][0]))} · ${Math.round(median(cpu[t][1]))} µs |`,
      );
    }
  } finally {
    for (const node of nodes) await node.stop();
    for (const database of databases) await database.drop();
  }
}

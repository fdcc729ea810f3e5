/**
 * Request-path throughput against a bare Express 5 hello-world measured in the same run (issue: the request
 * path costs more than the framework). 8 concurrent connections (autocannon) per target, DURATION_S each;
 * the hello-world is measured before and after the node's targets and their mean is the baseline.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:http
 */
import autocannon from 'autocannon';
import { cpuMs, freshDatabase, sleep, startHelloWorld, startNodeProcess } from './support';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DURATION_S = Number(process.env.DURATION_S ?? 10);
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
}

/** Requests per second, and the CPU time the answering process spent per request (µs; robust to load). */
async function measure(target: Target, pid: number): Promise<{ perSecond: number; cpuUs: number }> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    body: target.body,
    headers: target.body ? { 'content-type': 'application/json' } : undefined,
    connections: CONNECTIONS,
    duration: DURATION_S,
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
      { name: 'GET /api/v2/version', url: `${base}/api/v2/version`, target: '≥ 65 %' },
      { name: 'GET /api/v2/block/1', url: `${base}/api/v2/block/1`, target: '≥ 50 %' },
      { name: 'GET /api/v2/maxblockid', url: `${base}/api/v2/maxblockid`, target: '≥ 50 %' },
      {
        name: 'JSON-RPC ibax.getBlockInfo (one read)',
        url: `${base}/`,
        method: 'POST',
        body: JSON.stringify(rpc('ibax.getBlockInfo', [1])),
        target: '≥ 45 %',
      },
      {
        name: 'JSON-RPC batch of 100 ibax.maxBlockId',
        url: `${base}/`,
        method: 'POST',
        body: JSON.stringify(Array.from({ length: 100 }, (_, i) => rpc('ibax.maxBlockId', [], i + 1))),
        calls: 100,
        target: '≥ 8,000 calls/s',
      },
    ];
    const helloTarget = { name: 'hello', url: `http://127.0.0.1:${HELLO_PORT}/` };
    const helloBefore = await measure(helloTarget, hello.pid!);
    const results: { name: string; perSecond: number; cpuUs: number; calls?: number; target?: string }[] = [];
    for (const target of targets) {
      results.push({
        name: target.name,
        ...(await measure(target, node.process.pid!)),
        calls: target.calls,
        target: target.target,
      });
    }
    const helloAfter = await measure(helloTarget, hello.pid!);
    const baseline = (helloBefore.perSecond + helloAfter.perSecond) / 2;
    console.log(
      `bare Express 5 hello-world: ${Math.round(helloBefore.perSecond)} / ${Math.round(helloAfter.perSecond)} requests/s, ` +
        `${Math.round((helloBefore.cpuUs + helloAfter.cpuUs) / 2)} µs of CPU per request`,
    );
    console.log('| route | requests/s | of hello-world | node CPU per request | calls/s | target |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const result of results) {
      const share = `${((100 * result.perSecond) / baseline).toFixed(0)} %`;
      const calls = result.calls ? Math.round(result.perSecond * result.calls).toLocaleString('en') : '';
      console.log(
        `| ${result.name} | ${Math.round(result.perSecond).toLocaleString('en')} | ${share} | ${Math.round(result.cpuUs)} µs | ${calls} | ${result.target ?? ''} |`,
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

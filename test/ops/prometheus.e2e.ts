import { beforeAll, expect, it } from 'vitest';
import type { DatabaseService } from '../../src/database/database.service';
import { PrometheusMetrics } from '../../src/prometheus/prometheus-metrics';
import { useTestNode, type TestNode } from '../support/node';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, samples only (`# HELP` / `# TYPE` lines are checked separately). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(match, `sample line ${JSON.stringify(line)}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const pair of (match![2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match![1], labels, value: Number(match![3]) });
  }
  return samples;
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const answer = await fetch(`${node.url}/metrics`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await answer.text();
  return { text, samples: parseExposition(text) };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, text]) => sample.labels[key] === text),
  );
  return found?.value;
}

beforeAll(async () => {
  node = running.node;
});

it('exposes the node after real traffic: HTTP by route, JSON-RPC by method, chain, admission, database, process', async () => {
  const before = (await scrape()).samples;
  const admittedBefore = value(before, 'ibax_tx_admitted_total') ?? 0;

  // Real traffic: a founder login, a contract call mined in a block, a refused transaction, reads.
  await node.client.login(node.founderKey);
  const { status } = await node.client.call(node.founderKey, 'NewParameter', {
    Name: 'prometheus_probe',
    Value: '1',
    Conditions: 'true',
  });
  expect(Number(status.blockid)).toBeGreaterThan(1);
  const forged = await node.client.postForm('/api/v2/sendTx', { tx: '05deadbeef' });
  expect(forged.status).toBe(400);
  expect((await node.client.get('/api/v2/block/1')).status).toBe(200);
  expect((await node.client.get('/api/v2/block/999999')).status).toBe(404);
  expect((await node.client.get('/api/v2/no-such-route')).status).toBe(404);
  expect(await node.client.rpc('ibax.maxBlockId')).toBeGreaterThan(1);
  await expect(node.client.rpc('ibax.getBlockInfo', [999999])).rejects.toThrow();
  await node.client.rpcRaw({ jsonrpc: '2.0', id: 1, method: 'ibax.noSuchMethod' });

  const height = Number(await node.client.rpc('ibax.maxBlockId'));
  const { text, samples } = await scrape();

  // HTTP: by route pattern (never the raw path), method and status; a histogram with the same labels.
  expect(value(samples, 'ibax_http_requests_total', { route: '/api/v2/block/:id', status: '200' })).toBe(1);
  expect(value(samples, 'ibax_http_requests_total', { route: '/api/v2/block/:id', status: '404' })).toBe(1);
  expect(samples.some((sample) => sample.labels.route === '/api/v2/block/1')).toBe(false);
  expect(value(samples, 'ibax_http_requests_total', { route: '<unmatched>', status: '404' })).toBeGreaterThan(
    0,
  );
  expect(
    value(samples, 'ibax_http_requests_total', { method: 'POST', route: '/api/v2/sendTx', status: '200' }),
  ).toBe(1);
  const sendTxTimes = value(samples, 'ibax_http_request_duration_seconds_count', {
    route: '/api/v2/sendTx',
    status: '200',
  });
  expect(sendTxTimes).toBe(1);
  const sendTxSeconds = value(samples, 'ibax_http_request_duration_seconds_sum', {
    route: '/api/v2/sendTx',
    status: '200',
  })!;
  expect(sendTxSeconds).toBeGreaterThan(0);
  expect(sendTxSeconds).toBeLessThan(30);
  expect(
    value(samples, 'ibax_http_request_duration_seconds_bucket', {
      route: '/api/v2/sendTx',
      status: '200',
      le: '+Inf',
    }),
  ).toBe(1);

  // JSON-RPC: by method and outcome (ok or the error code); unknown names share one series.
  expect(value(samples, 'ibax_rpc_calls_total', { method: 'ibax.maxBlockId', outcome: 'ok' })).toBe(2);
  expect(value(samples, 'ibax_rpc_calls_total', { method: 'ibax.getBlockInfo', outcome: '-32012' })).toBe(1);
  expect(value(samples, 'ibax_rpc_calls_total', { method: '<unknown>', outcome: '-32601' })).toBe(1);
  expect(value(samples, 'ibax_rpc_call_duration_seconds_count', { method: 'ibax.maxBlockId' })).toBe(2);

  // The chain: height as in the database, blocks made, transactions admitted, refused by reason, waiting.
  expect(value(samples, 'ibax_chain_height')).toBe(height);
  expect(value(samples, 'ibax_block_production_seconds_count')).toBeGreaterThanOrEqual(1);
  expect(value(samples, 'ibax_block_production_seconds_sum')).toBeGreaterThan(0);
  expect(value(samples, 'ibax_block_transactions_total', { result: 'included' })).toBeGreaterThanOrEqual(1);
  expect(value(samples, 'ibax_tx_admitted_total')).toBe(admittedBefore + 1);
  expect(value(samples, 'ibax_tx_refused_total', { reason: 'malformed' })).toBe(1);
  expect(value(samples, 'ibax_tx_waiting')).toBe(0);

  // The database: pool and statement times.
  expect(value(samples, 'ibax_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
  expect(value(samples, 'ibax_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
  expect(value(samples, 'ibax_db_query_duration_seconds_count')).toBeGreaterThan(10);

  // The process: prom-client's default collectors.
  expect(value(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  expect(value(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  for (const name of ['ibax_http_requests_total', 'ibax_chain_height', 'ibax_tx_refused_total']) {
    expect(text).toContain(`# HELP ${name} `);
    expect(text).toContain(`# TYPE ${name} `);
  }
});

it('counts transactions that fail in a batch where none succeeds, though no block is written', async () => {
  await node.client.login(node.founderKey);
  const before = (await scrape()).samples;
  const heightBefore = Number(await node.client.rpc('ibax.maxBlockId'));
  const failedBefore = value(before, 'ibax_block_transactions_total', { result: 'failed' });
  const includedBefore = value(before, 'ibax_block_transactions_total', { result: 'included' });
  const blocksBefore = value(before, 'ibax_block_production_seconds_count');

  // Names that are empty once trimmed: admitted, then refused by the contract's conditions in the block.
  const calls = await Promise.all(
    [' ', '  ', '   '].map((name) =>
      node.client.buildCall(node.founderKey, 'NewParameter', { Name: name, Value: '1', Conditions: 'true' }),
    ),
  );
  const hashes = await node.client.sendTransactions(calls.map((call) => call.bytes));
  const statuses = await node.client.waitForTransactions(hashes);
  for (const hash of hashes) {
    expect(statuses[hash]).toMatchObject({
      blockid: '',
      errmsg: { type: 'warning', error: 'Parameter name is empty' },
    });
  }

  const after = (await scrape()).samples;
  expect(Number(await node.client.rpc('ibax.maxBlockId'))).toBe(heightBefore);
  expect(value(after, 'ibax_block_transactions_total', { result: 'failed' })).toBe((failedBefore ?? 0) + 3);
  expect(value(after, 'ibax_block_transactions_total', { result: 'included' })).toBe(includedBefore);
  expect(value(after, 'ibax_block_production_seconds_count')).toBe(blocksBefore);
  expect(value(after, 'ibax_tx_waiting')).toBe(0);
});

it('shows both transaction results from the start, at 0 before any block', async () => {
  const fresh = new PrometheusMetrics({} as DatabaseService);
  const samples = parseExposition(await fresh.registry.metrics());
  expect(value(samples, 'ibax_block_transactions_total', { result: 'included' })).toBe(0);
  expect(value(samples, 'ibax_block_transactions_total', { result: 'failed' })).toBe(0);
});

it("leaves the interface's own metrics routes as they are", async () => {
  const blocks = await node.client.get('/api/v2/metrics/blocks');
  expect(blocks.status).toBe(200);
  expect(blocks.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(blocks.body as object)).toEqual(['count']);
  const mem = await node.client.get('/api/v2/metrics/mem');
  expect(Object.keys(mem.body as object)).toEqual(['alloc', 'sys']);
});

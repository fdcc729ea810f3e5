/**
 * One route under load, to profile the node on it: starts the node (NODE_ARGS, e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof"), loads URL_PATH with autocannon for DURATION_S (8 connections; a JSON-RPC
 * call when RPC_METHOD is set), stops the node so that its profile is written.
 *
 *   NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" URL_PATH=/api/v2/version npm run bench:profile-route
 *   RPC_METHOD=ibax.maxBlockId npm run bench:profile-route
 */
import autocannon from 'autocannon';
import { freshDatabase, sleep, startNodeProcess } from './support';

const DURATION_S = Number(process.env.DURATION_S ?? 10);
const URL_PATH = process.env.URL_PATH ?? '/api/v2/version';
const RPC_METHOD = process.env.RPC_METHOD;

async function main(): Promise<void> {
  const database = await freshDatabase();
  const node = await startNodeProcess({
    port: Number(process.env.BENCH_PORT ?? 7394),
    databaseUrl: database.url,
  });
  try {
    await sleep(500);
    const result = await autocannon({
      url: `${node.url}${RPC_METHOD ? '/' : URL_PATH}`,
      method: RPC_METHOD ? 'POST' : 'GET',
      body: RPC_METHOD
        ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: RPC_METHOD, params: [] })
        : undefined,
      headers: RPC_METHOD ? { 'content-type': 'application/json' } : undefined,
      connections: 8,
      duration: DURATION_S,
    });
    console.log(
      `${RPC_METHOD ?? URL_PATH}: ${Math.round(result.requests.average)} requests/s, pid ${node.process.pid}`,
    );
  } finally {
    await node.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

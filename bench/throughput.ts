/**
 * Chain throughput and latency (issue: 1,250 committed transactions per second on PostgreSQL).
 *
 * Starts the node as its own process on a fresh database (BENCH_DATABASE_URL: a database on that server;
 * unset: the embedded database in a temporary directory) with a short slot, registers and funds many
 * accounts, then runs CLIENTS concurrent clients sending TokensTransfer between random accounts for
 * DURATION_S seconds, each keeping up to IN_FLIGHT transactions outstanding and polling their statuses.
 * Reports committed transactions per second, latency from sendTx to a status with a block id (p50,
 * p99), and the node's resident memory over the run.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node -r @swc-node/register bench/throughput.ts
 *   # NODE_CHECKOUT=<another checkout>: that commit's node under this loader, so a before and after differ
 *   # in the node alone (a worktree; with node_modules linked to this one's, the two share the bundle's
 *   # cache and each start of the other rebuilds it, ≈ 4 s)
 */
import {
  chainTxCount,
  cpuMs,
  founderOf,
  freshDatabase,
  fundedAccounts,
  machineCpu,
  offerLoad,
  percentile,
  sampleRss,
  signedTransfers,
  startNodeProcess,
} from './support';

const CLIENTS = Number(process.env.CLIENTS ?? 8);
const DURATION_S = Number(process.env.DURATION_S ?? 60);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 400);
const SLOT_MS = Number(process.env.SLOT_MS ?? 1000);
const BATCH = Number(process.env.BATCH ?? 50);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 600);
const PORT = Number(process.env.BENCH_PORT ?? 7391);
/** Transactions per second the clients can offer at most (signed in advance). */
const RATE = Number(process.env.RATE ?? 2000);
const POLL_MS = Number(process.env.POLL_MS ?? 500);

async function main(): Promise<void> {
  const database = await freshDatabase();
  const node = await startNodeProcess({
    port: PORT,
    databaseUrl: database.url,
    env: {
      BLOCK_SLOT_MS: String(SLOT_MS),
      BODY_LIMIT: String(8 * 1024 * 1024),
      MULTIPART_PARTS_LIMIT: '10000',
    },
    checkout: process.env.NODE_CHECKOUT,
  });
  try {
    const founder = await founderOf(node.url, node.dataDir);
    const funded = await fundedAccounts(founder, ACCOUNTS);
    console.log(`setup: ${ACCOUNTS} accounts registered and funded`);
    const perClient = Math.ceil((RATE * DURATION_S) / CLIENTS);
    const prepared = await signedTransfers(founder.client, funded, { clients: CLIENTS, perClient });
    console.log(`prepared ${perClient * CLIENTS} signed transactions`);

    const rss = sampleRss(node.process.pid!);
    type Reading = { node: number; bench: NodeJS.CpuUsage; machine: { busy: number; total: number } };
    let windowStart: Reading | undefined;
    let windowEnd: Reading | undefined;
    const load = await offerLoad({
      urls: [node.url],
      keys: funded.keys,
      prepared,
      rate: RATE,
      batch: BATCH,
      inFlight: IN_FLIGHT,
      pollMs: POLL_MS,
      durationS: DURATION_S,
      committed: () => chainTxCount(founder.client),
      onWindow: (edge) => {
        const now = { node: cpuMs(node.process.pid!), bench: process.cpuUsage(), machine: machineCpu() };
        if (edge === 'start') windowStart = now;
        else windowEnd = now;
      },
    });
    // Where the CPU of the window went, per committed transaction: the node, this process (the loader), and
    // the rest of the machine's busy time (PostgreSQL, on a machine that runs nothing else).
    const committed = Math.max(1, load.committedInWindow);
    const nodeMs = windowEnd!.node - windowStart!.node;
    const benchUsage = process.cpuUsage(windowStart!.bench);
    const benchMs = (benchUsage.user + benchUsage.system) / 1000;
    const ticks = windowEnd!.machine.busy - windowStart!.machine.busy;
    const totalTicks = windowEnd!.machine.total - windowStart!.machine.total;
    // /proc/stat counts in ticks of 10 ms, summed over the cores.
    const machineMs = ticks * 10;
    const result = {
      database: database.url ? 'PostgreSQL' : 'embedded PostgreSQL',
      clients: CLIENTS,
      duration_s: DURATION_S,
      slot_ms: SLOT_MS,
      sent: load.sent,
      refusedBusy: load.busy,
      committed_in_window: load.committedInWindow,
      committed_per_s: Math.round(load.committedInWindow / DURATION_S),
      statuses_seen_in_window: load.statusesSeen,
      failed: load.failed,
      latency_p50_ms: percentile(load.latencies, 50),
      latency_p99_ms: percentile(load.latencies, 99),
      rss_mb: rss.stop(),
      cpu_us_per_committed_tx: {
        node: Math.round((nodeMs * 1000) / committed),
        database_and_rest: Math.round(((machineMs - nodeMs - benchMs) * 1000) / committed),
        loader: Math.round((benchMs * 1000) / committed),
        machine_busy_share: Math.round((ticks / Math.max(1, totalTicks)) * 100) / 100,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await node.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

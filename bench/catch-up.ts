/**
 * Catch-up (issue 27, part 4): how fast a node that starts from nothing imports a chain that keeps
 * growing, against how fast it grows.
 *
 *  1. One honor node on a fresh database, 1 s slots, loaded as `throughput.ts` loads it (TokensTransfer
 *     between ACCOUNTS funded accounts) at BUILD_RATE for BUILD_S seconds: a chain to catch up with.
 *  2. A follower (GENESIS_PEER and NETWORK_PEERS: the honor node) starts from zero while the honor node
 *     is loaded on at GROW_RATE. Measured from the follower's first ready answer (genesis only) to the
 *     first look at which its height reaches the honor node's: blocks and transactions imported per
 *     second, and the chain's growth (blocks and transactions per second on the honor node) meanwhile.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node -r @swc-node/register bench/catch-up.ts
 *   # knobs: BUILD_S (60), BUILD_RATE (800), GROW_RATE (200), ACCOUNTS (200), CLIENTS (8), BATCH (50),
 *   #        IN_FLIGHT (600), SLOT_MS (1000), BENCH_PORT (7420: the honor node; the follower at +1)
 */
import {
  chainTxCount,
  founderOf,
  freshDatabase,
  fundedAccounts,
  offerLoad,
  signedTransfers,
  sleep,
  startNodeProcess,
} from './support';
import { IbaxClient } from '../src/sdk';

const BUILD_S = Number(process.env.BUILD_S ?? 60);
const BUILD_RATE = Number(process.env.BUILD_RATE ?? 800);
const GROW_RATE = Number(process.env.GROW_RATE ?? 200);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 200);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const BATCH = Number(process.env.BATCH ?? 50);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 600);
const SLOT_MS = Number(process.env.SLOT_MS ?? 1000);
const PORT = Number(process.env.BENCH_PORT ?? 7420);
/** The follower is given this long to catch up at most. */
const CATCH_UP_LIMIT_S = 600;

async function height(client: IbaxClient): Promise<number> {
  return Number((await client.get('/api/v2/maxblockid')).body.max_block_id);
}

async function main(): Promise<void> {
  const databases = [await freshDatabase('honor'), await freshDatabase('follower')];
  const env = {
    BLOCK_SLOT_MS: String(SLOT_MS),
    BODY_LIMIT: String(8 * 1024 * 1024),
    MULTIPART_PARTS_LIMIT: '10000',
  };
  const honor = await startNodeProcess({ port: PORT, databaseUrl: databases[0].url, env });
  let follower: Awaited<ReturnType<typeof startNodeProcess>> | undefined;
  try {
    const founder = await founderOf(honor.url, honor.dataDir);
    const funded = await fundedAccounts(founder, ACCOUNTS);
    const buildTxs = await signedTransfers(founder.client, funded, {
      clients: CLIENTS,
      perClient: Math.ceil((BUILD_RATE * BUILD_S) / CLIENTS),
      tag: 'b',
    });
    const load = (prepared: Uint8Array[][], rate: number, durationS: number) =>
      offerLoad({
        urls: [honor.url],
        keys: funded.keys,
        prepared,
        rate,
        batch: BATCH,
        inFlight: IN_FLIGHT,
        pollMs: 500,
        durationS,
        committed: () => chainTxCount(founder.client),
      });
    const built = await load(buildTxs, BUILD_RATE, BUILD_S);
    const honorClient = new IbaxClient(honor.url);
    const chainAtStart = { height: await height(honorClient), txs: await chainTxCount(honorClient) };
    console.log(
      `built: ${chainAtStart.height} blocks, ${chainAtStart.txs} transactions (${built.committedInWindow} in ${BUILD_S} s)`,
    );

    // The chain grows on while the follower catches up.
    const growTxs = await signedTransfers(founder.client, funded, {
      clients: CLIENTS,
      perClient: Math.ceil((GROW_RATE * CATCH_UP_LIMIT_S) / CLIENTS),
      tag: 'g',
    });
    // In windows of 5 s, each with transactions of its own (a transaction sent again is not mined again).
    let growing = true;
    const perWindow = Math.ceil((GROW_RATE * 5) / CLIENTS);
    const growth = (async () => {
      for (let window = 0; growing; window++) {
        const slice = growTxs.map((txs) => txs.slice(window * perWindow, (window + 1) * perWindow));
        if (slice[0].length === 0) break;
        await load(slice, GROW_RATE, 5);
      }
    })();
    follower = await startNodeProcess({
      port: PORT + 1,
      databaseUrl: databases[1].url,
      env: {
        ...env,
        GENESIS_PEER: honor.url,
        NETWORK_PEERS: honor.url,
        API_ADDRESS: `http://127.0.0.1:${PORT + 1}`,
      },
    });
    const followerClient = new IbaxClient(follower.url);
    const started = {
      ms: Date.now(),
      height: await height(honorClient),
      txs: await chainTxCount(honorClient),
    };
    let caughtUp: { ms: number; height: number; txs: number } | undefined;
    while (Date.now() - started.ms < CATCH_UP_LIMIT_S * 1000) {
      const [ours, theirs] = await Promise.all([height(followerClient), height(honorClient)]);
      if (ours >= theirs) {
        caughtUp = { ms: Date.now(), height: ours, txs: await chainTxCount(followerClient) };
        break;
      }
      await sleep(100);
    }
    growing = false;
    await growth;
    const ended = { height: await height(honorClient), txs: await chainTxCount(honorClient) };
    if (!caughtUp) throw new Error(`the follower did not catch up within ${CATCH_UP_LIMIT_S} s`);
    const seconds = (caughtUp.ms - started.ms) / 1000;
    const grownBlocks = caughtUp.height - started.height;
    const grownTxs = caughtUp.txs - started.txs;
    const result = {
      database: databases[0].url ? 'PostgreSQL' : 'embedded PostgreSQL',
      chain_to_catch_up: chainAtStart,
      catch_up_s: Number(seconds.toFixed(1)),
      imported: { blocks: caughtUp.height - 1, transactions: caughtUp.txs },
      import_per_s: {
        blocks: Number(((caughtUp.height - 1) / seconds).toFixed(1)),
        transactions: Math.round(caughtUp.txs / seconds),
      },
      growth_per_s: {
        blocks: Number((grownBlocks / seconds).toFixed(1)),
        transactions: Math.round(grownTxs / seconds),
      },
      import_over_growth: {
        blocks: Number(((caughtUp.height - 1) / Math.max(1, grownBlocks)).toFixed(1)),
        transactions: Number((caughtUp.txs / Math.max(1, grownTxs)).toFixed(1)),
      },
      honor_chain_at_end: ended,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await follower?.stop();
    await honor.stop();
    for (const database of databases) await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

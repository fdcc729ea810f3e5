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
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IbaxClient, buildCoinTransfer, buildContractCall, type ContractDescription } from '../src/sdk';
import { freshDatabase, percentile, rssMb, sleep, startNodeProcess } from './support';

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

/** The first request after the signing pause may meet a keep-alive socket the node just closed. */
async function retried<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

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
  });
  const { url, dataDir } = node;
  try {
    const founderKey = readFileSync(join(dataDir, 'founder.key'), 'utf8').trim();
    const founder = new IbaxClient(url);
    await founder.login(founderKey);
    const transfer = await founder.contract('TokensTransfer');

    // Accounts: registered by their first login (NewUser blocks), a few dozen at a time.
    const keys = Array.from({ length: ACCOUNTS }, () => randomBytes(32).toString('hex'));
    const accounts: string[] = [];
    for (let start = 0; start < keys.length; start += 50) {
      const logins = keys.slice(start, start + 50).map(async (key) => {
        const client = new IbaxClient(url);
        return (await client.login(key)).account;
      });
      accounts.push(...(await Promise.all(logins)));
    }
    // Coins: the founder's genesis output to its account, then to every account.
    const toAccount = buildCoinTransfer(
      founder.signer,
      founderKey,
      { transferSelf: { value: '4000000000000000000', source: 'UTXO', target: 'Account' } },
      { networkId: founder.networkId! },
    );
    await founder.waitForTransactions(await founder.sendTransactions([toAccount.bytes]));
    const funding = accounts.map((account, i) =>
      buildContractCall(
        founder.signer,
        founderKey,
        transfer,
        { Recipient: account, Amount: '1000000000000', Comment: `fund ${i}` },
        { networkId: founder.networkId! },
      ),
    );
    for (let start = 0; start < funding.length; start += 200) {
      const hashes = await founder.sendTransactions(funding.slice(start, start + 200).map((tx) => tx.bytes));
      await founder.waitForTransactions(hashes, { timeoutMs: 120_000 });
    }
    console.log(`setup: ${ACCOUNTS} accounts registered and funded`);

    const latencies: number[] = [];
    let committed = 0;
    let failed = 0;
    let sent = 0;
    const rss: number[] = [];

    // Transactions are signed before the window opens: the measurement is the node's, not the signing
    // speed of a benchmark that shares the node's two cores.
    const perClient = Math.ceil((RATE * DURATION_S) / CLIENTS);
    const prepared: Uint8Array[][] = [];
    for (let index = 0; index < CLIENTS; index++) {
      const txs: Uint8Array[] = [];
      for (let sequence = 0; sequence < perClient; sequence++) {
        const from = Math.floor(Math.random() * keys.length);
        let to = Math.floor(Math.random() * keys.length);
        if (to === from) to = (to + 1) % keys.length;
        txs.push(
          buildContractCall(
            founder.signer,
            keys[from],
            transfer as ContractDescription,
            { Recipient: accounts[to], Amount: '1', Comment: `c${index}-${sequence}` },
            { networkId: founder.networkId! },
          ).bytes,
        );
      }
      prepared.push(txs);
    }
    console.log(`prepared ${perClient * CLIENTS} signed transactions`);
    // Committed throughput is read from the chain: transactions in blocks at the window's ends.
    const chainCount = () =>
      retried(async () => Number((await founder.get('/api/v2/metrics/transactions')).body.count));
    const countAtStart = await chainCount();
    const started = Date.now();
    const stopAt = started + DURATION_S * 1000;
    const sampler = setInterval(() => rss.push(rssMb(node.process.pid!)), 1000);

    const runClient = async (index: number) => {
      const client = new IbaxClient(url);
      await retried(() => client.login(keys[index]));
      const pending = new Map<string, number>();
      const poller = (async () => {
        // As the Go SDK polls: each pending transaction about every 500 ms.
        while (Date.now() < stopAt + 30_000) {
          await sleep(POLL_MS);
          const hashes = [...pending.keys()];
          if (hashes.length === 0) {
            if (Date.now() >= stopAt) break;
            continue;
          }
          const statuses = await client.txStatus(hashes);
          const now = Date.now();
          for (const hash of hashes) {
            const status = statuses[hash];
            if (status.blockid !== '') {
              if (now <= stopAt) committed++;
              latencies.push(now - pending.get(hash)!);
              pending.delete(hash);
            } else if (status.errmsg) {
              failed++;
              pending.delete(hash);
            }
          }
        }
      })();
      const txs = prepared[index];
      let next = 0;
      // Paced: together the clients offer RATE transactions per second, in batches of BATCH.
      const interval = (BATCH * CLIENTS * 1000) / RATE;
      let due = started + (index * interval) / CLIENTS;
      while (Date.now() < stopAt && next < txs.length) {
        if (Date.now() < due || pending.size + BATCH > IN_FLIGHT) {
          await sleep(Math.max(5, Math.min(20, due - Date.now())));
          continue;
        }
        due += interval;
        const batch = txs.slice(next, next + BATCH);
        next += batch.length;
        const at = Date.now();
        const hashes = await client.sendTransactions(batch);
        for (const hash of hashes) pending.set(hash, at);
        sent += hashes.length;
      }
      await poller;
    };
    const windowEnd = (async () => {
      await sleep(Math.max(0, stopAt - Date.now()));
      return chainCount();
    })();
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i)));
    const countAtEnd = await windowEnd;
    clearInterval(sampler);
    const seconds = DURATION_S;
    latencies.sort((a, b) => a - b);
    const result = {
      database: database.url ? 'PostgreSQL' : 'embedded (PGlite)',
      clients: CLIENTS,
      duration_s: seconds,
      slot_ms: SLOT_MS,
      sent,
      committed_in_window: countAtEnd - countAtStart,
      committed_per_s: Math.round((countAtEnd - countAtStart) / seconds),
      statuses_seen_in_window: committed,
      failed,
      latency_p50_ms: percentile(latencies, 50),
      latency_p99_ms: percentile(latencies, 99),
      rss_mb: {
        first: Math.round(rss[0] ?? 0),
        max: Math.round(Math.max(...rss)),
        last: Math.round(rss[rss.length - 1] ?? 0),
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

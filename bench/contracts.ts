/**
 * Contract engine measurements (not tests):
 *   1. compile time of all system contracts (fresh VM with the host built-ins and the prelude);
 *   2. executions per second of a pure-computation contract (a 10,000-iteration loop);
 *   3. executions per second of NewParameter against a real database (PostgreSQL when BENCH_DATABASE_URL is
 *      set, else the embedded one), each in its own DB transaction, with the time split into database
 *      round-trips and everything else (VM, host built-ins).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { NodeIdentity } from '../src/chain/node-identity.service';
import { NodeCrypto } from '../src/chain/node-crypto.service';
import { loadConfig } from '../src/config';
import { ContractsService } from '../src/contracts/contracts.service';
import { HOST_BUILTINS, PRELUDE } from '../src/contract-host';
import { SYSTEM_CONTRACTS } from '../src/genesis/system-contracts';
import type { Sql } from '../src/database/database.service';
import { Vm, type Value } from '../src/vm';

const now = () => Number(process.hrtime.bigint()) / 1e6;

function compileAll(): number {
  const vm = new Vm();
  vm.builtins.registerAll(HOST_BUILTINS);
  vm.loadPrelude(PRELUDE);
  const started = now();
  for (const [index, contract] of SYSTEM_CONTRACTS.entries()) {
    vm.compileSource(contract.source, { ecosystem: 1, meta: { tableId: index + 1 } });
  }
  return now() - started;
}

async function pureLoop(runs: number): Promise<{ perSecond: number; fuel: number }> {
  const vm = new Vm();
  vm.compileSource(
    `contract Loop {
      action {
        var i, s int
        while i < 10000 {
          s = s + i
          i = i + 1
        }
        $result = s
      }
    }`,
    { ecosystem: 1 },
  );
  let fuel = 0;
  for (let i = 0; i < 20; i++) await vm.runContract('Loop', new Map(), {});
  const started = now();
  for (let i = 0; i < runs; i++) fuel = (await vm.runContract('Loop', new Map(), {})).fuelUsed;
  return { perSecond: runs / ((now() - started) / 1000), fuel };
}

/** Wraps a transaction so every statement's time is counted as database time. */
function timed(sql: Sql, clock: { ms: number; queries: number }): Sql {
  const measure = async <T>(work: () => Promise<T>) => {
    const started = now();
    try {
      return await work();
    } finally {
      clock.ms += now() - started;
      clock.queries += 1;
    }
  };
  return {
    query: (text, params) => measure(() => sql.query(text, params)),
    one: (text, params) => measure(() => sql.one(text, params)),
  };
}

async function newParameter(runs: number) {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  let drop = async () => {};
  if (serverUrl) {
    const name = `ibax_bench_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    drop = async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'ibax-bench-'));
  const app = await createApp(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl }),
  );
  try {
    const contracts = app.get(ContractsService);
    const crypto = app.get(NodeCrypto);
    const founder = app.get(NodeIdentity).founder.keyId;
    const caller = { keyId: founder, account: crypto.address(founder), ecosystem: 1n, roleId: 0n };
    const clock = { ms: 0, queries: 0 };
    const run = async (index: number) => {
      await contracts.transaction(async (sql) => {
        const time = BigInt(Math.floor(Date.now() / 1000));
        await contracts.execute({
          sql: timed(sql, clock),
          contract: 'NewParameter',
          params: new Map<string, Value>([
            ['Name', `bench_${index}`],
            ['Value', String(index)],
            ['Conditions', 'ContractConditions("MainCondition")'],
          ]),
          caller,
          block: { id: 2n, time, keyId: founder },
          txHash: randomBytes(32),
          time,
        });
      });
    };
    for (let i = 0; i < 20; i++) await run(i);
    clock.ms = 0;
    clock.queries = 0;
    const started = now();
    for (let i = 20; i < 20 + runs; i++) await run(i);
    const total = now() - started;
    return {
      perSecond: runs / (total / 1000),
      msPerRun: total / runs,
      dbMsPerRun: clock.ms / runs,
      queriesPerRun: clock.queries / runs,
      database: databaseUrl ? 'PostgreSQL' : 'embedded PostgreSQL',
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await drop();
  }
}

async function main(): Promise<void> {
  compileAll();
  const compiles = Array.from({ length: 10 }, compileAll).sort((a, b) => a - b);
  console.log(`compile all ${SYSTEM_CONTRACTS.length} system contracts: median ${compiles[5].toFixed(1)} ms`);
  const loop = await pureLoop(500);
  console.log(`pure loop (10,000 iterations, ${loop.fuel} fuel): ${loop.perSecond.toFixed(0)} executions/s`);
  const param = await newParameter(300);
  console.log(
    `NewParameter on ${param.database}: ${param.perSecond.toFixed(0)} executions/s, ${param.msPerRun.toFixed(2)} ms each ` +
      `(database ${param.dbMsPerRun.toFixed(2)} ms over ${param.queriesPerRun.toFixed(1)} statements; ` +
      `everything else — VM, host built-ins, BEGIN/COMMIT — ${(param.msPerRun - param.dbMsPerRun).toFixed(2)} ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

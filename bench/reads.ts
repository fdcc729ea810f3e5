/**
 * Read throughput of data reads and rendered pages against a bare Express 5 hello-world measured in the
 * same run: `row`, `list` (25 rows), `listWhere`, `balance` (issue: data reads) and `content/page` of a
 * 200-element page with 3 DBFind calls (issue: pages). 8 concurrent connections (autocannon) per target,
 * DURATION_S each; the hello-world before and after, their mean the baseline. The data is made by real
 * transactions first. Also the page renderer alone, without HTTP or database (src/template, fixed data),
 * and the same hello-world answered by a bare NestJS application (`nest-hello-world.ts`), before and after
 * too: what the framework the node is built on costs on its own; each read's share of it is reported as well.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:reads
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { IbaxClient, buildContractCall } from '../src/sdk';
import { renderTemplate, renderTemplateJson } from '../src/template';
import {
  untilAnswering,
  cpuMs,
  freshDatabase,
  sleep,
  startHelloWorld,
  startNestHelloWorld,
  startNodeProcess,
} from './support';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DURATION_S = Number(process.env.DURATION_S ?? 10);
const NODE_PORT = Number(process.env.BENCH_PORT ?? 7394);
const HELLO_PORT = NODE_PORT + 1;
const NEST_PORT = NODE_PORT + 2;
const ROWS = 200;

const ADD_ROWS = `contract BenchAddRows {
    data {
        From int
        Count int
    }
    action {
        var i int
        i = 0
        var n int
        var name string
        var price money
        while i < $Count {
            n = $From + i
            name = Sprintf("item %d", n)
            price = Money(n) * Money(3)
            DBInsert("bench_items", {"name": name, "qty": n, "price": price})
            i = i + 1
        }
    }
}`;

/** 200 elements: a heading, a table of 3 DBFind results and 190 plain elements. */
function benchPage(): string {
  const parts = [
    'Div(Class: header){Strong(Items)}',
    'DBFind(bench_items, top).Columns("id,name,qty").Order("id").Limit(10)',
    'DBFind(bench_items, cheap).Columns("id,price").Where({"qty": {"$lt": 50}}).Limit(10)',
    'DBFind(bench_items, one).Columns("name,qty").WhereId(7).Vars(item)',
    'Table(top)',
    'Table(cheap)',
    'P(#item_name# has #item_qty#)',
  ];
  for (let i = 0; parts.length < 200; i++) {
    parts.push(i % 2 === 0 ? `Div(Class: row){Span(Row ${i})}` : `P(Text of row ${i} with Em(emphasis))`);
  }
  return parts.join('\n');
}

/** Requests per second, and the CPU time the serving process spent per request (µs). */
async function measure(
  url: string,
  pid: number,
  options: Partial<autocannon.Options> = {},
): Promise<{ perSecond: number; cpuUs: number }> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...options });
  const cpuUs = ((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return { perSecond: result.requests.average, cpuUs };
}

/** The same page rendered by src/template alone: fixed rows, no HTTP, no database. */
async function renderOnly(): Promise<{ pagesPerSecond: number; nodes: number }> {
  const rows = (count: number, columns: string[]) =>
    Array.from({ length: count }, (_, i) =>
      columns.map((column) => (column === 'id' ? String(i + 1) : `${column} ${i}`)),
    );
  const port = {
    findRows: (query: { table: string; columns: string[]; limit: number }) => ({
      table: '1_bench_items',
      columns: query.columns,
      types: query.columns.map(() => 'text'),
      rows: rows(Math.min(10, query.limit), query.columns),
    }),
    ecosystemParam: () => undefined,
    appParam: () => undefined,
    systemParam: () => undefined,
    langRes: () => undefined,
    snippet: () => undefined,
    binaryUrl: () => undefined,
    history: () => ({ columns: [], rows: [] }),
    columnType: () => 'text',
    txInfo: () => '{}',
  };
  const template = benchPage();
  const options = { port: port as never, vars: { ecosystem_id: '1', lang: 'en' } };
  const nodes = JSON.stringify(await renderTemplate(template, options)).split('"tag"').length - 1;
  for (let i = 0; i < 200; i++) await renderTemplateJson(template, options);
  const started = performance.now();
  let pages = 0;
  while (performance.now() - started < DURATION_S * 1000) {
    await renderTemplateJson(template, options);
    pages++;
  }
  return { pagesPerSecond: pages / ((performance.now() - started) / 1000), nodes };
}

async function main(): Promise<void> {
  const database = await freshDatabase();
  const node = await startNodeProcess({
    port: NODE_PORT,
    databaseUrl: database.url,
    env: { BLOCK_SLOT_MS: '300' },
  });
  const hello = startHelloWorld(HELLO_PORT);
  const nest = startNestHelloWorld(NEST_PORT);
  try {
    const founderKey = readFileSync(join(node.dataDir, 'founder.key'), 'utf8').trim();
    const founder = new IbaxClient(node.url);
    const session = await founder.login(founderKey);
    const mustCall = async (contract: string, params: Record<string, string>) => {
      const answer = await founder.call(founderKey, contract, params);
      if (answer.status.errmsg) throw new Error(`${contract}: ${JSON.stringify(answer.status.errmsg)}`);
      return answer.status.result;
    };
    await mustCall('NewTable', {
      ApplicationId: '1',
      Name: 'bench_items',
      Columns: JSON.stringify([
        { name: 'name', type: 'varchar', conditions: 'true' },
        { name: 'qty', type: 'number', conditions: 'true' },
        { name: 'price', type: 'money', conditions: 'true' },
      ]),
      Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
    });
    await mustCall('NewContract', { ApplicationId: '1', Value: ADD_ROWS, Conditions: 'true' });
    const contract = await founder.contract('BenchAddRows');
    const txs = Array.from(
      { length: ROWS / 50 },
      (_, i) =>
        buildContractCall(
          founder.signer,
          founderKey,
          contract,
          { From: String(i * 50 + 1), Count: '50' },
          { networkId: founder.networkId!, time: BigInt(Math.floor(Date.now() / 1000) - i) },
        ).bytes,
    );
    await founder.waitForTransactions(await founder.sendTransactions(txs));
    await mustCall('NewPage', {
      ApplicationId: '1',
      Name: 'bench_page',
      Value: benchPage(),
      Menu: 'default_menu',
      Conditions: 'true',
    });
    await sleep(500);
    const auth = { Authorization: `Bearer ${founder.token}` };
    const wallet = session.account;
    const base = `${node.url}/api/v2`;
    const targets: { name: string; target: string; options: Partial<autocannon.Options> }[] = [
      {
        name: 'GET row/bench_items/{id}',
        target: '≥ 75 %',
        options: { url: `${base}/row/bench_items/7`, headers: auth },
      },
      {
        name: `GET balance/{wallet}`,
        target: '≥ 50 %',
        options: { url: `${base}/balance/${wallet}`, headers: auth },
      },
      {
        name: 'GET list/bench_items (25 rows)',
        target: '≥ 65 %',
        options: { url: `${base}/list/bench_items?limit=25`, headers: auth },
      },
      {
        name: 'POST listWhere/bench_items (25 rows)',
        target: '≥ 50 %',
        options: {
          url: `${base}/listWhere/bench_items`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ where: '{"qty": {"$gt": 100}}', order: 'qty', limit: '25' }).toString(),
        },
      },
      {
        name: 'POST content/page/bench_page (200 elements, 3 DBFind)',
        target: '≥ 25 % (and ≥ 1,000 pages/s)',
        options: {
          url: `${base}/content/page/bench_page`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'lang=en',
        },
      },
    ];
    const sample = await fetch(`${base}/content/page/bench_page`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'lang=en',
    });
    const answer = await sample.text();
    const parsed = JSON.parse(answer) as { tree: unknown; menutree: unknown };
    console.log(
      `page answer: ${answer.length.toLocaleString('en')} bytes; page tree ${JSON.stringify(parsed.tree).length.toLocaleString('en')}, ` +
        `menu tree ${JSON.stringify(parsed.menutree).length.toLocaleString('en')}`,
    );
    const helloUrl = `http://127.0.0.1:${HELLO_PORT}/`;
    const nestUrl = `http://127.0.0.1:${NEST_PORT}/`;
    await untilAnswering(helloUrl, hello);
    await untilAnswering(nestUrl, nest);
    // Unmeasured first: a baseline's JIT and lazy first requests would otherwise count against it.
    await measure(helloUrl, hello.pid!, { duration: 2 });
    await measure(nestUrl, nest.pid!, { duration: 2 });
    const before = await measure(helloUrl, hello.pid!);
    const nestBefore = await measure(nestUrl, nest.pid!);
    const results: { name: string; perSecond: number; cpuUs: number; target: string }[] = [];
    for (const target of targets) {
      // ONLY=<part of a name> measures that read alone (profiling).
      if (process.env.ONLY && !target.name.includes(process.env.ONLY)) continue;
      const measured = await measure(target.options.url!, node.process.pid!, target.options);
      results.push({ name: target.name, ...measured, target: target.target });
    }
    const nestAfter = await measure(nestUrl, nest.pid!);
    const after = await measure(helloUrl, hello.pid!);
    const baseline = (before.perSecond + after.perSecond) / 2;
    const nestBaseline = (nestBefore.perSecond + nestAfter.perSecond) / 2;
    const pct = (ratio: number) => `${(100 * ratio).toFixed(0)} %`;
    console.log(
      `bare Express 5 hello-world: ${Math.round(before.perSecond)} / ${Math.round(after.perSecond)} requests/s, ` +
        `${Math.round((before.cpuUs + after.cpuUs) / 2)} µs of CPU per request; bare NestJS hello-world: ` +
        `${Math.round(nestBefore.perSecond)} / ${Math.round(nestAfter.perSecond)} requests/s (${pct(nestBaseline / baseline)} of ` +
        `Express), ${Math.round((nestBefore.cpuUs + nestAfter.cpuUs) / 2)} µs`,
    );
    console.log('| read | requests/s | of hello-world | of bare NestJS | node CPU per request | target |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const result of results) {
      console.log(
        `| ${result.name} | ${Math.round(result.perSecond).toLocaleString('en')} | ${pct(result.perSecond / baseline)} | ` +
          `${pct(result.perSecond / nestBaseline)} | ${Math.round(result.cpuUs)} µs | ${result.target} |`,
      );
    }
    const rendered = await renderOnly();
    console.log(
      `renderer alone (src/template, fixed rows, one core): ${Math.round(rendered.pagesPerSecond).toLocaleString('en')} pages/s of ${rendered.nodes} nodes`,
    );
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

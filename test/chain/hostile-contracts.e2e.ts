import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import type { ArgumentValue } from '../../src/sdk/transactions';
import { freePort, killChildNode, startChildNode, type ChildNode } from '../support/child-node';
import { createTestDatabase, newDataDir, type TestDatabase } from '../support/node';
import { sleep } from '../support/wire';

/**
 * Contracts written to freeze, bloat or kill the node, each run once as a real transaction on a node of its
 * own process (1 s slots), while a second client asks `/api/v2/version` every 50 ms and the node's
 * resident memory is sampled. Every one must end in the reference's error within the platform's
 * `max_block_generation_time` (2 s) with room for a busy machine, the node must never fall silent (every
 * answer within a second: the failures this suite guards against were silences of 28 s to forever) and grow
 * by less than 300 MB, and the transaction sent after it must land.
 *
 * The bounds are deliberately wide: they catch a freeze, not a slowdown. The suite prints what it measured
 * for each case (error, time to status, memory, longest answer); `bench/README.md` keeps those numbers.
 */

const SLOT_MS = 1000;
/** Each transaction's time limit: the platform parameter `max_block_generation_time` of the genesis. */
const TIME_LIMIT_MS = 2000;
/** The time limit, the wait for the next slot, and as much again for a machine busy with other work. */
const STATUS_WITHIN_MS = 2 * TIME_LIMIT_MS + 2 * SLOT_MS;
/** A node that kept a client waiting this long has stopped serving, whatever the machine's load. */
const NEVER_SILENT_MS = 1000;
const MEMORY = 'Memory limit exceeded';
const TIME = 'time limit exceeded';
const FUEL = 'runtime cost limit overflow';
const MONEY = 'numeric field overflow';

/** A string of 2^k × 16 characters, made by doubling. */
function doubled(name: string, atLeast: number): string {
  return `var ${name} string
    ${name} = "0123456789abcdef"
    while Size(${name}) < ${atLeast} { ${name} = ${name} + ${name} }`;
}

interface HostileCase {
  name: string;
  /** The contract's action. */
  action: string;
  /** The error it must end with (some may end on time or on fuel, whichever comes first here). */
  errors: Array<string | RegExp>;
}

const CASES: HostileCase[] = [
  {
    name: 'SharedDoubling',
    action: `var a array
      var b array
      while true {
        b = [a, a]
        a = b
      }`,
    errors: [MEMORY],
  },
  {
    name: 'MoneySquares',
    action: `var m money
      var i int
      m = Money(10)
      while i < 28 {
        m = m * m
        i = i + 1
      }
      $result = Str(m)`,
    errors: [MONEY],
  },
  {
    name: 'QueryHoarding',
    action: `var a array
      var i int
      while true {
        a[i] = DBFind("hostile_rows").Limit(1000000)
        i = i + 1
      }`,
    errors: [MEMORY],
  },
  {
    name: 'JsonOfItself',
    action: `var a array
      while true {
        a[Len(a)] = JSONEncode(a)
      }`,
    errors: [MEMORY],
  },
  {
    name: 'SplitIntoNothing',
    action: `var s string
      s = "aaaaaaaaaaaaaaaa"
      while Size(s) < 500000 { s = s + s }
      var parts array
      var i int
      while true {
        parts[i] = Split(s, "a")
        i = i + 1
      }`,
    // About 1.5 s of making 12 M strings before the memory is full: a slow machine meets the time first.
    errors: [MEMORY, TIME],
  },
  {
    name: 'UpperLoop',
    action: `${doubled('s', 8000000)}
      var t string
      while true { t = ToUpper(s) }`,
    errors: [FUEL, TIME],
  },
  {
    name: 'DeepNesting',
    action: `var a array
      while true {
        var b array
        b[0] = a
        a = b
      }`,
    errors: [TIME, FUEL],
  },
  {
    name: 'WideRecursion',
    action: `$result = Fib(40)`,
    errors: [FUEL, TIME],
  },
  {
    name: 'HugeKeys',
    action: `${doubled('k', 1000000)}
      var m map
      var i int
      while true {
        m[k + Str(i)] = i
        i = i + 1
      }`,
    errors: [MEMORY],
  },
  {
    name: 'ReplaceDoubling',
    action: `var s string
      s = "aaaaaaaaaaaaaaaa"
      while true { s = Replace(s, "a", "aa") }`,
    errors: [MEMORY],
  },
  {
    name: 'WideSprintf',
    action: `var s string
      while true { s = Sprintf("%1000000d%1000000d%1000000d", 1, 2, 3) + s }`,
    errors: [MEMORY],
  },
  {
    name: 'TextOfShared',
    action: `var a array
      var b array
      var i int
      while i < 60 {
        b = [a, a]
        a = b
        i = i + 1
      }
      $result = Str(a)`,
    errors: [MEMORY],
  },
  {
    name: 'JsonOfShared',
    action: `var a map
      var b map
      var i int
      while i < 60 {
        b = {"left": a, "right": a}
        a = b
        i = i + 1
      }
      $result = JSONEncode(a)`,
    errors: [MEMORY],
  },
  {
    name: 'ManyTemporaries',
    action: `${doubled('s', 8000000)}
      $result = Size(Sprintf("%d", ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s), ToUpper(s)))`,
    errors: [MEMORY],
  },
  {
    name: 'MoneyFromText',
    action: `$result = Str(Money("1e1000000"))`,
    errors: [MONEY],
  },
  {
    name: 'QueryPolling',
    action: `var n int
      while true {
        n = n + Len(DBFind("hostile_rows").Columns("id").Limit(1))
      }`,
    errors: [TIME, FUEL],
  },
  {
    name: 'InsertFlood',
    action: `${doubled('s', 8000000)}
      while true { DBInsert("hostile_rows", {"data": s}) }`,
    errors: [MEMORY, TIME, FUEL],
  },
  {
    name: 'Base64OfLargest',
    action: `${doubled('s', 8000000)}
      $result = Size(EncodeBase64(s))`,
    errors: [MEMORY],
  },
  {
    name: 'EvalOfHugeText',
    action: `${doubled('s', 200000)}
      $result = Eval(s)`,
    errors: [/^the source is too long \(\d+ characters, at most 131072\) \[Ln:1 Col:1\]/],
  },
];

/**
 * Every string built-in fed the longest string a contract can make, each once: no error, but each call is
 * as long as one can be.
 */
/**
 * Every string built-in fed the longest string a contract can make (8 Mi characters, just under the memory
 * limit), a few per transaction so that each stays far inside the time limit on a slow machine: the point
 * is that none of them is refused for memory it does not need, not how fast the machine is.
 */
const LARGEST_INPUT_STEPS = [
  'n = Size(s) + Size(Substr(s, 100, 8000000)) + Len(Split(Substr(s, 0, 1000000), "f"))\n      t = TrimSpace(s)',
  't = ToLower(s)\n      t = ToUpper(s)',
  't = Replace(s, "f", "F")\n      t = Replace(s, "zz", "y")',
  't = Str(s)\n      t = Sprintf("%s", Substr(s, 0, 4000000))\n      t = JSONEncode(Substr(s, 0, 4000000))',
  't = Hash(s)',
  't = HMac("key", s, false)',
  't = Join([s], ",")\n      if Contains(s, "xyz") || HasPrefix(s, "xyz") { n = 0 }\n      t = BytesToString(StringToBytes(Substr(s, 0, 4000000)))',
];
const LARGEST_INPUTS = `${doubled('s', 8000000)}
      var t string
      var n int
      ${LARGEST_INPUT_STEPS.map((step, index) => `if $Step == ${index} {\n      ${step}\n      }`).join('\n      ')}
      $result = Sprintf("%d %d", n, Size(t))`;

let database: TestDatabase;
let dataDir: string;
let child: ChildNode;
let founder: IbaxClient;
let founderKey: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = newDataDir();
  child = await startChildNode({
    dataDir,
    databaseUrl: database.url,
    port: await freePort(),
    env: { BLOCK_SLOT_MS: String(SLOT_MS) },
  });
  founderKey = readFileSync(join(dataDir, 'founder.key'), 'utf8').trim();
  founder = new IbaxClient(child.url);
  await founder.login(founderKey);
  const sources = [
    'func Fib(n int) int {\n  if n < 2 { return n }\n  return Fib(n - 1) + Fib(n - 2)\n}',
    'contract Calm {\n  data { Note string }\n  action { $result = $Note }\n}',
    `contract FillRows {\n  data { Part int }\n  action {\n    ${doubled('s', 100000)}\n    var i int\n    while i < 100 {\n      DBInsert("hostile_rows", {"data": s})\n      i = i + 1\n    }\n  }\n}`,
    `contract LargestInputs {\n  data { Step int }\n  action {\n    ${LARGEST_INPUTS}\n  }\n}`,
    ...CASES.map((hostile) => `contract ${hostile.name} {\n  action {\n    ${hostile.action}\n  }\n}`),
  ];
  const created = await founder.waitForTransactions(
    await founder.sendTransactions([
      (
        await founder.buildCall(founderKey, 'NewTable', {
          ApplicationId: '1',
          Name: 'hostile_rows',
          Columns: JSON.stringify([{ name: 'data', type: 'text', conditions: 'true' }]),
          Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
        })
      ).bytes,
      ...(await Promise.all(
        sources.map(
          async (source) =>
            (
              await founder.buildCall(founderKey, 'NewContract', {
                ApplicationId: '1',
                Value: source,
                Conditions: 'true',
              })
            ).bytes,
        ),
      )),
    ]),
    { timeoutMs: 60_000 },
  );
  for (const [hash, status] of Object.entries(created)) {
    expect(status.errmsg, `setup transaction ${hash}`).toBeFalsy();
  }
  // About 26 MB of rows for the queries to find (a transaction may write 20 MB: a unit of fuel a byte).
  for (let fill = 0; fill < 2; fill++) {
    const { status } = await founder.call(founderKey, 'FillRows', { Part: fill }, { timeoutMs: 30_000 });
    expect(status.errmsg).toBeFalsy();
  }
}, 240_000);

afterAll(async () => {
  await killChildNode(child);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

interface Measured {
  name: string;
  error: string;
  statusMs: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  longestAnswerMs: number;
  calmLanded: boolean;
}

const measured: Measured[] = [];

/** Runs one contract from a fresh account while the node is watched; the calm transaction follows it. */
async function runWatched(
  name: string,
  params: Record<string, ArgumentValue> = {},
  label = name,
): Promise<Measured> {
  const pid = child.process.pid!;
  const caller = new IbaxClient(child.url);
  const key = randomBytes(32).toString('hex');
  await caller.login(key);
  const hostile = await caller.buildCall(key, name, params);
  const calm = await founder.buildCall(founderKey, 'Calm', { Note: label });
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  let longestAnswerMs = 0;
  let watching = true;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 50);
  const prober = (async () => {
    while (watching) {
      const started = performance.now();
      const answer = await fetch(`${child.url}/api/v2/version`);
      await answer.text();
      longestAnswerMs = Math.max(longestAnswerMs, performance.now() - started);
      await sleep(50);
    }
  })();
  const sent = performance.now();
  const [hostileHash] = await caller.sendTransactions([hostile.bytes]);
  const [calmHash] = await founder.sendTransactions([calm.bytes]);
  const statuses = await caller.waitForTransactions([hostileHash], { timeoutMs: 60_000, intervalMs: 20 });
  const statusMs = performance.now() - sent;
  const calmStatus = (await founder.waitForTransactions([calmHash], { timeoutMs: 30_000, intervalMs: 20 }))[
    calmHash
  ];
  watching = false;
  await prober;
  clearInterval(sampler);
  const error = statuses[hostileHash].errmsg?.error ?? '';
  const result: Measured = {
    name: label,
    error,
    statusMs,
    rssBeforeMb,
    rssPeakMb,
    rssAfterMb: rssMb(pid),
    longestAnswerMs,
    calmLanded: Number(calmStatus.blockid) > 0 && !calmStatus.errmsg,
  };
  measured.push(result);
  return result;
}

describe('a hostile contract ends in the reference error, in time, and the node goes on', () => {
  for (const hostile of CASES) {
    it(hostile.name, { timeout: 90_000 }, async () => {
      const run = await runWatched(hostile.name);
      expect(
        hostile.errors.some((error) =>
          typeof error === 'string' ? error === run.error : error.test(run.error),
        ),
        `${run.error} is one of ${hostile.errors.join(', ')}`,
      ).toBe(true);
      expect(run.statusMs).toBeLessThan(STATUS_WITHIN_MS);
      expect(run.rssPeakMb - run.rssBeforeMb).toBeLessThan(300);
      expect(run.longestAnswerMs).toBeLessThan(NEVER_SILENT_MS);
      expect(run.calmLanded).toBe(true);
    });
  }

  LARGEST_INPUT_STEPS.forEach((step, index) => {
    const builtIns = [...new Set(step.match(/[A-Z][A-Za-z]+(?=\()/g))].join(', ');
    it(`the longest string a contract can make, fed to ${builtIns}`, { timeout: 90_000 }, async () => {
      const run = await runWatched('LargestInputs', { Step: index }, `LargestInputs ${index}`);
      expect(run.error).toBe('');
      expect(run.statusMs).toBeLessThan(STATUS_WITHIN_MS);
      expect(run.rssPeakMb - run.rssBeforeMb).toBeLessThan(300);
      expect(run.longestAnswerMs).toBeLessThan(NEVER_SILENT_MS);
      expect(run.calmLanded).toBe(true);
    });
  });

  it('a contract source too long to compile at once is refused', { timeout: 60_000 }, async () => {
    const body = '    $result = 1\n'.repeat(10_000);
    const { status } = await founder.call(founderKey, 'NewContract', {
      ApplicationId: '1',
      Value: `contract TooLong {\n  action {\n${body}  }\n}`,
      Conditions: 'true',
    });
    expect(status.errmsg?.error).toMatch(/^the source is too long \(\d+ characters, at most 131072\)/);
  });

  it('gives the memory back: the node ends the suite near where it began', { timeout: 30_000 }, async () => {
    const table = measured.map((run) => ({
      case: run.name,
      error: run.error || '(none)',
      'status after (ms)': Math.round(run.statusMs),
      'RSS growth (MB)': Math.round(run.rssPeakMb - run.rssBeforeMb),
      'RSS after (MB)': Math.round(run.rssAfterMb),
      'longest /version (ms)': Math.round(run.longestAnswerMs),
    }));
    console.table(table);
    // What the failed transactions took is garbage once they end; the engine returns it as it collects.
    let settledMb = Infinity;
    for (let wait = 0; wait < 50 && settledMb - measured[0].rssBeforeMb >= 100; wait++) {
      settledMb = Math.min(settledMb, rssMb(child.process.pid!));
      await sleep(200);
    }
    console.log(
      `RSS before the first case ${Math.round(measured[0].rssBeforeMb)} MB, settled at ${Math.round(settledMb)} MB`,
    );
    expect(settledMb - measured[0].rssBeforeMb).toBeLessThan(100);
  });
});

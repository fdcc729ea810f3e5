import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveSubscriptions } from '../src/live/subscriptions.service';
import { IbaxClient } from '../src/sdk';
import { runCli } from '../src/sdk/cli/commands';
import { freePort } from './support/child-node';
import { useTestNode } from './support/node';
import { sleep } from './support/wire';

/**
 * `ibax watch` (the package's bin as a child process, as test/cli.e2e.ts runs it): new blocks as JSON
 * lines, each given transaction's outcome, the exit codes (settled, failed, timed out, Ctrl-C), and the
 * status line that only a terminal gets (in-process, with a terminal's width given to runCli).
 */
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
const ROOT = join(__dirname, '..');
let founder: IbaxClient;

interface Watch {
  /** What it printed so far. */
  stdout: string;
  stderr: string;
  /** Its stdout lines so far, parsed. */
  lines(): any[];
  exited: Promise<number>;
  interrupt(): void;
}

/** `ibax watch …` as a child process, against the test node (or `node`). */
function watch(args: string[], node = running.node.url): Watch {
  const env: NodeJS.ProcessEnv = { ...process.env, IBAX_NODE: node };
  delete env.IBAX_KEY;
  const child = spawn(process.execPath, ['bin/ibax.cjs', 'watch', ...args], { cwd: ROOT, env });
  const run: Watch = {
    stdout: '',
    stderr: '',
    lines: () =>
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    exited: new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : 0))),
    ),
    interrupt: () => child.kill('SIGINT'),
  };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString('utf8')));
  return run;
}

/** The node's subscription count. */
const subscriptions = () => running.node.app.get(LiveSubscriptions).count;

async function until<T>(find: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  for (let waited = 0; ; waited += 25) {
    const found = find();
    if (found) return found;
    if (waited > timeoutMs) throw new Error(`${what}: not in ${timeoutMs} ms`);
    await sleep(25);
  }
}

let parameter = 0;
function newParameter(name = `cli_watch_${++parameter}`, value = '1') {
  return founder.buildCall(running.node.founderKey, 'NewParameter', {
    Name: name,
    Value: value,
    Conditions: 'true',
  });
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

beforeAll(async () => {
  const node = running.node;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
});

describe('ibax watch', () => {
  it('prints each new block as a JSON line until Ctrl-C, then exits 0 with nothing on stderr', async () => {
    const before = subscriptions();
    const run = watch([]);
    await until(() => subscriptions() > before, 'watch subscribed');
    const { status } = await founder.call(running.node.founderKey, 'NewParameter', {
      Name: `cli_watch_${++parameter}`,
      Value: '1',
      Conditions: 'true',
    });
    const block = Number(status.blockid);
    await until(() => run.lines().some((line) => line.block_id === block), 'the block line');
    run.interrupt();
    expect(await run.exited).toBe(0);
    expect(run.stderr).toBe('');
    const line = run.lines().find((printed) => printed.block_id === block);
    expect(line).toEqual({
      block_id: block,
      hash: (await founder.rpc('ibax.getBlockInfo', [block])).hash,
      time: expect.any(Number),
      tx_count: 1,
    });
    // One compact object a line: what `jq` reads as a stream.
    for (const text of run.stdout.trimEnd().split('\n')) expect(text).toMatch(/^\{"block_id":\d+,.*\}$/);
    await until(() => subscriptions() === before, 'its subscription gone');
  });

  it("prints each given transaction's outcome as call does, and exits 1 when one failed", async () => {
    const landing = await newParameter();
    const failing = await newParameter();
    // A twin of the second call (same name, another value) lands first, so the second fails in its block.
    const twin = await newParameter(`cli_watch_${parameter}`, '2');
    await founder.waitForTransactions(await founder.sendTransactions([twin.bytes]));
    const before = subscriptions();
    const run = watch([hex(landing.hash), hex(failing.hash).toUpperCase()]);
    await until(() => subscriptions() >= before + 2, 'watch subscribed');
    await founder.sendTransactions([landing.bytes, failing.bytes]);
    expect(await run.exited).toBe(1);
    expect(run.stderr).toBe('');
    const lines = run.lines();
    const landed = lines.find((line) => line.hash === hex(landing.hash) && 'block' in line);
    expect(landed).toEqual({
      hash: hex(landing.hash),
      block: expect.any(Number),
      result: expect.any(String),
    });
    expect(Number(landed.result)).toBeGreaterThan(0);
    const refused = lines.find((line) => line.hash === hex(failing.hash));
    expect(refused).toEqual({
      hash: hex(failing.hash),
      error: expect.objectContaining({ error: expect.any(String) }),
    });
    expect(refused.error.error).toContain(`cli_watch_${parameter}`);
    // The block comes before the transactions it settled.
    const blockLine = lines.findIndex((line) => line.block_id === landed.block);
    expect(blockLine).toBeGreaterThanOrEqual(0);
    expect(blockLine).toBeLessThan(lines.indexOf(landed));
  });

  it('exits 0 at once for transactions already in a block', async () => {
    const { hash } = await founder.call(running.node.founderKey, 'NewParameter', {
      Name: `cli_watch_${++parameter}`,
      Value: '1',
      Conditions: 'true',
    });
    const run = watch([hash]);
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual([{ hash, block: expect.any(Number), result: expect.any(String) }]);
  });

  it('stops at --timeout: 1 with the hashes not settled, 0 without hashes', async () => {
    const never = randomBytes(32).toString('hex');
    const waiting = watch(['--timeout', '1', never]);
    expect(await waiting.exited).toBe(1);
    expect(waiting.stderr).toBe(`error: still waiting after 1 s; 1 not settled: ${never}\n`);
    expect(waiting.stdout).not.toContain(never);
    const plain = watch(['--timeout', '1']);
    expect(await plain.exited).toBe(0);
    expect(plain.stderr).toBe('');
  });

  it('refuses a wrong command line with 2, and names a node it cannot reach with 1', async () => {
    const badHash = watch(['xyz']);
    expect(await badHash.exited).toBe(2);
    expect(badHash.stderr).toBe(
      'a transaction hash is 64 hex digits, not "xyz"\n(ibax help for the usage)\n',
    );
    const badOption = watch(['--key', 'ab']);
    expect(await badOption.exited).toBe(2);
    expect(badOption.stderr).toContain('watch does not take --key');
    const address = `http://127.0.0.1:${await freePort()}`;
    const unreachable = watch([], address);
    expect(await unreachable.exited).toBe(1);
    expect(unreachable.stderr).toBe(
      `error: cannot reach the node at ${address}: ECONNREFUSED (give its address with --node <url> or IBAX_NODE=<url>)\n`,
    );
  });
});

describe('ibax watch at a terminal', () => {
  /** runCli in this process, its stderr a terminal of 60 columns, Ctrl-C by `interrupt()`. */
  function watchAtTerminal(args: string[]) {
    const output = { stdout: '', stderr: '' };
    let interrupt: (() => void) | undefined;
    const code = runCli(
      ['watch', ...args],
      { IBAX_NODE: running.node.url },
      {
        stdout: (text) => (output.stdout += text),
        stderr: (text) => (output.stderr += text),
        terminalColumns: 60,
        onInterrupt: (listener) => {
          interrupt = listener;
          return () => (interrupt = undefined);
        },
      },
    );
    return { output, code, interrupt: () => interrupt?.() };
  }

  it('keeps a status line on stderr, cleared at the end, and stdout JSON lines only', async () => {
    const { hash } = await founder.call(running.node.founderKey, 'NewParameter', {
      Name: `cli_watch_${++parameter}`,
      Value: '1',
      Conditions: 'true',
    });
    const { output, code } = watchAtTerminal([hash]);
    expect(await code).toBe(0);
    expect(JSON.parse(output.stdout)).toMatchObject({ hash });
    expect(output.stderr).toContain('\r\x1b[K0 of 1 transactions settled; no block yet; waiting 0 s');
    expect(output.stderr.endsWith('\r\x1b[K')).toBe(true);
    // Never wider than the terminal.
    for (const drawn of output.stderr.split('\r\x1b[K')) expect(drawn.length).toBeLessThan(60);
  });

  it('ends at Ctrl-C: 0 without hashes, 130 with transactions not settled', async () => {
    const plain = watchAtTerminal([]);
    await until(() => plain.output.stderr.includes('watching'), 'the status line');
    expect(plain.output.stderr).toContain(`\r\x1b[Kwatching ${running.node.url}: no block yet`);
    await sleep(100);
    plain.interrupt();
    expect(await plain.code).toBe(0);

    const never = randomBytes(32).toString('hex');
    const waiting = watchAtTerminal([never]);
    await until(() => waiting.output.stderr.includes('transactions settled'), 'the status line');
    await sleep(100);
    waiting.interrupt();
    expect(await waiting.code).toBe(130);
    expect(waiting.output.stderr.endsWith(`\r\x1b[Kinterrupted; 1 not settled: ${never}\n`)).toBe(true);
  });
});

import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IbaxClient } from '../src/sdk';
import { freePort } from './support/child-node';
import { useTestNode } from './support/node';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = join(__dirname, '..');

/** A program as a child process; its exit code and what it printed. */
function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd ?? ROOT, env: options.env }, (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function clientEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, IBAX_NODE: running.node.url, ...extra };
  delete env.IBAX_KEY;
  return env;
}

/** The package's bin (`ibax`, bin/ibax.cjs) as a child process, against the test node. */
function cli(...args: string[]): Promise<Run> {
  return run(process.execPath, ['bin/ibax.cjs', ...args], { env: clientEnv() });
}

/** An address where nothing listens: a port just freed. */
async function deadAddress(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** A command line written as one string, split at spaces. */
function words(line: string): string[] {
  return line.split(' ');
}

function json(run: Run): any {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

function founderKeyFile(): string {
  return join(running.node.dataDir, 'founder.key');
}

describe('command-line client', () => {
  it('prints the usage, and refuses an unknown command or option with exit code 2', async () => {
    const help = await cli('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('call <Contract>');
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('unknown command "frobnicate"\n(ibax help for the usage)\n');
    const wrongOption = await cli('block', '1', '--out', 'x');
    expect(wrongOption.code).toBe(2);
    const unknownOption = await cli('--frobnicate');
    expect(unknownOption).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'unknown option --frobnicate\n(ibax help for the usage)\n',
    });
  });

  it('prints its version as JSON with --version, -v or version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const form of ['--version', '-v', 'version']) {
      const printed = json(await cli(form));
      expect(Object.keys(printed)).toEqual(['version', 'branch', 'commit']);
      expect(printed.version).toBe(version);
    }
  });

  it('keygen makes a key for the node, into a 0600 file with --out', async () => {
    const node = running.node;
    const printed = json(await cli('keygen'));
    const client = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
    expect(printed.private_key).toMatch(/^[0-9a-f]{64}$/);
    expect(printed.account).toBe(client.accountOf(printed.private_key));
    expect(printed.cryptoer).toBe(node.config.cryptoer);
    expect(printed.key_id).toMatch(/^-?\d+$/);

    const file = join(node.dataDir, 'cli-test.key');
    const written = json(await cli('keygen', '--out', file));
    expect(written.private_key).toBeUndefined();
    expect(written.key_file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8').trim();
    expect(written.account).toBe(client.accountOf(key));
    // The new key logs in (and is registered by it).
    const session = json(await cli('login', '--key-file', file));
    expect(session.account).toBe(written.account);
    // An existing key file is not overwritten.
    const again = await cli('keygen', '--out', file);
    expect(again.code).toBe(1);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
  });

  it('login prints the session', async () => {
    const node = running.node;
    const session = json(await cli('login', '--key', node.founderKey));
    expect(session.token).toEqual(expect.any(String));
    expect(session.ecosystem).toBe('1');
    expect(session.account).toBe(node.client.accountOf(node.founderKey));
    expect(session.key_id).toMatch(/^-?\d+$/);
  });

  it('calls a contract, and reads its status and block back', async () => {
    const called = json(
      await cli(
        ...words('call NewParameter Name=cli_param Value=7 Conditions=true'),
        '--key-file',
        founderKeyFile(),
      ),
    );
    expect(called.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(called.block).toBeGreaterThan(1);
    expect(Number(called.result)).toBeGreaterThan(0);

    const statuses = json(await cli('status', called.hash, '--key', running.node.founderKey));
    expect(statuses[called.hash]).toMatchObject({ blockid: String(called.block), result: called.result });

    const printed = await cli('block', String(called.block));
    const block = json(printed);
    // Hashes in hex, as call and status print them.
    const tx = block.transactions.find((entry: { hash: string }) => entry.hash === called.hash);
    expect(tx, 'the call is in its block, by the hash call printed').toBeDefined();
    expect(tx.contract_name).toBe('@1NewParameter');
    expect(tx.params).toMatchObject({ Name: 'cli_param', Value: '7', Conditions: 'true' });
    const stored = await running.node.client.get(`/api/v2/detailed_blocks?block_id=${called.block}&count=1`);
    const rest = stored.body[String(called.block)];
    for (const name of ['hash', 'rollbacks_hash', 'merkle_root', 'bin_data']) {
      expect(block[name], name).toBe(Buffer.from(rest[name], 'base64').toString('hex'));
    }
    expect(block.hash).toMatch(/^[0-9a-f]{64}$/);
    // Key ids as text: in the printed JSON itself, never a bare number (which jq would round above 2^53).
    expect(printed.stdout).not.toMatch(/"key_id": -?\d/);
    expect(block.key_id).toBe(String(rest.key_id));
    expect(block.header.key_id).toBe(String(rest.header.key_id));
    expect(tx.key_id).toMatch(/^-?\d+$/);
    expect(BigInt(tx.key_id)).toBe(BigInt(json(await cli('login', '--key', running.node.founderKey)).key_id));
  });

  it('sends the 0x80 client envelope with --format client', async () => {
    const called = json(
      await cli(
        ...words('call NewParameter Name=cli_param_client Value=8 Conditions=true --format client'),
        '--key',
        running.node.founderKey,
      ),
    );
    expect(called.block).toBeGreaterThan(1);
  });

  it('reports a failing call on stderr with a non-zero exit code', async () => {
    const key = running.node.founderKey;
    // The parameter exists already: the transaction fails in the block producer.
    const duplicate = await cli(
      ...words('call NewParameter Name=cli_param Value=1 Conditions=true'),
      '--key',
      key,
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toBe('');
    const failure = JSON.parse(duplicate.stderr);
    expect(failure.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(failure.error.error).toEqual(expect.any(String));
    expect(failure.error.error).toContain('cli_param');

    const unknown = await cli('call', 'NoSuchContract', '--key', key);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: contract NoSuchContract/);

    const badArgument = await cli(
      ...words('call NewParameter Name=x Value=1 Conditions=true Colour=red'),
      '--key',
      key,
    );
    expect(badArgument.code).toBe(2);
    expect(badArgument.stderr).toContain('has no parameter Colour');

    const noKey = await cli('call', 'NewParameter', 'Name=x');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('no private key');
  });

  it('runs as `npx ibax` from anywhere in the project, its stdout only the JSON', async () => {
    // --no: never fetch a package of that name from the registry; the bin must be the project's.
    const keygen = await run(
      'npx',
      ['--no', 'ibax', 'keygen', '--cryptoer', 'ECC_P256', '--hasher', 'SHA256'],
      {
        cwd: join(ROOT, 'src'),
        env: clientEnv(),
      },
    );
    const printed = json(keygen);
    expect(keygen.stdout.startsWith('{')).toBe(true);
    expect(printed).toMatchObject({
      cryptoer: 'ECC_P256',
      hasher: 'SHA256',
      key_id: expect.stringMatching(/^-?\d+$/),
    });
  });

  it('names the address it could not reach and how to give it', async () => {
    const address = await deadAddress();
    const failed = await run(process.execPath, ['bin/ibax.cjs', 'block', '1'], {
      env: clientEnv({ IBAX_NODE: address }),
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      `error: cannot reach the node at ${address}: ECONNREFUSED (give its address with --node <url> or IBAX_NODE=<url>)\n`,
    );
  });
});

describe('login-demo', () => {
  const loginDemo = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    run(process.execPath, ['-r', '@swc-node/register', 'scripts/login-demo.ts', ...args], { env });

  it('finds the node by IBAX_NODE, as the CLI does', async () => {
    const demo = await loginDemo(clientEnv({ DATA_DIR: running.node.dataDir }));
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain(`REST login as ${running.node.client.accountOf(running.node.founderKey)}`);
  });

  it('names the address it could not reach and how to give it, with exit code 1', async () => {
    const address = await deadAddress();
    const byVariable = await loginDemo(clientEnv({ IBAX_NODE: address, DATA_DIR: running.node.dataDir }));
    expect(byVariable.code).toBe(1);
    expect(byVariable.stderr).toBe(
      `cannot reach the node at ${address}: ECONNREFUSED (give its address with --node <url> or IBAX_NODE=<url>)\n`,
    );
    const byOption = await loginDemo(clientEnv({ DATA_DIR: running.node.dataDir }), '--node', address);
    expect(byOption.code).toBe(1);
    expect(byOption.stderr).toContain(`cannot reach the node at ${address}: ECONNREFUSED`);
  });
});

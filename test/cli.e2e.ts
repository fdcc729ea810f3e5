import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IbaxClient } from '../src/sdk';
import { useTestNode } from './support/node';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- …` as a child process, against the test node. */
function cli(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, IBAX_NODE: running.node.url };
  delete env.IBAX_KEY;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', 'scripts/cli.ts', ...args],
      { cwd: join(__dirname, '..'), env },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
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
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const wrongOption = await cli('block', '1', '--out', 'x');
    expect(wrongOption.code).toBe(2);
  });

  it('keygen makes a key for the node, into a 0600 file with --out', async () => {
    const node = running.node;
    const printed = json(await cli('keygen'));
    const client = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
    expect(printed.private_key).toMatch(/^[0-9a-f]{64}$/);
    expect(printed.account).toBe(client.accountOf(printed.private_key));
    expect(printed.cryptoer).toBe(node.config.cryptoer);

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

    const block = json(await cli('block', String(called.block)));
    const base64 = Buffer.from(called.hash, 'hex').toString('base64');
    const tx = block.transactions.find((entry: { hash: string }) => entry.hash === base64);
    expect(tx, 'the call is in its block').toBeDefined();
    expect(tx.contract_name).toBe('@1NewParameter');
    expect(tx.params).toMatchObject({ Name: 'cli_param', Value: '7', Conditions: 'true' });
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
});

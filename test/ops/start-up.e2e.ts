import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentSchema } from '../../src/config';
import { freePort, killChildNode, startChildNode, type ChildNode } from '../support/child-node';
import { createTestDatabase, newDataDir } from '../support/node';

/**
 * What a person sees when the node is started: `--help` and `--version` without a start, one line naming
 * the setting for each start-up failure, and the log's format and level.
 */

let dataDir: string;
let child: ChildNode | undefined;

beforeAll(() => {
  // Bundled first, so that a bundling notice on stderr does not stand before the line under test.
  execFileSync(process.execPath, ['scripts/start.cjs', '--bundle-only'], { stdio: 'ignore' });
  dataDir = newDataDir();
});

afterAll(async () => {
  await killChildNode(child);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, as `npm start` would run the node, with these settings. */
function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(command, args, {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', LOG_FORMAT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const startNode = (env: Record<string, string>) => run(process.execPath, ['scripts/start.cjs'], env);

/** The node's log lines at warn or above: a failed start reports itself on stderr, not there too. */
const warnings = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .filter((line) => (JSON.parse(line) as { level: number }).level >= 40);

describe('--help and --version', () => {
  it('--help prints the usage and every setting of the schema with its meaning, and starts nothing', async () => {
    const unused = join(dataDir, 'help');
    const { code, stdout, stderr } = await run(process.execPath, ['scripts/start.cjs', '--help'], {
      DATA_DIR: unused,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Usage: npm start \[-- --help \| --version\]\n/);
    for (const [name, schema] of Object.entries(environmentSchema.shape)) {
      expect(schema.description, name).toBeTruthy();
      expect(stdout).toMatch(new RegExp(`^  ${name} +\\S+ +${escapeRegExp(schema.description!)}$`, 'm'));
    }
    expect(stdout).toMatch(/^ {2}PORT +7079 +/m);
    expect(stdout).toMatch(/^ {2}LOG_FORMAT +unset +json or pretty/m);
    expect(existsSync(unused)).toBe(false);
  });

  it('`npm start -- --version` reaches the node through scripts/start.cjs and prints its version', async () => {
    const unused = join(dataDir, 'version');
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const { code, stdout } = await run('npm', ['start', '-s', '--', '--version'], { DATA_DIR: unused });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^ibax-node ${escapeRegExp(version)} \\(branch \\S+, commit \\S+\\)\\n$`),
    );
    expect(existsSync(unused)).toBe(false);
  });

  it('an unknown argument is one line and exit 1', async () => {
    const { code, stdout, stderr } = await run(process.execPath, ['scripts/start.cjs', '--verison'], {});
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      'unknown argument --verison: the node takes --help or --version; settings come from the environment\n',
    );
  });
});

describe('a start that fails prints one line naming the setting and exits 1', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;

  /** The server of TEST_DATABASE_URL with another database or role. */
  function onTheServer(change: (url: URL) => void): string {
    const url = new URL(serverUrl!);
    change(url);
    return url.toString();
  }

  it.skipIf(!serverUrl)('a database that does not exist, and how to create it', async () => {
    const url = onTheServer((u) => (u.pathname = '/no_such_database_i19'));
    const { hostname, port, username } = new URL(url);
    const server = [`-h ${hostname}`, port && `-p ${port}`, username && `-U ${username}`].filter(Boolean);
    const { code, stdout, stderr } = await startNode({ DATA_DIR: dataDir, DATABASE_URL: url });
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `DATABASE_URL=${JSON.stringify(url)}: database "no_such_database_i19" does not exist; ` +
        `create it with: createdb ${server.join(' ')} "no_such_database_i19"\n`,
    });
  });

  it.skipIf(!serverUrl)('a role that does not exist, its password not shown', async () => {
    const url = onTheServer((u) => {
      u.username = 'no_such_role_i19';
      u.password = 'secret';
    });
    const { code, stdout, stderr } = await startNode({ DATA_DIR: dataDir, DATABASE_URL: url });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    // Which of these the server says depends on its pg_hba.conf (trust, or a password method).
    expect(stderr).toMatch(
      new RegExp(
        `^DATABASE_URL=${escapeRegExp(JSON.stringify(url.replace(':secret@', ':***@')))}: ` +
          '(role "no_such_role_i19" does not exist|password authentication failed for user "no_such_role_i19")\\n$',
      ),
    );
    expect(stderr).not.toContain('secret');
  });

  it('a database server that refuses the connection', async () => {
    const port = await freePort();
    const url = `postgres://postgres@127.0.0.1:${port}/ibax`;
    const { code, stdout, stderr } = await startNode({ DATA_DIR: dataDir, DATABASE_URL: url });
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `DATABASE_URL="${url}": nothing accepts connections at 127.0.0.1:${port} (ECONNREFUSED); ` +
        'is PostgreSQL running there?\n',
    });
  });

  it('a database host that does not exist', async () => {
    const url = 'postgres://postgres@no-such-host.invalid:5432/ibax';
    const { code, stdout, stderr } = await startNode({ DATA_DIR: dataDir, DATABASE_URL: url });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    // ENOTFOUND where a resolver answers, EAI_AGAIN where none can be asked.
    expect(stderr).toMatch(
      new RegExp(
        `^DATABASE_URL="${escapeRegExp(url)}": unknown host no-such-host\\.invalid \\((ENOTFOUND|EAI_AGAIN)\\)\\n$`,
      ),
    );
  });

  it('a port in use', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const { code, stdout, stderr } = await startNode({ DATA_DIR: dataDir, PORT: String(port) });
      expect({ code, stderr }).toEqual({
        code: 1,
        stderr: `PORT=${port}: 127.0.0.1:${port} is already in use (EADDRINUSE)\n`,
      });
      expect(warnings(stdout)).toEqual([]);
      // The default level (info) leaves out Nest's route lines.
      expect(stdout).not.toContain('Mapped {');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('a HOST that is no known host', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await startNode({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: 'no-such-host.invalid',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^HOST="no-such-host\.invalid": unknown host \((ENOTFOUND|EAI_AGAIN)\)\n$/);
    expect(warnings(stdout)).toEqual([]);
  });

  it.skipIf(!serverUrl)(
    "a data directory whose node key is not an honor node of the database's chain",
    async () => {
      const database = await createTestDatabase();
      const otherDir = newDataDir();
      try {
        const maker = await startChildNode({ dataDir, databaseUrl: database.url, port: await freePort() });
        await killChildNode(maker);
        const { code, stdout, stderr } = await startNode({ DATA_DIR: otherDir, DATABASE_URL: database.url! });
        expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
        expect(stderr).toMatch(
          new RegExp(
            `^DATA_DIR=${escapeRegExp(JSON.stringify(otherDir))}: its node key \\(node\\.key\\) is not an honor ` +
              'node of the chain in the database \\(it lists 04[0-9a-f]{128}\\); use the data directory the chain ' +
              'was made with\\n$',
          ),
        );
      } finally {
        rmSync(otherDir, { recursive: true, force: true });
        await database.drop();
      }
    },
  );

  it('a DATA_DIR that cannot be created (under /proc) fails instead of hanging', async () => {
    const { code, stdout, stderr } = await startNode({ DATA_DIR: '/proc/ibax-node-data' });
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'DATA_DIR="/proc/ibax-node-data": cannot be created (ENOENT)\n',
    });
  });
});

describe('logs', () => {
  it("are JSON lines, Nest's route and module lines at debug, the start banner at info", async () => {
    child = await startChildNode({
      dataDir,
      databaseUrl: undefined,
      port: await freePort(),
      env: { LOG_LEVEL: 'debug' },
    });
    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    const lines = child
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; context?: string });
    const mapped = lines.filter((line) => line.msg.startsWith('Mapped {'));
    const wired = lines.filter((line) => line.msg.endsWith(' dependencies initialized'));
    expect(mapped.length).toBeGreaterThan(10);
    expect(wired.length).toBeGreaterThan(10);
    // debug is 20: hidden at the default level (info, 30).
    expect(new Set([...mapped, ...wired].map((line) => line.level))).toEqual(new Set([20]));
    const banner = lines.filter((line) => line.context === 'Node');
    expect(banner).toHaveLength(1);
    expect(banner[0]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(/^IBAX node listening on http:\/\/127\.0\.0\.1:\d+ /),
    });
  });

  it('LOG_FORMAT=pretty prints readable lines, not JSON', async () => {
    child = await startChildNode({
      dataDir,
      databaseUrl: undefined,
      port: await freePort(),
      env: { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
    });
    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    const lines = child.output().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.startsWith('{'), line).toBe(false);
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[[\d:.]+\] INFO: \[Node\] IBAX node listening on http:\/\/127\.0\.0\.1:\d+ /),
    );
    expect(lines).not.toContainEqual(expect.stringContaining('Mapped {'));
  });
});

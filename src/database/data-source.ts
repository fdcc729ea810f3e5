import { join } from 'node:path';
import { types as pgliteTypes } from '@electric-sql/pglite';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { ExclusivePGlitePool } from './embedded-pool';
import { MIGRATIONS } from './migrations';

export interface DatabaseSettings {
  /** A PostgreSQL server; unset means the embedded PGlite database in `dataDir/pgdata`. */
  databaseUrl?: string;
  dataDir: string;
  logging?: boolean;
}

/**
 * 64-bit integers and numerics come back as text from both drivers (node-postgres does this by default;
 * PGlite is told to), so no value ever passes through a JS number; callers convert with BigInt().
 */
const asText = (value: string) => value;

export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: settings.logging ?? false,
  };
  if (settings.databaseUrl) {
    return { ...common, url: settings.databaseUrl, extra: { max: 10 } };
  }
  const embedded = new PGliteDriver({
    dataDir: join(settings.dataDir, 'pgdata'),
    parsers: { [pgliteTypes.INT8]: asText, [pgliteTypes.NUMERIC]: asText },
  }).driver;
  embedded.Pool = ExclusivePGlitePool;
  return { ...common, driver: embedded };
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}

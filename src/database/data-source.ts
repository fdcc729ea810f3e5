import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import type { DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { embeddedDataDir } from './embedded-init';
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

/**
 * PostgreSQL's shared buffers live in PGlite's WebAssembly heap, which is resident once touched and never
 * shrinks; the default 128 MB made up most of the embedded node's memory. A single session with the
 * files in the OS page cache does as well with 16 MB (bench/README.md, "Embedded node: memory and start").
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

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
    dataDir: embeddedDataDir(settings.dataDir),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    parsers: { [pgliteTypes.INT8]: asText, [pgliteTypes.NUMERIC]: asText },
  }).driver;
  embedded.Pool = ExclusivePGlitePool;
  return { ...common, driver: embedded };
}

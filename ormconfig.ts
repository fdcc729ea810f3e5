/**
 * The DataSource for the TypeORM CLI, built from the same configuration as the node, with every fixed
 * table's entity (so `schema:log` compares them with the database and finds nothing to change). The CLI
 * needs the TypeScript loader: `node -r @swc-node/register node_modules/typeorm/cli.js -d ormconfig.ts
 * migration:show` (or `schema:log`). The node itself runs its migrations at start-up.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config';
import { dataSourceOptions } from './src/database/data-source';
import { openEmbeddedPostgres } from './src/database/embedded-postgres';
import { ENTITIES } from './src/entities';

const config = loadConfig();

/** On the embedded database the CLI starts its server (the node must not be running on the data directory). */
async function dataSource(): Promise<DataSource> {
  const connection = config.databaseUrl
    ? { url: config.databaseUrl }
    : { embedded: (await openEmbeddedPostgres(config.dataDir)).connection };
  return new DataSource({ ...dataSourceOptions(connection), entities: ENTITIES });
}

export default dataSource();

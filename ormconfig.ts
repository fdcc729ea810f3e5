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
import { ENTITIES } from './src/entities';

const config = loadConfig();

export default new DataSource({
  ...dataSourceOptions({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  entities: ENTITIES,
});

/**
 * The DataSource for the TypeORM CLI (`npx typeorm -d ormconfig.ts migration:show`), built from the same
 * configuration as the node. The node itself runs its migrations at start-up.
 */
import 'reflect-metadata';
import { loadConfig } from './src/config';
import { createDataSource } from './src/database/data-source';

const config = loadConfig();

export default createDataSource({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });

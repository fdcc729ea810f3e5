import { ACCOUNTS_ENTITIES } from './accounts/entities';
import { BINARIES_ENTITIES } from './binaries/entities';
import { BLOCKS_ENTITIES } from './blocks/entities';
import { CONTRACTS_ENTITIES } from './contracts/entities';
import { DATABASE_ENTITIES } from './database/entities';
import { ECOSYSTEM_ENTITIES } from './ecosystem/entities';
import { INTERFACE_ENTITIES } from './interface/entities';
import { NOTIFY_ENTITIES } from './notify/entities';
import { PARAMS_ENTITIES } from './params/entities';
import { TABLES_ENTITIES } from './tables/entities';
import { TX_ENTITIES } from './tx/entities';

/**
 * Every fixed table's entity, for tools that see the whole schema at once (the TypeORM CLI, the schema
 * test). The node itself registers them per domain (`TypeOrmModule.forFeature`, `autoLoadEntities`).
 */
export const ENTITIES = [
  ...DATABASE_ENTITIES,
  ...BLOCKS_ENTITIES,
  ...TX_ENTITIES,
  ...ACCOUNTS_ENTITIES,
  ...ECOSYSTEM_ENTITIES,
  ...PARAMS_ENTITIES,
  ...INTERFACE_ENTITIES,
  ...CONTRACTS_ENTITIES,
  ...TABLES_ENTITIES,
  ...BINARIES_ENTITIES,
  ...NOTIFY_ENTITIES,
];

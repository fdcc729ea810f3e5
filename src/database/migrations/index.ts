import { PlatformTables1763769600000 } from './1763769600000-platform-tables';
import { EcosystemTables1763769600001 } from './1763769600001-ecosystem-tables';
import { Finality1763769600002 } from './1763769600002-finality';
import { QueueTime1763769600003 } from './1763769600003-queue-time';

/** In the order they run. */
export const MIGRATIONS = [
  PlatformTables1763769600000,
  EcosystemTables1763769600001,
  Finality1763769600002,
  QueueTime1763769600003,
];

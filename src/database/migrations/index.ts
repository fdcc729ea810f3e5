import { PlatformTables1763769600000 } from './1763769600000-platform-tables';
import { EcosystemTables1763769600001 } from './1763769600001-ecosystem-tables';

/** In the order they run. */
export const MIGRATIONS = [PlatformTables1763769600000, EcosystemTables1763769600001];

import { InstallEntity } from './install.entity';
import { MigrationHistoryEntity } from './migration-history.entity';
import { StopDaemonEntity } from './stop-daemon.entity';

export { InstallEntity, MigrationHistoryEntity, StopDaemonEntity };

export const DATABASE_ENTITIES = [InstallEntity, MigrationHistoryEntity, StopDaemonEntity];

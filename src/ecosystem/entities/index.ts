import { EcosystemEntity } from './ecosystem.entity';
import { RoleParticipantEntity } from './role-participant.entity';
import { RoleEntity } from './role.entity';
import { TimeZoneEntity } from './time-zone.entity';

export { EcosystemEntity, RoleEntity, RoleParticipantEntity, TimeZoneEntity };

export const ECOSYSTEM_ENTITIES = [EcosystemEntity, RoleEntity, RoleParticipantEntity, TimeZoneEntity];

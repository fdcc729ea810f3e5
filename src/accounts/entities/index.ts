import { HistoryEntity } from './history.entity';
import { KeyEntity } from './key.entity';
import { MemberEntity } from './member.entity';
import { SpentInfoEntity } from './spent-info.entity';

export { HistoryEntity, KeyEntity, MemberEntity, SpentInfoEntity };

export const ACCOUNTS_ENTITIES = [KeyEntity, MemberEntity, SpentInfoEntity, HistoryEntity];

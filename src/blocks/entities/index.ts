import { BadBlockEntity } from './bad-block.entity';
import { BlockEntity } from './block.entity';
import { InfoBlockEntity } from './info-block.entity';
import { NodeBanLogEntity } from './node-ban-log.entity';
import { QueueBlockEntity } from './queue-block.entity';
import { RollbackTxEntity } from './rollback-tx.entity';

export { BadBlockEntity, BlockEntity, InfoBlockEntity, NodeBanLogEntity, QueueBlockEntity, RollbackTxEntity };

export const BLOCKS_ENTITIES = [
  BlockEntity,
  InfoBlockEntity,
  QueueBlockEntity,
  RollbackTxEntity,
  BadBlockEntity,
  NodeBanLogEntity,
];

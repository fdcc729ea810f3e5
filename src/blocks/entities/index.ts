import { BadBlockEntity } from './bad-block.entity';
import { BlockVoteEntity } from './block-vote.entity';
import { BlockEntity } from './block.entity';
import { FinalBlockEntity } from './final-block.entity';
import { InfoBlockEntity } from './info-block.entity';
import { NodeBanLogEntity } from './node-ban-log.entity';
import { QueueBlockEntity } from './queue-block.entity';
import { RollbackTxEntity } from './rollback-tx.entity';

export {
  BadBlockEntity,
  BlockEntity,
  BlockVoteEntity,
  FinalBlockEntity,
  InfoBlockEntity,
  NodeBanLogEntity,
  QueueBlockEntity,
  RollbackTxEntity,
};

export const BLOCKS_ENTITIES = [
  BlockEntity,
  InfoBlockEntity,
  QueueBlockEntity,
  RollbackTxEntity,
  BadBlockEntity,
  NodeBanLogEntity,
  BlockVoteEntity,
  FinalBlockEntity,
];

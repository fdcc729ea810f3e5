import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Reports of bad blocks against their producers, counted to decide when a node is banned. */
@Entity({ name: '1_bad_blocks' })
export class BadBlockEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'producer_node_id', type: 'bigint' })
  producerNodeId!: string;

  @Column({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ name: 'consumer_node_id', type: 'bigint' })
  consumerNodeId!: string;

  @Column({ name: 'block_time', type: 'timestamp' })
  blockTime!: Date;

  @Column({ type: 'text', default: '' })
  reason!: string;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;
}

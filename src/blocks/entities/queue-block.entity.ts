import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Blocks announced by other honor nodes and waiting to be fetched (the reference node's P2P queue). */
@Entity({ name: 'queue_blocks' })
export class QueueBlockEntity {
  @PrimaryColumn({ type: 'bytea' })
  hash!: Buffer;

  @Column({ name: 'honor_node_id', type: 'bigint' })
  honorNodeId!: string;

  @Column({ name: 'block_id', type: 'bigint' })
  blockId!: string;
}

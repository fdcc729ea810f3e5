import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The chain itself: every block the node has accepted, kept whole so it can be served and replayed. */
@Entity({ name: 'block_chain' })
@Index('block_chain_hash_idx', ['hash'], { unique: true })
@Index('block_chain_node_position_time_idx', ['nodePosition', 'time'])
export class BlockEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bytea' })
  hash!: Buffer;

  @Column({ name: 'rollbacks_hash', type: 'bytea' })
  rollbacksHash!: Buffer;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ name: 'ecosystem_id', type: 'bigint', default: 0 })
  ecosystemId!: string;

  @Column({ name: 'key_id', type: 'bigint', default: 0 })
  keyId!: string;

  @Column({ name: 'node_position', type: 'bigint', default: 0 })
  nodePosition!: string;

  @Column({ type: 'bigint' })
  time!: string;

  @Column({ type: 'integer', default: 0 })
  tx!: number;

  @Column({ name: 'consensus_mode', type: 'integer', default: 1 })
  consensusMode!: number;

  @Column({ name: 'candidate_nodes', type: 'bytea', nullable: true })
  candidateNodes!: Buffer | null;
}

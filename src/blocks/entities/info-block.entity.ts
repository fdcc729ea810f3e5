import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The chain's tip in one row, so the next block is built and the height served without reading the chain. */
@Entity({ name: 'info_block', synchronize: false })
@Index('info_block_sent_idx', ['sent'])
export class InfoBlockEntity {
  @Column({ type: 'bytea' })
  hash!: Buffer;

  @Column({ name: 'rollbacks_hash', type: 'bytea' })
  rollbacksHash!: Buffer;

  // The table has no primary key (one row); TypeORM needs one, hence this stand-in and `synchronize: false`.
  @PrimaryColumn({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ name: 'node_position', type: 'bigint', default: 0 })
  nodePosition!: string;

  @Column({ name: 'ecosystem_id', type: 'bigint', default: 0 })
  ecosystemId!: string;

  @Column({ name: 'key_id', type: 'bigint', default: 0 })
  keyId!: string;

  @Column({ type: 'bigint' })
  time!: string;

  @Column({ name: 'current_version', type: 'varchar', length: 50, default: '0.0.1' })
  currentVersion!: string;

  @Column({ type: 'smallint', default: 0 })
  sent!: number;

  @Column({ name: 'consensus_mode', type: 'integer', default: 1 })
  consensusMode!: number;

  @Column({ name: 'candidate_nodes', type: 'bytea', nullable: true })
  candidateNodes!: Buffer | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An honor node's signed vote for the block it applied at a height: at most one per node and height. */
@Entity({ name: 'block_votes' })
export class BlockVoteEntity {
  @PrimaryColumn({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  /** The voter's node key, 64 bytes without the 04 prefix. */
  @PrimaryColumn({ type: 'bytea' })
  voter!: Buffer;

  @Column({ type: 'bytea' })
  hash!: Buffer;

  @Column({ type: 'bytea' })
  signature!: Buffer;
}

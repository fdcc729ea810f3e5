import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The highest final block this node holds (one row): nothing at or below it is ever taken back. */
@Entity({ name: 'final_block' })
export class FinalBlockEntity {
  @PrimaryColumn({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ type: 'bytea' })
  hash!: Buffer;
}

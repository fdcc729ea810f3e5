import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many honor nodes agreed or disagreed with each block, the confirmations txinfo reports. */
@Entity({ name: 'confirmations' })
export class ConfirmationEntity {
  @PrimaryColumn({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ type: 'integer', default: 0 })
  good!: number;

  @Column({ type: 'integer', default: 0 })
  bad!: number;

  @Column({ type: 'bigint', default: 0 })
  time!: string;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Contracts the platform calls itself from a given block on, every so many blocks (@1CheckNodesBan). */
@Entity({ name: '1_delayed_contracts' })
@Index('1_delayed_contracts_block_idx', ['blockId'])
export class DelayedContractEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  contract!: string;

  @Column({ name: 'key_id', type: 'bigint', default: 0 })
  keyId!: string;

  @Column({ name: 'block_id', type: 'bigint', default: 0 })
  blockId!: string;

  @Column({ name: 'every_block', type: 'bigint', default: 0 })
  everyBlock!: string;

  @Column({ type: 'bigint', default: 0 })
  counter!: string;

  @Column({ name: 'high_rate', type: 'bigint', default: 0 })
  highRate!: string;

  @Column({ type: 'bigint', default: 0 })
  limit!: string;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;
}

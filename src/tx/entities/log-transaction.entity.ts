import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Every transaction in the chain with its block, so a hash is found (and a replay refused) quickly. */
@Entity({ name: 'log_transactions' })
@Index('log_transactions_block_idx', ['block'])
export class LogTransactionEntity {
  @PrimaryColumn({ type: 'bytea' })
  hash!: Buffer;

  @Column({ type: 'bigint' })
  block!: string;

  @Column({ type: 'bigint' })
  timestamp!: string;

  @Column({ name: 'contract_name', type: 'varchar', length: 255, default: '' })
  contractName!: string;

  @Column({ type: 'bigint', default: 0 })
  address!: string;

  @Column({ name: 'ecosystem_id', type: 'bigint', default: 1 })
  ecosystemId!: string;

  @Column({ type: 'bigint', default: 0 })
  status!: string;
}

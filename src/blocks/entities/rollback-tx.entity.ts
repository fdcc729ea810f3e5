import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** The journal of row changes per transaction: what a rollback restores, and what row history reads. */
@Entity({ name: 'rollback_tx' })
@Index('rollback_tx_table_idx', ['tableName', 'tableId', 'blockId'])
@Index('rollback_tx_block_idx', ['blockId'])
export class RollbackTxEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ name: 'tx_hash', type: 'bytea' })
  txHash!: Buffer;

  @Column({ name: 'table_name', type: 'varchar', length: 255 })
  tableName!: string;

  @Column({ name: 'table_id', type: 'varchar', length: 255 })
  tableId!: string;

  @Column({ name: 'data_hash', type: 'bytea', nullable: true })
  dataHash!: Buffer | null;

  @Column({ type: 'text', default: '' })
  data!: string;
}

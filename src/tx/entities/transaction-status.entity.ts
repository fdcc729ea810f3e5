import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What became of each sent transaction (waiting, in a block, or its error), for txstatus. */
@Entity({ name: 'transactions_status' })
export class TransactionStatusEntity {
  @PrimaryColumn({ type: 'bytea' })
  hash!: Buffer;

  @Column({ type: 'bigint' })
  time!: string;

  @Column({ type: 'integer' })
  type!: number;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'wallet_id', type: 'bigint' })
  walletId!: string;

  @Column({ name: 'block_id', type: 'bigint', default: 0 })
  blockId!: string;

  @Column({ type: 'text', default: '' })
  error!: string;

  @Column({ type: 'integer', default: 0 })
  penalty!: number;
}

import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The mempool: admitted transactions waiting for a block, in the order the producer picks them. */
@Entity({ name: 'transactions' })
@Index('transactions_state_idx', ['sent', 'used', 'verified', 'highRate'])
@Check('transactions_expedite_check', '"expedite" >= 0')
export class TransactionEntity {
  @PrimaryColumn({ type: 'bytea' })
  hash!: Buffer;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ type: 'smallint', default: 0 })
  used!: number;

  @Column({ name: 'high_rate', type: 'smallint', default: 0 })
  highRate!: number;

  @Column({ type: 'numeric', precision: 30, scale: 0, default: 0 })
  expedite!: string;

  @Column({ type: 'bigint' })
  time!: string;

  @Column({ type: 'smallint', default: 0 })
  type!: number;

  @Column({ name: 'key_id', type: 'bigint', default: 0 })
  keyId!: string;

  @Column({ type: 'smallint', default: 0 })
  sent!: number;

  @Column({ type: 'smallint', default: 1 })
  verified!: number;

  /** When it entered this node's queue, Unix ms by the node's clock. */
  @Column({ name: 'queued_at', type: 'bigint', default: 0 })
  queuedAt!: string;
}

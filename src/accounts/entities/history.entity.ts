import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Every token movement with both balances after it, the wallet history an account reads. */
@Entity({ name: '1_history' })
@Index('1_history_sender_idx', ['ecosystem', 'senderId'])
@Index('1_history_recipient_idx', ['ecosystem', 'recipientId'])
@Index('1_history_block_tx_idx', ['blockId', 'txhash'])
export class HistoryEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'sender_id', type: 'bigint', default: 0 })
  senderId!: string;

  @Column({ name: 'recipient_id', type: 'bigint', default: 0 })
  recipientId!: string;

  @Column({ name: 'sender_balance', type: 'numeric', precision: 30, scale: 0, default: 0 })
  senderBalance!: string;

  @Column({ name: 'recipient_balance', type: 'numeric', precision: 30, scale: 0, default: 0 })
  recipientBalance!: string;

  @Column({ type: 'numeric', precision: 30, scale: 0, default: 0 })
  amount!: string;

  @Column({ name: 'value_detail', type: 'jsonb', default: {} })
  valueDetail!: Record<string, unknown>;

  @Column({ type: 'text', default: '' })
  comment!: string;

  @Column({ type: 'bigint', default: 0 })
  status!: string;

  @Column({ name: 'block_id', type: 'bigint', default: 0 })
  blockId!: string;

  @Column({ type: 'bytea', default: '\\x' })
  txhash!: Buffer;

  @Column({ name: 'created_at', type: 'bigint', default: 0 })
  createdAt!: string;

  @Column({ type: 'bigint', default: 1 })
  type!: string;
}

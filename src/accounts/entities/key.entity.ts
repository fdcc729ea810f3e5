import { Check, Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/** Accounts of every ecosystem: public key, balance and state per key id, checked by every transaction. */
@Entity({ name: '1_keys' })
@Unique('1_keys_ecosystem_account_key', ['ecosystem', 'account'])
@Index('1_keys_account_idx', ['account'])
@Index('1_keys_id_idx', ['id'])
@Check('1_keys_amount_check', '"amount" >= 0')
@Check('1_keys_maxpay_check', '"maxpay" >= 0')
export class KeyEntity {
  // Declared before `id`: the primary key is (ecosystem, id), in this order.
  @PrimaryColumn({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bytea', default: '\\x' })
  pub!: Buffer;

  @Column({ type: 'numeric', precision: 30, scale: 0, default: 0 })
  amount!: string;

  @Column({ type: 'numeric', precision: 30, scale: 0, default: 0 })
  maxpay!: string;

  @Column({ type: 'bigint', default: 0 })
  multi!: string;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;

  @Column({ type: 'bigint', default: 0 })
  blocked!: string;

  @Column({ type: 'char', length: 24 })
  account!: string;
}

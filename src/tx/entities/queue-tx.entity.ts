import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** Transactions received but not yet checked (the reference node's admission queue). */
@Entity({ name: 'queue_tx' })
@Check('queue_tx_expedite_check', '"expedite" >= 0')
export class QueueTxEntity {
  @PrimaryColumn({ type: 'bytea' })
  hash!: Buffer;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ name: 'from_gate', type: 'integer', default: 0 })
  fromGate!: number;

  @Column({ type: 'numeric', precision: 30, scale: 0, default: 0 })
  expedite!: string;

  @Column({ type: 'bigint' })
  time!: string;
}

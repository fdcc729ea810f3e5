import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The UTXO set: transfer outputs and who spent them, the second kind of balance beside `1_keys`. */
@Entity({ name: 'spent_info' })
@Index('spent_info_block_id_idx', ['blockId'])
@Index('spent_info_input_tx_hash_idx', ['inputTxHash'])
@Index('spent_info_output_key_id_idx', ['outputKeyId'])
@Index('spent_info_output_tx_hash_idx', ['outputTxHash'])
@Check('spent_info_output_value_check', '"output_value" >= 0')
export class SpentInfoEntity {
  // The key columns come first, in the primary key's order (output_tx_hash, output_key_id, output_index).
  @PrimaryColumn({ name: 'output_tx_hash', type: 'bytea' })
  outputTxHash!: Buffer;

  @PrimaryColumn({ name: 'output_key_id', type: 'bigint' })
  outputKeyId!: string;

  @PrimaryColumn({ name: 'output_index', type: 'integer' })
  outputIndex!: number;

  @Column({ name: 'input_tx_hash', type: 'bytea', nullable: true })
  inputTxHash!: Buffer | null;

  @Column({ name: 'input_index', type: 'integer', nullable: true })
  inputIndex!: number | null;

  @Column({ name: 'output_value', type: 'numeric', precision: 30, scale: 0 })
  outputValue!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'block_id', type: 'bigint' })
  blockId!: string;

  @Column({ type: 'bigint' })
  type!: string;
}

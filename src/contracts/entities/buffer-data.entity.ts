import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Values an account keeps between its contract calls under a key (e.g. an application import in parts). */
@Entity({ name: '1_buffer_data' })
export class BufferDataEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  key!: string;

  @Column({ type: 'jsonb', default: {} })
  value!: Record<string, unknown>;

  @Column({ type: 'char', length: 24 })
  account!: string;
}

import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The catalogue of each ecosystem's tables: columns, and who may insert, update and add columns. */
@Entity({ name: '1_tables' })
@Unique('1_tables_ecosystem_name_key', ['ecosystem', 'name'])
export class TableEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  columns!: Record<string, unknown>;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;
}

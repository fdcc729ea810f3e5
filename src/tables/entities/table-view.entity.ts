import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The views contracts define over an ecosystem's tables (columns and joins), and who may change them. */
@Entity({ name: '1_views' })
@Unique('1_views_ecosystem_name_key', ['ecosystem', 'name'])
export class TableViewEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'jsonb', default: {} })
  columns!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  wheres!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;
}

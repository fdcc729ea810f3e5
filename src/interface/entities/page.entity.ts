import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The pages of each ecosystem: template source, menu and validation settings, what content/page renders. */
@Entity({ name: '1_pages' })
@Unique('1_pages_ecosystem_name_key', ['ecosystem', 'name'])
export class PageEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  menu!: string;

  @Column({ name: 'validate_count', type: 'bigint', default: 1 })
  validateCount!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;

  @Column({ name: 'validate_mode', type: 'char', length: 1, default: '0' })
  validateMode!: string;
}

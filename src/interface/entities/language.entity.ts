import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Language resources of each ecosystem: the translations `$label$` in pages and sections resolves to. */
@Entity({ name: '1_languages' })
@Index('1_languages_ecosystem_name_idx', ['ecosystem', 'name'])
export class LanguageEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', default: '' })
  res!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;
}

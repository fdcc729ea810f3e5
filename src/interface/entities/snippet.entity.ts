import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Reusable template pieces of each ecosystem, which pages pull in by name. */
@Entity({ name: '1_snippets' })
@Unique('1_snippets_ecosystem_name_key', ['ecosystem', 'name'])
export class SnippetEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;
}

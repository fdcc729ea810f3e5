import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The menus of each ecosystem (template source), shown beside the pages that name them. */
@Entity({ name: '1_menu' })
@Unique('1_menu_ecosystem_name_key', ['ecosystem', 'name'])
export class MenuEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  title!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;
}

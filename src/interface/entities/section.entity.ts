import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The sections (top tabs) of each ecosystem's interface, their start page and the roles that see them. */
@Entity({ name: '1_sections' })
@Index('1_sections_ecosystem_idx', ['ecosystem', 'status'])
export class SectionEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  title!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  urlname!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  page!: string;

  @Column({ name: 'roles_access', type: 'jsonb', default: [] })
  rolesAccess!: unknown[];

  @Column({ type: 'bigint', default: 0 })
  status!: string;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The roles of each ecosystem, which sessions log in with and contracts and pages grant access to. */
@Entity({ name: '1_roles' })
@Index('1_roles_deleted_idx', ['ecosystem', 'deleted'])
@Index('1_roles_type_idx', ['ecosystem', 'roleType'])
export class RoleEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'default_page', type: 'varchar', length: 255, default: '' })
  defaultPage!: string;

  @Column({ name: 'role_name', type: 'varchar', length: 255 })
  roleName!: string;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;

  @Column({ name: 'role_type', type: 'bigint', default: 0 })
  roleType!: string;

  @Column({ type: 'jsonb', default: {} })
  creator!: Record<string, unknown>;

  @Column({ name: 'date_created', type: 'timestamp', nullable: true })
  dateCreated!: Date | null;

  @Column({ name: 'date_deleted', type: 'timestamp', nullable: true })
  dateDeleted!: Date | null;

  @Column({ name: 'company_id', type: 'bigint', default: 0 })
  companyId!: string;

  @Column({ name: 'roles_access', type: 'jsonb', default: [] })
  rolesAccess!: unknown[];

  @Column({ name: 'image_id', type: 'bigint', default: 0 })
  imageId!: string;
}

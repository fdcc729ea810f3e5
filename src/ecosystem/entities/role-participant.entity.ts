import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Which member holds which role, the check behind logging in with a role. */
@Entity({ name: '1_roles_participants' })
@Index('1_roles_participants_ecosystem_idx', ['ecosystem', 'deleted'])
export class RoleParticipantEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'jsonb', default: {} })
  role!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  member!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  appointed!: Record<string, unknown>;

  @Column({ name: 'date_created', type: 'timestamp', nullable: true })
  dateCreated!: Date | null;

  @Column({ name: 'date_deleted', type: 'timestamp', nullable: true })
  dateDeleted!: Date | null;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;
}

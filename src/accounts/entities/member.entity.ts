import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The members of each ecosystem (name, avatar, profile), one per account and ecosystem. */
@Entity({ name: '1_members' })
@Unique('1_members_account_ecosystem_key', ['account', 'ecosystem'])
export class MemberEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'member_name', type: 'varchar', length: 255, default: '' })
  memberName!: string;

  @Column({ name: 'image_id', type: 'bigint', nullable: true })
  imageId!: string | null;

  @Column({ name: 'member_info', type: 'jsonb', default: {} })
  memberInfo!: Record<string, unknown>;

  @Column({ type: 'char', length: 24 })
  account!: string;
}

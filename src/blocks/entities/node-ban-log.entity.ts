import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Honor nodes banned from producing blocks, and until when, so the ban outlives a restart. */
@Entity({ name: '1_node_ban_logs' })
export class NodeBanLogEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'node_id', type: 'bigint' })
  nodeId!: string;

  @Column({ name: 'banned_at', type: 'timestamp' })
  bannedAt!: Date;

  @Column({ name: 'ban_time', type: 'bigint' })
  banTime!: string;

  @Column({ type: 'text', default: '' })
  reason!: string;
}

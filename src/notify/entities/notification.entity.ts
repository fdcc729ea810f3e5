import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Notifications to members or roles, with who sent them and whether they were taken up or closed. */
@Entity({ name: '1_notifications' })
@Index('1_notifications_ecosystem_idx', ['ecosystem', 'closed'])
export class NotificationEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'jsonb', default: {} })
  recipient!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  sender!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  notification!: Record<string, unknown>;

  @Column({ name: 'page_params', type: 'jsonb', default: {} })
  pageParams!: Record<string, unknown>;

  @Column({ name: 'processing_info', type: 'jsonb', default: {} })
  processingInfo!: Record<string, unknown>;

  @Column({ name: 'page_name', type: 'varchar', length: 255, default: '' })
  pageName!: string;

  @Column({ name: 'date_created', type: 'timestamp', nullable: true })
  dateCreated!: Date | null;

  @Column({ name: 'date_start_processing', type: 'timestamp', nullable: true })
  dateStartProcessing!: Date | null;

  @Column({ name: 'date_closed', type: 'timestamp', nullable: true })
  dateClosed!: Date | null;

  @Column({ type: 'bigint', default: 0 })
  closed!: string;
}

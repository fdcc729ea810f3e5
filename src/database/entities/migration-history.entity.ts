import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The reference node's applied schema versions, kept so the schema is the one go-ibax has. */
@Entity({ name: 'migration_history' })
export class MigrationHistoryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  version!: string;

  @Column({ name: 'date_applied', type: 'bigint' })
  dateApplied!: string;
}

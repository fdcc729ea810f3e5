import { Entity, PrimaryColumn } from 'typeorm';

/** The reference node's installation progress (one row), kept so the schema is the one go-ibax has. */
@Entity({ name: 'install', synchronize: false })
export class InstallEntity {
  // The table has no primary key (one row); TypeORM needs one, hence this stand-in and `synchronize: false`.
  @PrimaryColumn({ type: 'varchar', length: 10 })
  progress!: string;
}

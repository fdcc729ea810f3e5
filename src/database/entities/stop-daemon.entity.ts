import { Entity, PrimaryColumn } from 'typeorm';

/** The reference node's request to stop its daemons (one row), kept so the schema is the one go-ibax has. */
@Entity({ name: 'stop_daemons', synchronize: false })
export class StopDaemonEntity {
  // The table has no primary key (one row); TypeORM needs one, hence this stand-in and `synchronize: false`.
  @PrimaryColumn({ name: 'stop_time', type: 'integer' })
  stopTime!: number;
}

import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The static list of time zones and their UTC offsets that contracts and pages may refer to by name. */
@Entity({ name: '1_time_zones' })
@Unique('1_time_zones_name_key', ['name'])
export class TimeZoneEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 6 })
  offset!: string;
}

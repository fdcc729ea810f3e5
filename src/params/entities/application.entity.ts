import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The applications of each ecosystem, which group its contracts, pages, tables and parameters (`app_id`). */
@Entity({ name: '1_applications' })
export class ApplicationEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'uuid', default: '00000000-0000-0000-0000-000000000000' })
  uuid!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'bigint', default: 0 })
  deleted!: string;
}

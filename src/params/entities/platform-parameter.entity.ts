import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The platform's parameters (block size and time, fuel, fees, honor nodes), changed only by contracts. */
@Entity({ name: '1_platform_parameters' })
@Index('1_platform_parameters_name_idx', ['name'], { unique: true })
export class PlatformParameterEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;
}

import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Each ecosystem's parameters (founder, change conditions, limits), read by contracts and the API. */
@Entity({ name: '1_parameters' })
@Unique('1_parameters_ecosystem_name_key', ['ecosystem', 'name'])
export class ParameterEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;
}

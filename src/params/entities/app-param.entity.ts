import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Parameters of the applications installed in an ecosystem, one set per application. */
@Entity({ name: '1_app_params' })
@Unique('1_app_params_ecosystem_app_id_name_key', ['ecosystem', 'appId', 'name'])
export class AppParamEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'app_id', type: 'bigint' })
  appId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;
}

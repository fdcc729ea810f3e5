import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Files uploaded by accounts (images, application packages), served by hash from /data. */
@Entity({ name: '1_binaries' })
@Unique('1_binaries_account_ecosystem_app_id_name_key', ['account', 'ecosystem', 'appId', 'name'])
export class BinaryEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'bytea', default: '\\x' })
  data!: Buffer;

  @Column({ type: 'varchar', length: 64, default: '' })
  hash!: string;

  @Column({ name: 'mime_type', type: 'varchar', length: 255, default: '' })
  mimeType!: string;

  @Column({ type: 'char', length: 24 })
  account!: string;
}

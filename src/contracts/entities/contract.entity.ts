import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** The contracts of each ecosystem: source, wallet and token, compiled by the node at start and on change. */
@Entity({ name: '1_contracts' })
@Unique('1_contracts_ecosystem_name_key', ['ecosystem', 'name'])
export class ContractEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', default: 1 })
  ecosystem!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: '' })
  value!: string;

  @Column({ name: 'wallet_id', type: 'bigint', default: 0 })
  walletId!: string;

  @Column({ name: 'token_id', type: 'bigint', default: 1 })
  tokenId!: string;

  @Column({ type: 'text', default: '' })
  conditions!: string;

  @Column({ type: 'jsonb', default: {} })
  permissions!: Record<string, unknown>;

  @Column({ name: 'app_id', type: 'bigint', default: 1 })
  appId!: string;
}

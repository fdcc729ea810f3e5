import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The platform's ecosystems (name, token, fee settings), which the shared `1_*` tables' rows belong to. */
@Entity({ name: '1_ecosystems' })
export class EcosystemEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'jsonb', default: {} })
  info!: Record<string, unknown>;

  @Column({ name: 'fee_mode_info', type: 'jsonb', default: {} })
  feeModeInfo!: Record<string, unknown>;

  @Column({ name: 'is_valued', type: 'bigint', default: 0 })
  isValued!: string;

  @Column({ name: 'emission_amount', type: 'jsonb', default: [] })
  emissionAmount!: unknown[];

  @Column({ name: 'token_symbol', type: 'varchar', length: 255, default: '' })
  tokenSymbol!: string;

  @Column({ name: 'token_name', type: 'varchar', length: 255, default: '' })
  tokenName!: string;

  @Column({ name: 'type_emission', type: 'bigint', default: 0 })
  typeEmission!: string;

  @Column({ name: 'type_withdraw', type: 'bigint', default: 0 })
  typeWithdraw!: string;

  @Column({ name: 'control_mode', type: 'bigint', default: 1 })
  controlMode!: string;

  @Column({ type: 'bigint', default: 0 })
  digits!: string;
}

import {
  DEVELOPER_CONDITION,
  ecosystemSeedRows,
  MAIN_CONDITION,
  type EcosystemSeedInput,
  type SeedRow,
} from '../chain/seed/ecosystem-seed';
import { platformParameterRows, type GenesisPlatformInput } from './platform-parameters';
import { DEFAULT_MENU, GENESIS_LANGUAGES, GENESIS_PAGES, GENESIS_SNIPPETS } from './genesis-pages';
import { tableMetadataRows } from './table-permissions';

/** Money of ecosystem 1 has 12 decimal digits; the founder starts with 5,250,000 IBXC as a UTXO. */
export const PLATFORM_DIGITS = 12;
export const FOUNDER_INITIAL_UTXO = 5_250_000n * 10n ** 12n;
/** The platform ecosystem's total supply, fixed (json-rpc.md §10.4: ecosystemInfo). */
export const PLATFORM_TOTAL_AMOUNT = '2100000000000000000000';
/** CheckNodesBan runs every this many blocks, from that block on. */
export const CHECK_NODES_BAN_EVERY = 10;
export const SYSTEM_APPLICATION_UUID = '6f3e2b1a-0c4d-4e5f-8a9b-1c2d3e4f5a6b';

export interface GenesisContract {
  name: string;
  source: string;
  conditions: string;
  appId: bigint;
}

export interface FirstEcosystemInput extends EcosystemSeedInput, GenesisPlatformInput {
  /** The system contracts, in row order (row id = position + 1, contract id = 5000 + row id). */
  contracts: readonly GenesisContract[];
  nodeKeyId: bigint;
  founderPublicKey: Uint8Array;
  nodePublicKey: Uint8Array;
}

/** Genesis content of ecosystem 1: its per-ecosystem seed plus what only the first ecosystem holds. */
export function firstEcosystemRows(input: FirstEcosystemInput): SeedRow[] {
  const rows: SeedRow[] = [];
  const add = (table: string, values: Record<string, unknown>) =>
    rows.push({ table, values: { id: input.nextId(table), ...values } });

  add('1_ecosystems', {
    name: 'platform ecosystem',
    info: JSON.stringify({ description: 'The platform ecosystem', logo: 0 }),
    is_valued: 1,
    emission_amount: JSON.stringify([{ type: 'issue', val: PLATFORM_TOTAL_AMOUNT }]),
    token_symbol: 'IBXC',
    token_name: 'IBAX Coin',
    control_mode: 1,
    digits: PLATFORM_DIGITS,
  });
  add('1_applications', {
    ecosystem: 1,
    name: 'System',
    uuid: SYSTEM_APPLICATION_UUID,
    conditions: MAIN_CONDITION,
  });
  for (const parameter of platformParameterRows(input)) add('1_platform_parameters', parameter);

  rows.push(...ecosystemSeedRows(input));
  for (const [keyId, pub] of [
    [input.founderKeyId, input.founderPublicKey],
    [input.nodeKeyId, input.nodePublicKey],
  ] as const) {
    rows.push({
      table: '1_keys',
      values: { id: keyId, ecosystem: 1, pub: Buffer.from(pub), account: input.address(keyId) },
    });
  }

  for (const contract of input.contracts) {
    add('1_contracts', {
      ecosystem: 1,
      name: contract.name,
      value: contract.source,
      wallet_id: 0,
      token_id: 1,
      conditions: contract.conditions,
      app_id: contract.appId,
    });
  }
  for (const table of tableMetadataRows()) add('1_tables', { ecosystem: 1, app_id: 1, ...table });
  // The platform's periodic work, run by the block producer as the node (docs/contracts.md, "Delayed contracts").
  add('1_delayed_contracts', {
    contract: '@1CheckNodesBan',
    key_id: input.nodeKeyId,
    block_id: CHECK_NODES_BAN_EVERY,
    every_block: CHECK_NODES_BAN_EVERY,
    high_rate: 4,
    conditions: 'ContractConditions("@1MainCondition")',
  });
  add('1_menu', {
    ecosystem: 1,
    name: 'default_menu',
    title: 'Home',
    value: DEFAULT_MENU,
    conditions: DEVELOPER_CONDITION,
  });
  for (const page of GENESIS_PAGES) {
    add('1_pages', {
      ecosystem: 1,
      name: page.name,
      value: page.value,
      menu: 'default_menu',
      conditions: DEVELOPER_CONDITION,
      app_id: 1,
    });
  }
  for (const snippet of GENESIS_SNIPPETS) {
    add('1_snippets', {
      ecosystem: 1,
      name: snippet.name,
      value: snippet.value,
      conditions: DEVELOPER_CONDITION,
      app_id: 1,
    });
  }
  for (const language of GENESIS_LANGUAGES) {
    add('1_languages', {
      ecosystem: 1,
      name: language.name,
      res: JSON.stringify(language.res),
      conditions: DEVELOPER_CONDITION,
      app_id: 1,
    });
  }
  for (const zone of timeZones(input.time)) add('1_time_zones', { ecosystem: 1, ...zone });
  return dedupeKeys(rows);
}

/** The founder may also be the node's key; its key row is written once. */
function dedupeKeys(rows: SeedRow[]): SeedRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    if (row.table !== '1_keys') return true;
    const key = `${row.values.ecosystem}:${row.values.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** IANA zones known to the runtime, with their UTC offset on the genesis date ("+05:30"). */
export function timeZones(at: Date): { name: string; offset: string }[] {
  return Intl.supportedValuesOf('timeZone').map((name) => {
    const text =
      new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    const offset = text === 'GMT' ? '+00:00' : text.slice(3);
    return { name, offset };
  });
}

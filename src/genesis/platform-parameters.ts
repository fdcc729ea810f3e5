/**
 * Platform parameters (`1_platform_parameters`) and their genesis values (formats.md §6.3). Values set at
 * genesis from the node's keys and config come from `GenesisPlatformInput`.
 */
export interface GenesisPlatformInput {
  founderKeyId: bigint;
  honorNodes: string;
  test: boolean;
}

import { HOST_BUILTINS } from '../contract-host';
import { EXEC_ACCESS } from '../contract-host/privileged';
import { snakeCase, Vm } from '../vm';

const EDIT_PLATFORM_PARAMETER = 'ContractAccess("@1UpdatePlatformParam")';

export function platformParameterRows(
  input: GenesisPlatformInput,
): { name: string; value: string; conditions: string }[] {
  const values: [string, string][] = [
    ['default_ecosystem_page', 'If(#ecosystem_id# > 1){Include(@1welcome)}'],
    ['default_ecosystem_menu', ''],
    ['default_ecosystem_contract', ''],
    ['gap_between_blocks', '2'],
    ['rollback_blocks', '60'],
    ['honor_nodes', input.honorNodes],
    ['number_of_nodes', '101'],
    ['max_block_size', '67108864'],
    ['max_tx_size', '33554432'],
    ['max_tx_block', '5000'],
    ['max_columns', '50'],
    ['max_indexes', '5'],
    ['max_tx_block_per_user', '5000'],
    ['max_fuel_tx', '20000000'],
    ['max_fuel_block', '200000000'],
    ['taxes_size', '3'],
    ['taxes_wallet', JSON.stringify([['1', input.founderKeyId.toString()]])],
    ['fuel_rate', JSON.stringify([['1', '1000000']])],
    ['max_block_generation_time', '2000'],
    ['incorrect_blocks_per_day', '10'],
    ['node_ban_time', '86400000'],
    ['node_ban_time_local', '1800000'],
    ['price_tx_size', '15'],
    ['test', input.test ? 'true' : 'false'],
    ['price_tx_data', '10'],
    // Phase 1 runs as a private chain: no fees, a failing contract rejects its transaction (decisions.md).
    ['private_blockchain', '1'],
    ['pay_free_contract', '@1CallDelayedContract,@1CheckNodesBan,@1NewUser'],
    ['local_node_ban_time', '60'],
  ];
  // Who may call each privileged built-in (e.g. CreateTable only from @1NewTable), engines.md §1.11.
  for (const [builtin, contracts] of Object.entries(EXEC_ACCESS)) {
    values.push([
      `access_exec_${snakeCase(builtin)}`,
      `ContractAccess(${contracts.map((contract) => `"@1${contract}"`).join(', ')})`,
    ]);
  }
  // The fuel price of every built-in (engines.md §1.9), so that a chain can reprice them by parameter.
  const engine = new Vm();
  engine.builtins.registerAll(HOST_BUILTINS);
  for (const name of engine.builtins.names().sort()) {
    const builtin = engine.builtins.get(name)!;
    values.push([builtin.priceKey, String(builtin.price)]);
  }
  return values.map(([name, value]) => ({
    name,
    value,
    conditions: name === 'test' || name === 'private_blockchain' ? 'false' : EDIT_PLATFORM_PARAMETER,
  }));
}

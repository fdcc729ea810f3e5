import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The system contracts: our own sources in the contract language (`sources/<Name>.sim`), with the reference's
 * names, `data` fields and effects (docs/contracts.md). Genesis inserts them into `1_contracts` of ecosystem 1 in
 * this order: row id = index + 1, contract id = 5000 + row id. `NewEcosystem` copies the `perEcosystem` ones
 * (MainCondition, DeveloperCondition) into every new ecosystem.
 *
 * The sources are read at module load from `sources/` beside the running code: here in the sources, and beside
 * the bundle when bundled (scripts/bundle.cjs copies them to `dist/sources`).
 */
export interface SystemContract {
  name: string;
  source: string;
  /** The row's edit permission (the `conditions` column), not a permission to call the contract. */
  conditions: string;
  appId: bigint;
  /** Also created in every new ecosystem. */
  perEcosystem: boolean;
}

export const SYSTEM_CONTRACTS_DIR = join(__dirname, 'sources');

const MAIN = 'ContractConditions("MainCondition")';
const NODE_OWNER = 'ContractConditions("NodeOwnerCondition")';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The first two rows, then the first set in alphabetical order, then the contracts added since, in
 * alphabetical order among themselves: appending keeps the ids the earlier contracts had.
 */
export const SYSTEM_CONTRACT_NAMES: readonly string[] = [
  'DeveloperCondition',
  'MainCondition',
  ...[
    'BindWallet',
    'EditAppParam',
    'EditApplication',
    'EditColumn',
    'EditContract',
    'EditEcosystemName',
    'EditLang',
    'EditMenu',
    'EditPage',
    'EditParameter',
    'EditSection',
    'EditSnippet',
    'EditTable',
    'NewAppParam',
    'NewApplication',
    'NewColumn',
    'NewContract',
    'NewEcosystem',
    'NewLang',
    'NewMenu',
    'NewPage',
    'NewParameter',
    'NewSection',
    'NewSnippet',
    'NewTable',
    'NewUser',
    'NodeOwnerCondition',
    'ProfileEdit',
    'RolesAssign',
    'RolesCreate',
    'RolesUnassign',
    'TokensTransfer',
    'UnbindWallet',
    'UploadBinary',
    'UploadFile',
  ].sort(byName),
  ...[
    'AccessControlMode',
    'AccessVoteTempRun',
    'CallDelayedContract',
    'CheckNodesBan',
    'HonorNodeCondition',
    'Import',
    'ImportUpload',
    'NewBadBlock',
    'UpdatePlatformParam',
  ].sort(byName),
  // The notifications application's contracts (issue 21).
  ...['NotificationsBroadcast', 'NotificationsClose', 'NotificationsProcess', 'NotificationsSend'].sort(
    byName,
  ),
];

const PER_ECOSYSTEM = new Set(['MainCondition', 'DeveloperCondition']);

export function readSystemContractSource(name: string): string {
  return readFileSync(join(SYSTEM_CONTRACTS_DIR, name + '.sim'), 'utf8');
}

export const SYSTEM_CONTRACTS: readonly SystemContract[] = SYSTEM_CONTRACT_NAMES.map((name) => ({
  name,
  source: readSystemContractSource(name),
  conditions: name === 'NewUser' ? NODE_OWNER : MAIN,
  appId: 1n,
  perEcosystem: PER_ECOSYSTEM.has(name),
}));

/** Row id in `1_contracts` at genesis (1-based), or 0 for a name that is not a system contract. */
export function systemContractRowId(name: string): number {
  return SYSTEM_CONTRACT_NAMES.indexOf(name) + 1;
}

/** Contract id (what a transaction names) at genesis: 5000 + row id; 0 for an unknown name. */
export function systemContractId(name: string): number {
  const row = systemContractRowId(name);
  return row === 0 ? 0 : 5000 + row;
}

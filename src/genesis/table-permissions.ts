import { DEVELOPER_CONDITION, MAIN_CONDITION } from '../chain/seed/ecosystem-seed';

/**
 * The `1_tables` rows of ecosystem 1: who may insert, update and add columns to each shared table, and
 * who may change each column. Contracts reach these tables through DBInsert/DBUpdate, which check them.
 */
interface TablePermissions {
  insert: string;
  update: string;
  new_column: string;
  read?: string;
}

const access = (...contracts: string[]) => `ContractAccess(${contracts.map((c) => `"@1${c}"`).join(', ')})`;

const TABLES: [string, TablePermissions, string[]][] = [
  [
    'keys',
    {
      insert: access('NewUser', 'NewEcosystem'),
      update: access('NewUser', 'TokensTransfer'),
      new_column: MAIN_CONDITION,
    },
    ['pub', 'amount', 'maxpay', 'multi', 'deleted', 'blocked', 'account'],
  ],
  [
    'contracts',
    {
      insert: access('NewContract', 'NewEcosystem'),
      update: access('EditContract', 'BindWallet', 'UnbindWallet'),
      new_column: MAIN_CONDITION,
    },
    ['name', 'value', 'wallet_id', 'token_id', 'conditions', 'permissions', 'app_id'],
  ],
  [
    'pages',
    { insert: access('NewPage', 'NewEcosystem'), update: access('EditPage'), new_column: MAIN_CONDITION },
    ['name', 'value', 'menu', 'validate_count', 'conditions', 'permissions', 'app_id', 'validate_mode'],
  ],
  [
    'menu',
    { insert: access('NewMenu', 'NewEcosystem'), update: access('EditMenu'), new_column: MAIN_CONDITION },
    ['name', 'title', 'value', 'conditions', 'permissions'],
  ],
  [
    'snippets',
    { insert: access('NewSnippet'), update: access('EditSnippet'), new_column: MAIN_CONDITION },
    ['name', 'value', 'conditions', 'permissions', 'app_id'],
  ],
  [
    'languages',
    { insert: access('NewLang'), update: access('EditLang'), new_column: MAIN_CONDITION },
    ['name', 'res', 'conditions', 'permissions', 'app_id'],
  ],
  [
    'parameters',
    {
      insert: access('NewParameter', 'NewEcosystem'),
      update: access('EditParameter'),
      new_column: MAIN_CONDITION,
    },
    ['name', 'value', 'conditions', 'permissions'],
  ],
  [
    'app_params',
    { insert: access('NewAppParam'), update: access('EditAppParam'), new_column: MAIN_CONDITION },
    ['app_id', 'name', 'value', 'conditions', 'permissions'],
  ],
  [
    'applications',
    { insert: access('NewApplication'), update: access('EditApplication'), new_column: MAIN_CONDITION },
    ['name', 'uuid', 'conditions', 'deleted'],
  ],
  [
    'tables',
    {
      insert: access('NewTable'),
      update: access('EditTable', 'EditColumn', 'NewColumn'),
      new_column: MAIN_CONDITION,
    },
    ['name', 'permissions', 'columns', 'conditions', 'app_id'],
  ],
  [
    'members',
    { insert: access('NewUser', 'NewEcosystem'), update: access('ProfileEdit'), new_column: MAIN_CONDITION },
    ['member_name', 'image_id', 'member_info', 'account'],
  ],
  [
    'roles',
    {
      insert: access('RolesCreate', 'NewEcosystem'),
      update: access('RolesCreate'),
      new_column: MAIN_CONDITION,
    },
    [
      'default_page',
      'role_name',
      'deleted',
      'role_type',
      'creator',
      'date_created',
      'date_deleted',
      'company_id',
      'roles_access',
      'image_id',
    ],
  ],
  [
    'roles_participants',
    {
      insert: access('RolesAssign', 'NewEcosystem'),
      update: access('RolesAssign', 'RolesUnassign'),
      new_column: MAIN_CONDITION,
    },
    ['role', 'member', 'appointed', 'date_created', 'date_deleted', 'deleted'],
  ],
  [
    'sections',
    {
      insert: access('NewSection', 'NewEcosystem'),
      update: access('EditSection'),
      new_column: MAIN_CONDITION,
    },
    ['title', 'urlname', 'page', 'roles_access', 'status'],
  ],
  [
    'history',
    { insert: access('TokensTransfer', 'NewUser'), update: 'false', new_column: 'false' },
    [
      'sender_id',
      'recipient_id',
      'sender_balance',
      'recipient_balance',
      'amount',
      'value_detail',
      'comment',
      'status',
      'block_id',
      'txhash',
      'created_at',
      'type',
    ],
  ],
  [
    'binaries',
    {
      insert: access('UploadBinary'),
      update: access('UploadBinary', 'ProfileEdit'),
      new_column: MAIN_CONDITION,
    },
    ['app_id', 'name', 'data', 'hash', 'mime_type', 'account'],
  ],
  [
    'notifications',
    // Written only through the notification contracts, which check sender, recipient and role (the
    // VM evaluates both sides of ||, so "these contracts or a developer" cannot be said as one condition).
    {
      insert: access('NotificationsSend', 'NotificationsBroadcast'),
      update: access('NotificationsProcess', 'NotificationsClose'),
      new_column: MAIN_CONDITION,
    },
    [
      'recipient',
      'sender',
      'notification',
      'page_params',
      'processing_info',
      'page_name',
      'date_created',
      'date_start_processing',
      'date_closed',
      'closed',
    ],
  ],
  [
    'buffer_data',
    { insert: 'true', update: 'true', new_column: MAIN_CONDITION },
    ['key', 'value', 'account'],
  ],
  [
    'views',
    { insert: DEVELOPER_CONDITION, update: DEVELOPER_CONDITION, new_column: MAIN_CONDITION },
    ['name', 'columns', 'wheres', 'permissions', 'conditions', 'app_id'],
  ],
  [
    'ecosystems',
    { insert: access('NewEcosystem'), update: access('EditEcosystemName'), new_column: 'false' },
    [
      'name',
      'info',
      'fee_mode_info',
      'is_valued',
      'emission_amount',
      'token_symbol',
      'token_name',
      'type_emission',
      'type_withdraw',
      'control_mode',
      'digits',
    ],
  ],
  [
    'platform_parameters',
    { insert: 'false', update: access('UpdatePlatformParam'), new_column: 'false' },
    ['name', 'value', 'conditions'],
  ],
  [
    'delayed_contracts',
    // The founder schedules rows; only the contracts the producer runs as the node count their runs (a
    // condition cannot say "the founder or these contracts": ContractConditions fails rather than answer false).
    { insert: MAIN_CONDITION, update: access('CallDelayedContract', 'CheckNodesBan'), new_column: 'false' },
    [
      'contract',
      'key_id',
      'block_id',
      'every_block',
      'counter',
      'high_rate',
      'limit',
      'deleted',
      'conditions',
    ],
  ],
  [
    'bad_blocks',
    { insert: access('NewBadBlock'), update: 'false', new_column: 'false' },
    ['producer_node_id', 'block_id', 'consumer_node_id', 'block_time', 'reason', 'deleted'],
  ],
  [
    'node_ban_logs',
    { insert: 'false', update: 'false', new_column: 'false' },
    ['node_id', 'banned_at', 'ban_time', 'reason'],
  ],
  ['time_zones', { insert: 'false', update: 'false', new_column: 'false' }, ['name', 'offset']],
];

export function tableMetadataRows(): {
  name: string;
  permissions: string;
  columns: string;
  conditions: string;
}[] {
  return TABLES.map(([name, permissions, columns]) => ({
    name,
    permissions: JSON.stringify(permissions),
    columns: JSON.stringify(Object.fromEntries(columns.map((column) => [column, permissions.update]))),
    conditions: MAIN_CONDITION,
  }));
}

/**
 * The rows every new ecosystem starts with (formats.md §6.2): parameters, members, sections, the special
 * accounts, the developer menu and page, and the roles its founder holds. Genesis writes them for
 * ecosystem 1; NewEcosystem reuses the same seed for later ecosystems.
 */
export const GUEST_KEY_ID = -110277540701013350n;
export const GUEST_PUBLIC_KEY_HEX =
  'ef0ab117793962b7b3ee8d2ae94b58bbd7db1aa856a7dc623fdb28ad530090b0bcf5cb81b4d6912a249f1ab30921f414ad88383208cd8ba26ae2a9c3eb543772';
export const BLACK_HOLE_KEY_ID = 0n;
export const WHITE_HOLE_KEY_ID = 5555n;

export const DEVELOPER_CONDITION = 'ContractConditions("DeveloperCondition")';
export const MAIN_CONDITION = 'ContractConditions("MainCondition")';

export interface SeedRow {
  table: string;
  values: Record<string, unknown>;
}

export interface EcosystemSeedInput {
  ecosystemId: bigint;
  founderKeyId: bigint;
  /** Address text of a key id (the account column of keys, members, binaries). */
  address: (keyId: bigint) => string;
  /** The next free row id of a shared table; row ids are unique across ecosystems. */
  nextId: (table: string) => bigint;
  /** Genesis or block time, for the `date_created` columns. */
  time: Date;
}

/** The page styles Weaver loads from the `stylesheet` parameter on every page (the reference seeds it too). */
const STYLESHEET = ['body {', "    /* the ecosystem's own styles go here */", '}'].join('\n');

const PRINT_STYLESHEET = [
  'body { font-size: 14px; }',
  'h1, h2, h3, h4, h5, h6 { margin: 0 0 0.5em; }',
  'table { width: 100%; border-collapse: collapse; }',
  'td, th { border: 1px solid #ccc; padding: 4px 6px; }',
].join('\n');

export const DEVELOPER_MENU = [
  'MenuItem(Title: "Developer home", Page: developer_index, Icon: "icon-screen-desktop")',
  'MenuItem(Title: "Contracts", Page: developer_index, PageParams: "tab=contracts", Icon: "icon-docs")',
  'MenuItem(Title: "Parameters", Page: developer_index, PageParams: "tab=parameters", Icon: "icon-settings")',
].join('\n');

export const DEVELOPER_INDEX_PAGE = [
  'SetTitle("Developer")',
  'Div(content-wrapper){',
  '    Div(panel panel-default){',
  '        Div(panel-heading){ Span(Class: text-bold, Body: "Ecosystem #ecosystem_id#: #ecosystem_name#") }',
  '        Div(panel-body){',
  '            DBFind(contracts, src_contracts).Columns("id,name,app_id").Where({"ecosystem": "#ecosystem_id#"}).Order(id).Limit(50)',
  '            Table(src_contracts, "Id=id,Name=name,Application=app_id")',
  '        }',
  '    }',
  '}',
].join('\n');

export function ecosystemSeedRows(input: EcosystemSeedInput): SeedRow[] {
  const { ecosystemId: ecosystem, founderKeyId, address } = input;
  const rows: SeedRow[] = [];
  const add = (table: string, values: Record<string, unknown>) =>
    rows.push({ table, values: { id: input.nextId(table), ecosystem, ...values } });

  const parameters: [string, string, string][] = [
    ['founder_account', founderKeyId.toString(), MAIN_CONDITION],
    ['new_table', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_tables', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_language', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_page', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_menu', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_contracts', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_parameters', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_app_params', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['changing_snippets', DEVELOPER_CONDITION, DEVELOPER_CONDITION],
    ['max_sum', '1000000', DEVELOPER_CONDITION],
    ['stylesheet', STYLESHEET, DEVELOPER_CONDITION],
    ['print_stylesheet', PRINT_STYLESHEET, DEVELOPER_CONDITION],
    ['min_page_validate_count', '1', DEVELOPER_CONDITION],
    ['max_page_validate_count', '6', DEVELOPER_CONDITION],
  ];
  for (const [name, value, conditions] of parameters) add('1_parameters', { name, value, conditions });

  const members: [bigint, string][] = [
    [founderKeyId, 'founder'],
    [GUEST_KEY_ID, 'guest'],
    [BLACK_HOLE_KEY_ID, 'black_hole'],
    [WHITE_HOLE_KEY_ID, 'white_hole'],
  ];
  for (const [keyId, name] of members) {
    add('1_members', { member_name: name, account: address(keyId), member_info: '{}' });
  }

  add('1_sections', { title: 'Home', urlname: 'home', page: 'default_page', roles_access: '[]', status: 2 });
  add('1_sections', {
    title: 'Developer',
    urlname: 'developer',
    page: 'developer_index',
    roles_access: '[]',
    status: 1,
  });

  const specialKeys: [bigint, Buffer][] = [
    [GUEST_KEY_ID, Buffer.from(GUEST_PUBLIC_KEY_HEX, 'hex')],
    [BLACK_HOLE_KEY_ID, Buffer.alloc(0)],
    [WHITE_HOLE_KEY_ID, Buffer.alloc(0)],
  ];
  for (const [keyId, pub] of specialKeys) {
    rows.push({
      table: '1_keys',
      values: { id: keyId, ecosystem, pub, account: address(keyId), blocked: 1 },
    });
  }

  add('1_menu', {
    name: 'developer_menu',
    title: 'Developer',
    value: DEVELOPER_MENU,
    conditions: DEVELOPER_CONDITION,
  });
  add('1_pages', {
    name: 'developer_index',
    value: DEVELOPER_INDEX_PAGE,
    menu: 'developer_menu',
    conditions: DEVELOPER_CONDITION,
    app_id: 1,
  });

  const roleIds: Record<'admin' | 'developer', bigint> = {
    admin: input.nextId('1_roles'),
    developer: input.nextId('1_roles'),
  };
  const founder = { member_name: 'founder', account: address(founderKeyId) };
  for (const [kind, roleName, roleType] of [
    ['admin', 'Admin', 3],
    ['developer', 'Developer', 3],
  ] as const) {
    rows.push({
      table: '1_roles',
      values: {
        id: roleIds[kind],
        ecosystem,
        role_name: roleName,
        role_type: roleType,
        default_page: '',
        creator: JSON.stringify(founder),
        date_created: input.time,
        roles_access: '[]',
      },
    });
    add('1_roles_participants', {
      role: JSON.stringify({
        id: roleIds[kind].toString(),
        type: String(roleType),
        name: roleName,
        image_id: '0',
      }),
      member: JSON.stringify(founder),
      appointed: JSON.stringify(founder),
      date_created: input.time,
    });
  }
  add('1_app_params', {
    app_id: 1,
    name: 'role_admin',
    value: roleIds.admin.toString(),
    conditions: MAIN_CONDITION,
  });
  add('1_app_params', {
    app_id: 1,
    name: 'role_developer',
    value: roleIds.developer.toString(),
    conditions: MAIN_CONDITION,
  });
  return rows;
}

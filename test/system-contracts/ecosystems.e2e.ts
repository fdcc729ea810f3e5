import { beforeAll, describe, expect, it } from 'vitest';
import {
  BLACK_HOLE_KEY_ID,
  DEVELOPER_INDEX_PAGE,
  DEVELOPER_MENU,
  GUEST_KEY_ID,
  GUEST_PUBLIC_KEY_HEX,
  WHITE_HOLE_KEY_ID,
} from '../../src/chain/seed/ecosystem-seed';
import { readSystemContractSource } from '../../src/genesis/system-contracts';
import {
  DEVELOPER,
  expectOk,
  insertedEntry,
  MAIN,
  updatedEntry,
  updatedOnly,
  useNode,
  type Account,
  type Row,
} from './helpers';

/**
 * NewEcosystem with its seed rows and its own MainCondition and DeveloperCondition, work inside the new
 * ecosystem as its founder (objects land in ecosystem 2, names are per ecosystem, its condition copies are
 * the ones that count), NewUser into it, and EditEcosystemName — on the real database.
 */

const h = useNode();
/** Registered in ecosystem 1; founds ecosystem 2. */
let owner: Account;
/** `owner` acting in ecosystem 2. */
let owner2: Account;
let ecosystem: string;

const now = () => Math.floor(Date.now() / 1000);
const timestampText = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

beforeAll(async () => {
  owner = await h.registered();
  owner2 = { ...owner, ecosystem: 2n };
});

/** Every table the seed writes, with the rows expected for a new ecosystem `eco` founded by `founder`. */
async function expectedSeed(eco: string, founder: Account, ids: Record<string, number>, date: string) {
  const seeded = async (name: string) =>
    (await h.row('1_parameters', `"ecosystem" = 1 AND "name" = $1`, [name]))!.value;
  const stylesheet = await seeded('stylesheet');
  const printStylesheet = await seeded('print_stylesheet');
  const founderJson = `{"account": "${founder.account}", "member_name": "founder"}`;
  const parameters: [string, string | null, string][] = [
    ['founder_account', founder.keyId.toString(), MAIN],
    ['new_table', DEVELOPER, DEVELOPER],
    ['changing_tables', DEVELOPER, DEVELOPER],
    ['changing_language', DEVELOPER, DEVELOPER],
    ['changing_page', DEVELOPER, DEVELOPER],
    ['changing_menu', DEVELOPER, DEVELOPER],
    ['changing_contracts', DEVELOPER, DEVELOPER],
    ['changing_parameters', DEVELOPER, DEVELOPER],
    ['changing_app_params', DEVELOPER, DEVELOPER],
    ['changing_snippets', DEVELOPER, DEVELOPER],
    ['max_sum', '1000000', DEVELOPER],
    ['stylesheet', stylesheet, DEVELOPER],
    ['print_stylesheet', printStylesheet, DEVELOPER],
    ['min_page_validate_count', '1', DEVELOPER],
    ['max_page_validate_count', '6', DEVELOPER],
  ];
  const id = (table: string, offset: number) => String(ids[table] + offset);
  const key = (keyId: bigint, pub: string, blocked: string, account: string) => ({
    id: keyId.toString(),
    ecosystem: eco,
    pub: `\\x${pub}`,
    amount: '0',
    maxpay: '0',
    multi: '0',
    deleted: '0',
    blocked,
    account,
  });
  const address = (keyId: bigint) => h.bench.crypto.address(keyId);
  const roles = [
    ['Admin', 0],
    ['Developer', 1],
  ] as const;
  return {
    '1_ecosystems': [
      {
        id: eco,
        name: 'Shop',
        info: '{}',
        fee_mode_info: '{}',
        is_valued: '0',
        emission_amount: '[]',
        token_symbol: '',
        token_name: '',
        type_emission: '0',
        type_withdraw: '0',
        control_mode: '1',
        digits: '0',
      },
    ],
    '1_parameters': parameters.map(([name, value, conditions], i) => ({
      id: id('1_parameters', i),
      ecosystem: eco,
      name,
      value,
      conditions,
      permissions: '{}',
    })),
    '1_members': (
      [
        [founder.keyId, 'founder'],
        [GUEST_KEY_ID, 'guest'],
        [BLACK_HOLE_KEY_ID, 'black_hole'],
        [WHITE_HOLE_KEY_ID, 'white_hole'],
      ] as const
    ).map(([keyId, name], i) => ({
      id: id('1_members', i),
      ecosystem: eco,
      member_name: name,
      image_id: null,
      member_info: '{}',
      account: address(keyId),
    })),
    '1_sections': [
      {
        id: id('1_sections', 0),
        ecosystem: eco,
        title: 'Home',
        urlname: 'home',
        page: 'default_page',
        roles_access: '[]',
        status: '2',
      },
      {
        id: id('1_sections', 1),
        ecosystem: eco,
        title: 'Developer',
        urlname: 'developer',
        page: 'developer_index',
        roles_access: '[]',
        status: '1',
      },
    ],
    '1_keys': [
      key(GUEST_KEY_ID, GUEST_PUBLIC_KEY_HEX, '1', address(GUEST_KEY_ID)),
      key(BLACK_HOLE_KEY_ID, '', '1', address(BLACK_HOLE_KEY_ID)),
      key(WHITE_HOLE_KEY_ID, '', '1', address(WHITE_HOLE_KEY_ID)),
      key(founder.keyId, founder.pub, '0', founder.account),
    ],
    '1_menu': [
      {
        id: id('1_menu', 0),
        ecosystem: eco,
        name: 'developer_menu',
        title: 'Developer',
        value: DEVELOPER_MENU,
        conditions: DEVELOPER,
        permissions: '{}',
      },
    ],
    '1_pages': [
      {
        id: id('1_pages', 0),
        ecosystem: eco,
        name: 'developer_index',
        value: DEVELOPER_INDEX_PAGE,
        menu: 'developer_menu',
        validate_count: '1',
        conditions: DEVELOPER,
        permissions: '{}',
        app_id: '1',
        validate_mode: '0',
      },
    ],
    '1_roles': roles.map(([name, i]) => ({
      id: id('1_roles', i),
      ecosystem: eco,
      default_page: '',
      role_name: name,
      deleted: '0',
      role_type: '3',
      creator: founderJson,
      date_created: date,
      date_deleted: null,
      company_id: '0',
      roles_access: '[]',
      image_id: '0',
    })),
    '1_roles_participants': roles.map(([name, i]) => ({
      id: id('1_roles_participants', i),
      ecosystem: eco,
      role: `{"id": "${id('1_roles', i)}", "name": "${name}", "type": "3", "image_id": "0"}`,
      member: founderJson,
      appointed: founderJson,
      date_created: date,
      date_deleted: null,
      deleted: '0',
    })),
    '1_app_params': [
      {
        id: id('1_app_params', 0),
        ecosystem: eco,
        app_id: '1',
        name: 'role_admin',
        value: id('1_roles', 0),
        conditions: MAIN,
        permissions: '{}',
      },
      {
        id: id('1_app_params', 1),
        ecosystem: eco,
        app_id: '1',
        name: 'role_developer',
        value: id('1_roles', 1),
        conditions: MAIN,
        permissions: '{}',
      },
    ],
    '1_contracts': ['DeveloperCondition', 'MainCondition'].map((name, i) => ({
      id: id('1_contracts', i),
      ecosystem: eco,
      name,
      value: readSystemContractSource(name),
      wallet_id: '0',
      token_id: '1',
      conditions: MAIN,
      permissions: '{}',
      app_id: '1',
    })),
  } as Record<string, Row[]>;
}

describe('NewEcosystem', () => {
  it('creates the ecosystem with its seed rows and its own condition contracts; the journal takes it all back', async () => {
    const tables = [
      '1_parameters',
      '1_members',
      '1_sections',
      '1_menu',
      '1_pages',
      '1_roles',
      '1_roles_participants',
      '1_app_params',
      '1_contracts',
    ];
    const ids: Record<string, number> = {};
    for (const table of tables) ids[table] = Number(await h.nextId(table));
    const from = now();
    const run = await h.track(owner, 'NewEcosystem', { Name: 'Shop' });
    const to = now();
    expectOk(run);
    ecosystem = run.outcome.result;
    expect(ecosystem).toBe('2');
    const date = run.changes['1_roles'].inserted[0].date_created!;
    expect(date >= timestampText(from) && date <= timestampText(to)).toBe(true);

    const expected = await expectedSeed('2', owner, ids, date);
    expect(Object.keys(run.changes).sort()).toEqual(Object.keys(expected).sort());
    for (const [table, rows] of Object.entries(expected)) {
      expect(run.changes[table], table).toEqual({
        inserted: expect.arrayContaining(rows),
        updated: [],
        deleted: [],
      });
      expect(run.changes[table].inserted, table).toHaveLength(rows.length);
    }
    expect(run.createdTables).toEqual([]);
    // One journal entry per row, each naming its row.
    expect(run.journal).toHaveLength(Object.values(expected).flat().length);
    expect(run.journal).toEqual(
      expect.arrayContaining([
        insertedEntry('1_ecosystems', '2'),
        insertedEntry('1_keys', `${owner.keyId},2`),
        insertedEntry('1_contracts', String(ids['1_contracts'] + 1)),
      ]),
    );
    expect(run.journal.every((entry) => entry.data === '')).toBe(true);

    const main = h.bench.contracts.contract('MainCondition', 2n);
    expect(main?.key).toBe('@2MainCondition');
    expect(main?.meta.tableId).toBe(ids['1_contracts'] + 1);
    expect(h.bench.contracts.contract('DeveloperCondition', 2n)?.meta.tableId).toBe(ids['1_contracts']);
    expectOk(await h.bench.run(owner2, 'MainCondition'));

    await h.undone(run);
    expect(h.bench.contracts.contract('MainCondition', 2n)).toBeUndefined();
    expect(h.bench.contracts.contract('DeveloperCondition', 2n)).toBeUndefined();
    expect(await h.rows('1_parameters', `"ecosystem" = 2`)).toEqual([]);

    expect((await h.bench.mustRun(owner, 'NewEcosystem', { Name: 'Shop' })).result).toBe('2');
    expect(h.bench.contracts.contract('MainCondition', 2n)?.meta.tableId).toBe(ids['1_contracts'] + 1);
  });

  it('writes the creation times of the seed as UTC whatever the node’s time zone', async () => {
    const founder = await h.registered();
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      const from = now();
      const run = await h.track(founder, 'NewEcosystem', { Name: 'Tokyo' });
      const to = now();
      expectOk(run);
      for (const row of [
        ...run.changes['1_roles'].inserted,
        ...run.changes['1_roles_participants'].inserted,
      ]) {
        expect(
          row.date_created! >= timestampText(from) && row.date_created! <= timestampText(to),
          row.date_created!,
        ).toBe(true);
      }
      await h.undone(run);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('is refused outside ecosystem 1, to unregistered keys and for bad names', async () => {
    await h.refused(
      owner2,
      '@1NewEcosystem',
      { Name: 'Other' },
      'error',
      'New ecosystems are created from ecosystem 1',
    );
    await h.refused(owner, 'NewEcosystem', { Name: '  ' }, 'warning', 'Ecosystem name is empty');
    await h.refused(
      owner,
      'NewEcosystem',
      { Name: 'n'.repeat(256) },
      'warning',
      'Ecosystem name is longer than 255 bytes',
    );
    const unknown = h.newAccount();
    await h.refused(
      unknown,
      'NewEcosystem',
      { Name: 'Other' },
      'panic',
      `key ${unknown.keyId} is not registered`,
    );
  });
});

describe('inside the new ecosystem', () => {
  it('its founder creates objects that belong to ecosystem 2, with names free per ecosystem', async () => {
    const page = await h.track(owner2, '@1NewPage', {
      ApplicationId: 1,
      Name: 'default_page',
      Value: 'Div(){Shop}',
      Menu: 'developer_menu',
      Conditions: DEVELOPER,
    });
    expectOk(page);
    expect(page.changes['1_pages'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', name: 'default_page', value: 'Div(){Shop}' }),
    ]);
    expect((await h.row('1_pages', `"ecosystem" = 1 AND "name" = 'default_page'`))!.value).not.toBe(
      'Div(){Shop}',
    );

    const parameter = await h.track(owner2, '@1NewParameter', {
      Name: 'colour',
      Value: 'blue',
      Conditions: MAIN,
    });
    expectOk(parameter);
    expect(parameter.changes['1_parameters'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', name: 'colour' }),
    ]);

    const menu = await h.track(owner2, '@1NewMenu', { Name: 'shop_menu', Value: 'x', Conditions: MAIN });
    expect(menu.changes['1_menu'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', name: 'shop_menu' }),
    ]);

    const section = await h.track(owner2, '@1NewSection', {
      Title: 'Shop',
      Urlname: 'shop',
      Page: 'default_page',
    });
    expectOk(section);
    expect(section.changes['1_sections'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', urlname: 'shop' }),
    ]);
    // NewSection finds pages of the caller's ecosystem only.
    await h.refused(
      owner2,
      '@1NewSection',
      { Title: 'N', Urlname: 'n', Page: 'notifications' },
      'error',
      'Page notifications has not been found',
    );
  });

  it('its founder creates a table <eco>_<name> and a contract @2<name>', async () => {
    const table = await h.track(owner2, '@1NewTable', {
      ApplicationId: 1,
      Name: 'orders',
      Columns: '[{"name":"item","type":"text","conditions":"true"}]',
      Permissions: '{"insert":"true","update":"true","new_column":"true"}',
    });
    expectOk(table);
    expect(table.createdTables).toEqual(['2_orders']);
    expect(table.changes['1_tables'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', name: 'orders' }),
    ]);

    const source =
      'contract Order {\n  data {\n    Item string\n  }\n  action {\n    $result = DBInsert("orders", {"item": $Item})\n  }\n}';
    const contract = await h.track(owner2, '@1NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: MAIN,
    });
    expectOk(contract);
    expect(contract.changes['1_contracts'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', name: 'Order', value: source }),
    ]);
    expect(h.bench.contracts.contract('Order', 2n)?.key).toBe('@2Order');
    expect(h.bench.contracts.contract('Order', 1n)).toBeUndefined();

    const order = await h.track(owner2, 'Order', { Item: 'tea' });
    expectOk(order);
    expect(order.changes).toEqual({
      '2_orders': { inserted: [{ id: order.outcome.result, item: 'tea' }], updated: [], deleted: [] },
    });
    await h.undone(order);
    await h.undone(contract);
    expect(h.bench.contracts.contract('Order', 2n)).toBeUndefined();
    await h.undone(table);
    expect(
      (await h.bench.db.query(`SELECT 1 FROM information_schema.tables WHERE "table_name" = '2_orders'`))
        .length,
    ).toBe(0);
  });

  it('refuses the founder of ecosystem 1, who is nobody in ecosystem 2', async () => {
    const founder2 = { ...h.founder, ecosystem: 2n };
    await h.refused(
      founder2,
      '@1NewPage',
      { ApplicationId: 1, Name: 'x', Value: '', Menu: '', Conditions: 'true' },
      'warning',
      'Access denied',
    );
    await h.refused(founder2, '@2MainCondition', {}, 'warning', 'Access denied');
    await h.refused(founder2, '@1RolesCreate', { RoleName: 'X' }, 'warning', 'Access denied');
    await h.refused(
      founder2,
      '@1EditEcosystemName',
      { EcosystemID: 2, NewName: 'x' },
      'warning',
      'Access denied',
    );
  });
});

describe('NewUser into ecosystem 2', () => {
  it('registers the key in ecosystem 2 and in ecosystem 1', async () => {
    const newcomer = h.newAccount(2n);
    const run = await h.track(h.nodeKey, 'NewUser', { NewPubkey: newcomer.pub, Ecosystem: 2 });
    expectOk(run);
    const key = newcomer.keyId.toString();
    expect(run.changes['1_keys'].inserted.map((row) => [row.ecosystem, row.id, row.pub])).toEqual([
      ['1', key, `\\x${newcomer.pub}`],
      ['2', key, `\\x${newcomer.pub}`],
    ]);
    expect(
      run.changes['1_members'].inserted.map((row) => [row.ecosystem, row.account, row.member_name]),
    ).toEqual([
      ['1', newcomer.account, newcomer.account],
      ['2', newcomer.account, newcomer.account],
    ]);
    expect(
      run.journal.map((entry) =>
        entry.table_id.startsWith(key) ? `${entry.table_name} ${entry.table_id}` : entry.table_name,
      ),
    ).toEqual([`1_keys ${key},2`, '1_members', `1_keys ${key},1`, '1_members']);
    await h.undone(run);
  });

  it('adds only what is missing when the key is already in ecosystem 1', async () => {
    const run = await h.track(h.nodeKey, 'NewUser', { NewPubkey: owner.pub, Ecosystem: 2 });
    expectOk(run);
    // The founder's key row is part of the seed; only a members row… is not missing either.
    expect(run.changes).toEqual({});
    const member = await h.registered();
    const again = await h.track(h.nodeKey, 'NewUser', { NewPubkey: member.pub, Ecosystem: 2 });
    expectOk(again);
    expect(Object.keys(again.changes).sort()).toEqual(['1_keys', '1_members']);
    expect(again.changes['1_keys'].inserted.map((row) => row.ecosystem)).toEqual(['2']);
    expect(again.changes['1_members'].inserted.map((row) => row.ecosystem)).toEqual(['2']);
    await h.undone(again);
  });
});

describe('roles and conditions per ecosystem', () => {
  let member: Account;
  let member2: Account;

  beforeAll(async () => {
    member2 = await h.registered(2n);
    member = { ...member2, ecosystem: 1n };
  });

  it('the developer role of ecosystem 2 opens ecosystem 2 only', async () => {
    const role = (await h.row('1_app_params', `"ecosystem" = 2 AND "name" = 'role_developer'`))!.value!;
    const fields = { ApplicationId: 1, Name: 'by_member', Value: '', Menu: '', Conditions: 'true' };
    await h.refused(member2, '@1NewPage', fields, 'warning', 'Access denied');
    await h.bench.mustRun(owner2, '@1RolesAssign', { RoleId: Number(role), MemberAccount: member.account });
    expectOk(await h.bench.run(member2, '@1NewPage', fields));
    await h.refused(member, 'NewPage', fields, 'warning', 'Access denied');
  });

  it('an ecosystem’s edited MainCondition is the one its contracts call, and the edit can be taken back', async () => {
    const row = (await h.row('1_contracts', `"ecosystem" = 2 AND "name" = 'MainCondition'`))!;
    await h.refused(member2, '@1RolesCreate', { RoleName: 'Clerk' }, 'warning', 'Access denied');
    await h.refused(
      h.founder,
      'EditContract',
      { Id: Number(row.id), Value: 'contract MainCondition {\n}' },
      'panic',
      `item ${row.id} has not been found`,
    );
    const open = 'contract MainCondition {\n  conditions {\n  }\n}';
    const run = await h.track(owner2, '@1EditContract', { Id: Number(row.id), Value: open });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_contracts': updatedOnly({ before: row, after: { ...row, value: open } }),
    });
    expect(run.journal).toEqual([updatedEntry('1_contracts', row.id!, { value: row.value })]);
    const clerk = await h.track(member2, '@1RolesCreate', { RoleName: 'Clerk' });
    expectOk(clerk);
    expect(clerk.changes['1_roles'].inserted).toEqual([
      expect.objectContaining({ ecosystem: '2', role_name: 'Clerk' }),
    ]);
    // Ecosystem 1 keeps its own MainCondition.
    await h.refused(member, 'RolesCreate', { RoleName: 'Clerk' }, 'warning', 'Access denied');

    await h.undone(clerk);
    await h.undone(run);
    expect(h.bench.contracts.contract('MainCondition', 2n)?.source).toBe(row.value);
    await h.refused(member2, '@1RolesCreate', { RoleName: 'Clerk' }, 'warning', 'Access denied');
  });
});

describe('EditEcosystemName', () => {
  it('renames the ecosystem from inside it', async () => {
    const before = (await h.row('1_ecosystems', `"id" = 2`))!;
    const run = await h.track(owner2, '@1EditEcosystemName', { EcosystemID: 2, NewName: 'Market' });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_ecosystems': updatedOnly({ before, after: { ...before, name: 'Market' } }),
    });
    expect(run.journal).toEqual([updatedEntry('1_ecosystems', '2', { name: 'Shop' })]);
    await h.undone(run);
  });

  it('is refused to others, from another ecosystem, and for bad names', async () => {
    const member2 = await h.registered(2n);
    await h.refused(
      member2,
      '@1EditEcosystemName',
      { EcosystemID: 2, NewName: 'x' },
      'warning',
      'Access denied',
    );
    await h.refused(
      owner,
      'EditEcosystemName',
      { EcosystemID: 2, NewName: 'x' },
      'error',
      'Ecosystem 2 can only be renamed from inside it',
    );
    await h.refused(
      owner2,
      '@1EditEcosystemName',
      { EcosystemID: 1, NewName: 'x' },
      'error',
      'Ecosystem 1 can only be renamed from inside it',
    );
    await h.refused(
      owner2,
      '@1EditEcosystemName',
      { EcosystemID: 2, NewName: ' ' },
      'warning',
      'Ecosystem name is empty',
    );
    await h.refused(
      owner2,
      '@1EditEcosystemName',
      { EcosystemID: 2, NewName: 'n'.repeat(256) },
      'warning',
      'Ecosystem name is longer than 255 bytes',
    );
    expectOk(
      await h.bench.run(h.founder, 'EditEcosystemName', { EcosystemID: 1, NewName: 'platform ecosystem' }),
    );
  });
});

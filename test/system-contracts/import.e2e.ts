import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { exportApplication, listRows, type AppBundle, type BundleItem } from '../support/app-bundle';
import { useTestNode, type TestNode } from '../support/node';

/**
 * A round trip over HTTP: the System application of our genesis (with a table added to it) exported in the
 * reference's bundle format, imported into a fresh ecosystem the way Weaver's import page does it (ImportUpload
 * with the file, then Import with each batch the upload left in the caller's buffer_data), and the rows of the
 * new ecosystem compared with the bundle: pages, menus, snippets, contracts, tables, parameters, languages.
 */

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let founder: IbaxClient;
let bundle: AppBundle;

const INVENTORY_COLUMNS = [
  { name: 'title', type: 'varchar', conditions: 'true' },
  { name: 'amount', type: 'number', conditions: 'ContractConditions("MainCondition")' },
  { name: 'details', type: 'json', conditions: '{"update": "true", "read": "true"}' },
  { name: 'price', type: 'money', conditions: 'true' },
];
const INVENTORY_PERMISSIONS = {
  insert: 'ContractConditions("DeveloperCondition")',
  update: 'true',
  new_column: 'ContractConditions("MainCondition")',
  read: 'true',
};

function newClient(): IbaxClient {
  return new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
}

async function mustCall(client: IbaxClient, key: string, name: string, args: Record<string, unknown>) {
  const { status } = await client.call(key, name, args as Record<string, string>, { timeoutMs: 60_000 });
  expect(status.errmsg, `${name}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status;
}

const itemsOf = (type: BundleItem['Type']) => bundle.data.filter((item) => item.Type === type);

interface Column {
  name: string;
  type: string;
  conditions: string;
}

/** Columns by name, a JSON permission as its value (its text keeps no particular key order). */
const comparableColumns = (columns: Column[]) =>
  [...columns]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((column) => ({
      ...column,
      conditions: column.conditions.startsWith('{')
        ? (JSON.parse(column.conditions) as unknown)
        : column.conditions,
    }));

/** Rows by name. */
const byName = (rows: Record<string, string>[]) => new Map(rows.map((row) => [row.name, row]));

beforeAll(async () => {
  node = running.node;
  founder = newClient();
  await founder.login(node.founderKey);
  // A table of the System application, so that the bundle carries one the new ecosystem lacks.
  await mustCall(founder, node.founderKey, 'NewTable', {
    ApplicationId: '1',
    Name: 'inventory',
    Columns: JSON.stringify(INVENTORY_COLUMNS),
    Permissions: JSON.stringify(INVENTORY_PERMISSIONS),
  });
  bundle = await exportApplication(founder, 'System');
});

describe('the exported bundle', () => {
  it('holds the System application of the genesis in the reference’s format', () => {
    expect(bundle.name).toBe('System');
    expect(bundle.conditions).toBe('ContractConditions("MainCondition")');
    const kinds = bundle.data.map((item) => item.Type);
    // The packager's order: snippets, menus, languages, tables, parameters, pages, contracts.
    const order = ['snippets', 'menu', 'languages', 'tables', 'app_params', 'pages', 'contracts'];
    expect(kinds).toEqual([...kinds].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    expect(itemsOf('contracts').map((item) => item.Name)).toEqual(
      expect.arrayContaining(['MainCondition', 'Import', 'ImportUpload', 'UpdatePlatformParam']),
    );
    expect(itemsOf('contracts')).toHaveLength(50);
    expect(
      itemsOf('menu')
        .map((item) => item.Name)
        .sort(),
    ).toEqual(['default_menu', 'developer_menu']);
    expect(itemsOf('app_params').map((item) => item.Name)).toEqual(['role_admin', 'role_developer']);
    expect(itemsOf('pages').length).toBeGreaterThan(5);
    expect(itemsOf('snippets').length).toBeGreaterThan(0);
    expect(itemsOf('languages').length).toBeGreaterThan(0);
    const inventory = itemsOf('tables').find((item) => item.Name === 'inventory')!;
    expect(comparableColumns(JSON.parse(inventory.Columns!))).toEqual(comparableColumns(INVENTORY_COLUMNS));
    expect(JSON.parse(inventory.Permissions!)).toEqual(INVENTORY_PERMISSIONS);
  });
});

describe('importing it into a new ecosystem', () => {
  let ecosystem: number;
  let importer: IbaxClient;
  let account: string;
  let appId: string;
  /** Names of the rows the new ecosystem had before the import (its seed). */
  const seeded = new Map<string, Set<string>>();

  beforeAll(async () => {
    const created = await mustCall(founder, node.founderKey, 'NewEcosystem', { Name: 'Imported' });
    ecosystem = Number(created.result);
    importer = newClient();
    account = (await importer.login(node.founderKey, { ecosystem })).account;
    for (const table of ['pages', 'menu', 'snippets', 'languages', 'app_params', 'contracts', 'tables']) {
      seeded.set(table, new Set((await listRows(importer, table, {})).map((row) => row.name)));
    }
  });

  it('uploads the bundle: the batches and the summary in buffer_data, and the application', async () => {
    const body = Buffer.from(JSON.stringify(bundle, null, 4));
    // From another ecosystem Weaver names the platform's contracts with their ecosystem, as here.
    await mustCall(importer, node.founderKey, '@1ImportUpload', {
      Data: { Name: 'system.json', MimeType: 'application/json', Body: body },
    });
    const [info] = await listRows(importer, 'buffer_data', { key: 'import_info', account });
    const summary = JSON.parse(info.value) as Record<string, unknown>;
    const names = (type: BundleItem['Type']) =>
      itemsOf(type)
        .map((item) => item.Name)
        .join(', ');
    expect(summary).toEqual({
      app_name: 'System',
      pages: names('pages'),
      pages_count: itemsOf('pages').length,
      snippets: names('snippets'),
      blocks_count: itemsOf('snippets').length,
      menu: names('menu'),
      menu_count: itemsOf('menu').length,
      parameters: names('app_params'),
      parameters_count: itemsOf('app_params').length,
      languages: names('languages'),
      languages_count: itemsOf('languages').length,
      contracts: names('contracts'),
      contracts_count: itemsOf('contracts').length,
      tables: names('tables'),
      tables_count: itemsOf('tables').length,
    });
    const [app] = await listRows(importer, 'applications', { name: 'System' });
    expect(app).toMatchObject({ conditions: bundle.conditions, deleted: '0' });
    appId = app.id;
  });

  it('imports batch by batch, the contracts last, as Weaver does', async () => {
    const [stored] = await listRows(importer, 'buffer_data', { key: 'import', account });
    const upload = JSON.parse(stored.value) as { name: string; data: { Data: string }[] };
    expect(upload.name).toBe('System');
    const batches = upload.data.map((batch) => JSON.parse(batch.Data) as BundleItem[]);
    const others = bundle.data.filter((item) => item.Type !== 'contracts');
    expect(batches.slice(0, -1).map((batch) => batch.length)).toEqual(
      batches.slice(0, -1).map((_batch, i) => Math.min(10, others.length - i * 10)),
    );
    expect(batches.flat()).toEqual([...others, ...itemsOf('contracts')]);
    expect(batches.at(-1)!.every((item) => item.Type === 'contracts')).toBe(true);
    let made = 0;
    for (const batch of upload.data) {
      const status = await mustCall(importer, node.founderKey, '@1Import', { Data: batch.Data });
      made += Number(status.result);
    }
    // Everything but the shared system tables (every ecosystem has them) and the seed's developer_menu, which
    // holds the bundle's items already.
    const skipped = bundle.data.filter(
      (item) =>
        (item.Type === 'tables' && item.Name !== 'inventory') ||
        (item.Type === 'menu' && item.Name === 'developer_menu'),
    );
    expect(skipped).toHaveLength(26);
    expect(made).toBe(bundle.data.length - skipped.length);
  });

  it('gives the new ecosystem the rows of the bundle', async () => {
    const expectApp = (table: string, name: string, row: Record<string, string>) => {
      // A row the ecosystem had already was edited and keeps its application.
      if (!seeded.get(table)!.has(name)) expect(row.app_id, `${table} ${name}`).toBe(appId);
    };

    const pages = byName(await listRows(importer, 'pages', {}));
    for (const item of itemsOf('pages')) {
      const row = pages.get(item.Name)!;
      expect(row, item.Name).toBeDefined();
      expect({ value: row.value, menu: row.menu, conditions: row.conditions }).toEqual({
        value: item.Value,
        menu: item.Menu,
        conditions: item.Conditions,
      });
      expectApp('pages', item.Name, row);
    }

    const menus = byName(await listRows(importer, 'menu', {}));
    for (const item of itemsOf('menu')) {
      const row = menus.get(item.Name)!;
      expect({ value: row.value, title: row.title, conditions: row.conditions }, item.Name).toEqual({
        value: item.Value,
        title: item.Title,
        conditions: item.Conditions,
      });
    }

    const snippets = byName(await listRows(importer, 'snippets', {}));
    for (const item of itemsOf('snippets')) {
      const row = snippets.get(item.Name)!;
      expect({ value: row.value, conditions: row.conditions }, item.Name).toEqual({
        value: item.Value,
        conditions: item.Conditions,
      });
      expectApp('snippets', item.Name, row);
    }

    const languages = byName(await listRows(importer, 'languages', {}));
    for (const item of itemsOf('languages')) {
      const row = languages.get(item.Name)!;
      expect(JSON.parse(row.res), item.Name).toEqual(JSON.parse(item.Trans!));
      expectApp('languages', item.Name, row);
    }

    const params = byName(await listRows(importer, 'app_params', { app_id: appId }));
    expect([...params.keys()]).toEqual(itemsOf('app_params').map((item) => item.Name));
    for (const item of itemsOf('app_params')) {
      const row = params.get(item.Name)!;
      expect({ value: row.value, conditions: row.conditions }).toEqual({
        value: item.Value,
        conditions: item.Conditions,
      });
    }

    const contracts = byName(await listRows(importer, 'contracts', {}));
    for (const item of itemsOf('contracts')) {
      const row = contracts.get(item.Name)!;
      expect(row, item.Name).toBeDefined();
      expect({ value: row.value, conditions: row.conditions }, item.Name).toEqual({
        value: item.Value,
        conditions: item.Conditions,
      });
      expectApp('contracts', item.Name, row);
    }
    // The imported contracts are compiled in the new ecosystem.
    const described = await importer.get(`/api/v2/contract/NewPage`);
    expect(described.status).toBe(200);
    expect(described.body.name).toBe(`@${ecosystem}NewPage`);

    // The system tables are the shared ones every ecosystem has: only the application's own table is made.
    const tables = await listRows(importer, 'tables', {});
    expect(tables.map((row) => row.name)).toEqual(['inventory']);
    expect(tables[0].app_id).toBe(appId);
    const table = await importer.get('/api/v2/table/inventory');
    expect(table.status).toBe(200);
    const inventory = itemsOf('tables').find((item) => item.Name === 'inventory')!;
    expect(
      comparableColumns(
        (table.body.columns as { name: string; type: string; perm: string }[]).map((column) => ({
          name: column.name,
          type: column.type,
          conditions: column.perm,
        })),
      ),
    ).toEqual(comparableColumns(JSON.parse(inventory.Columns!)));
    expect({
      insert: table.body.insert,
      update: table.body.update,
      new_column: table.body.new_column,
      read: table.body.read,
    }).toEqual(JSON.parse(inventory.Permissions!));
  });

  it('changes nothing when the same bundle is imported again', async () => {
    const tables = ['pages', 'menu', 'snippets', 'languages', 'app_params', 'contracts', 'tables'];
    const before = await Promise.all(tables.map((table) => listRows(importer, table, {})));
    const [stored] = await listRows(importer, 'buffer_data', { key: 'import', account });
    // A transaction is its content and its second: the same batch again must be signed in a later second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const batch of (JSON.parse(stored.value) as { data: { Data: string }[] }).data) {
      await mustCall(importer, node.founderKey, '@1Import', { Data: batch.Data });
    }
    expect(await Promise.all(tables.map((table) => listRows(importer, table, {})))).toEqual(before);
  });

  it('lets through only what the caller may make: a member who is not a developer is refused', async () => {
    const key = randomBytes(32).toString('hex');
    const member = newClient();
    const session = await member.login(key);
    const small: AppBundle = {
      name: 'Small',
      conditions: 'ContractConditions("MainCondition")',
      data: [
        { Type: 'pages', Name: 'small_page', Value: 'Span(small)', Menu: 'default_menu', Conditions: 'true' },
      ],
    };
    const upload = await member.call(key, 'ImportUpload', {
      Data: { Name: 'small.json', MimeType: 'application/json', Body: Buffer.from(JSON.stringify(small)) },
    });
    // A new application needs DeveloperCondition (NewApplication).
    expect(upload.status.errmsg).toEqual({ type: 'warning', error: 'Access denied' });
    const nothing = await member.call(key, 'Import', { Data: JSON.stringify(small.data) });
    expect(nothing.status.errmsg).toEqual({
      type: 'warning',
      error: 'Nothing to import: upload the bundle with @1ImportUpload first',
    });
    expect(await listRows(founder, 'buffer_data', { account: session.account })).toEqual([]);
    // Into an application that exists the upload goes through; each item is then checked as its own call.
    const intoSystem = { ...small, name: 'System' };
    const uploaded = await member.call(key, 'ImportUpload', {
      Data: {
        Name: 'small.json',
        MimeType: 'application/json',
        Body: Buffer.from(JSON.stringify(intoSystem)),
      },
    });
    expect(uploaded.status.errmsg).toBeUndefined();
    const refused = await member.call(key, 'Import', { Data: JSON.stringify(small.data) });
    expect(refused.status.errmsg).toEqual({ type: 'warning', error: 'Access denied' });
    expect(await listRows(founder, 'pages', { name: 'small_page' })).toEqual([]);
  });
});

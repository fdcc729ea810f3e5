import type { IbaxClient } from '../../src/sdk';

/**
 * An application bundle in the reference's export format (what Weaver's export page downloads and its import
 * page uploads): `{"name", "conditions", "data": [item…]}`, each item `{"Type", "Name", …}` with the fields
 * the creating contract takes, in the order the reference's packager writes them: snippets, menus, languages,
 * tables, application parameters, pages, contracts.
 */
export interface BundleItem {
  Type: 'snippets' | 'menu' | 'languages' | 'tables' | 'app_params' | 'pages' | 'contracts';
  Name: string;
  Value?: string;
  Conditions?: string;
  Menu?: string;
  Title?: string;
  Trans?: string;
  Columns?: string;
  Permissions?: string;
}

export interface AppBundle {
  name: string;
  conditions: string;
  data: BundleItem[];
}

type Row = Record<string, string>;

/** Rows of a table of the session's ecosystem matching `where`, in id order, over REST (`listWhere`). */
export async function listRows(
  client: IbaxClient,
  table: string,
  where: Record<string, unknown>,
): Promise<Row[]> {
  const answer = await client.postForm(`/api/v2/listWhere/${table}`, {
    where: JSON.stringify(where),
    order: 'id',
    limit: '1000',
  });
  if (answer.status !== 200) throw new Error(`listWhere/${table}: ${answer.text}`);
  const list = (answer.body.list ?? []) as Row[];
  if (Number(answer.body.count) > list.length) throw new Error(`listWhere/${table}: more than one page`);
  return list;
}

/**
 * Exports the application `name` of the session's ecosystem as the reference does: its pages, snippets,
 * languages, application parameters, tables (columns with their types and permissions, from `table/{name}`)
 * and contracts, and the menus its pages use (menus belong to no application).
 */
export async function exportApplication(client: IbaxClient, name: string): Promise<AppBundle> {
  const [app] = await listRows(client, 'applications', { name, deleted: 0 });
  if (!app) throw new Error(`no application ${name}`);
  const appId = app.id;
  const pages = await listRows(client, 'pages', { app_id: appId });
  const menuNames = [...new Set(pages.map((page) => page.menu).filter(Boolean))];
  const menus = menuNames.length > 0 ? await listRows(client, 'menu', { name: { $in: menuNames } }) : [];
  const snippets = await listRows(client, 'snippets', { app_id: appId });
  const languages = await listRows(client, 'languages', { app_id: appId });
  const params = await listRows(client, 'app_params', { app_id: appId });
  const contracts = await listRows(client, 'contracts', { app_id: appId });
  const tables: BundleItem[] = [];
  for (const table of await listRows(client, 'tables', { app_id: appId })) {
    const answer = await client.get(`/api/v2/table/${table.name}`);
    if (answer.status !== 200) throw new Error(`table/${table.name}: ${answer.text}`);
    const described = answer.body as {
      insert: string;
      update: string;
      new_column: string;
      read?: string;
      filter?: string;
      columns: { name: string; type: string; perm: string }[];
    };
    const permissions: Record<string, string> = {
      insert: described.insert,
      update: described.update,
      new_column: described.new_column,
    };
    if (described.read) permissions.read = described.read;
    if (described.filter) permissions.filter = described.filter;
    tables.push({
      Type: 'tables',
      Name: table.name,
      Columns: JSON.stringify(
        described.columns.map((column) => ({
          name: column.name,
          type: column.type,
          conditions: column.perm,
        })),
      ),
      Permissions: JSON.stringify(permissions),
    });
  }
  return {
    name: app.name,
    conditions: app.conditions,
    data: [
      ...snippets.map((row) => ({
        Type: 'snippets' as const,
        Name: row.name,
        Value: row.value,
        Conditions: row.conditions,
      })),
      ...menus.map((row) => ({
        Type: 'menu' as const,
        Name: row.name,
        Value: row.value,
        Title: row.title,
        Conditions: row.conditions,
      })),
      ...languages.map((row) => ({ Type: 'languages' as const, Name: row.name, Trans: row.res })),
      ...tables,
      ...params.map((row) => ({
        Type: 'app_params' as const,
        Name: row.name,
        Value: row.value,
        Conditions: row.conditions,
      })),
      ...pages.map((row) => ({
        Type: 'pages' as const,
        Name: row.name,
        Value: row.value,
        Menu: row.menu,
        Conditions: row.conditions,
      })),
      ...contracts.map((row) => ({
        Type: 'contracts' as const,
        Name: row.name,
        Value: row.value,
        Conditions: row.conditions,
      })),
    ],
  };
}

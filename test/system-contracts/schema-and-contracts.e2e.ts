import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEVELOPER,
  expectOk,
  insertedEntry,
  insertedOnly,
  MAIN,
  updatedEntry,
  useNode,
  type Account,
  type Row,
} from './helpers';

/**
 * Tables and columns (NewTable, EditTable, NewColumn, EditColumn) and contracts (NewContract, EditContract,
 * BindWallet, UnbindWallet), then the new contract writing the new table: on the real database, with the
 * schema changes and the compiled contracts following the journal when a transaction is taken back.
 */

const h = useNode();
let developer: Account;
let stranger: Account;
let developerRole: string;

beforeAll(async () => {
  developer = await h.registered();
  stranger = await h.registered();
  developerRole = (await h.row('1_app_params', `"ecosystem" = 1 AND "name" = 'role_developer'`))!.value!;
  await h.bench.mustRun(h.founder, 'RolesAssign', {
    RoleId: Number(developerRole),
    MemberAccount: developer.account,
  });
});

/** Columns of a physical table, as `name type`. */
async function columnsOf(table: string): Promise<string[]> {
  const rows = await h.bench.db.query<{ column: string }>(
    `SELECT "column_name" || ' ' || "data_type" AS "column" FROM information_schema.columns
      WHERE "table_schema" = current_schema() AND "table_name" = $1 ORDER BY "ordinal_position"`,
    [table],
  );
  return rows.map((row) => row.column);
}

/** A `1_tables` row with its JSON columns parsed. */
function parsedTable(row: Row) {
  return {
    ...row,
    permissions: JSON.parse(row.permissions!) as unknown,
    columns: JSON.parse(row.columns!) as unknown,
  };
}

const COLUMNS = JSON.stringify([
  { name: 'title', type: 'varchar', conditions: 'true' },
  { name: 'price', type: 'money', conditions: DEVELOPER },
]);
const PERMISSIONS = JSON.stringify({
  insert: 'true',
  update: DEVELOPER,
  new_column: DEVELOPER,
  filter: 'true',
});

describe('tables', () => {
  let tableRow: Row;

  it('NewTable creates the physical table and its 1_tables row', async () => {
    const id = await h.nextId('1_tables');
    const run = await h.track(developer, 'NewTable', {
      ApplicationId: 1,
      Name: 'Things',
      Columns: COLUMNS,
      Permissions: PERMISSIONS,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    expect(run.createdTables).toEqual(['1_things']);
    expect(await columnsOf('1_things')).toEqual(['id bigint', 'title character varying', 'price numeric']);
    expect(Object.keys(run.changes)).toEqual(['1_tables']);
    const [inserted] = run.changes['1_tables'].inserted;
    expect(run.changes['1_tables']).toEqual(insertedOnly(inserted));
    expect(parsedTable(inserted)).toEqual({
      id,
      ecosystem: '1',
      name: 'things',
      permissions: JSON.parse(PERMISSIONS),
      columns: { title: 'true', price: DEVELOPER },
      conditions: DEVELOPER,
      app_id: '1',
    });
    expect(run.journal).toEqual([
      { table_name: '@system', table_id: '1_things', data: { type: 'NewTable', table: '1_things' } },
      insertedEntry('1_tables', id),
    ]);

    await h.undone(run);
    expect(await columnsOf('1_things')).toEqual([]);
    expect(await h.row('1_tables', `"name" = 'things'`)).toBeUndefined();

    await h.bench.mustRun(developer, 'NewTable', {
      ApplicationId: 1,
      Name: 'Things',
      Columns: COLUMNS,
      Permissions: PERMISSIONS,
    });
    tableRow = (await h.row('1_tables', `"id" = $1`, [id]))!;
    expect(tableRow).toEqual(inserted);
  });

  it('NewTable refuses strangers, platform names, existing tables and bad definitions', async () => {
    const fields = { ApplicationId: 1, Name: 'other', Columns: COLUMNS, Permissions: PERMISSIONS };
    await h.refused(h.nodeKey, 'NewTable', fields, 'warning', 'Access denied');
    await h.refused(stranger, 'NewTable', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewTable',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(developer, 'NewTable', { ...fields, Name: ' ' }, 'warning', 'Table name is empty');
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Name: 'keys' },
      'warning',
      'table keys is a system table',
    );
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Name: 'Ecosystems' },
      'warning',
      'table Ecosystems is a system table',
    );
    await h.refused(developer, 'NewTable', { ...fields, Name: 'things' }, 'warning', 'table things exists');
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Name: 'bad name' },
      'panic',
      "Name bad name must only contain latin, digit and '_', '-' characters",
    );
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Columns: '[' },
      'panic',
      'unexpected end of JSON input',
    );
    await h.refused(developer, 'NewTable', { ...fields, Columns: '[]' }, 'panic', 'columns are undefined');
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Columns: '[{"name":"a","type":"blob","conditions":"true"}]' },
      'panic',
      'incorrect type',
    );
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Columns: '[{"name":"a","type":"text","conditions":"x()"}]' },
      'panic',
      /^condition .* is not allowed$/,
    );
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Permissions: '{"insert":"true"}' },
      'panic',
      'Update condition is empty',
    );
    await h.refused(
      developer,
      'NewTable',
      { ...fields, Permissions: '{"insert":"true","update":"true","new_column":"true","drop":"true"}' },
      'panic',
      'unknown permission drop',
    );
  });

  it('EditTable replaces the permissions and keeps the filter', async () => {
    const run = await h.track(developer, 'EditTable', {
      Name: 'things',
      InsertPerm: DEVELOPER,
      UpdatePerm: 'true',
      NewColumnPerm: DEVELOPER,
      ReadPerm: 'true',
    });
    expectOk(run);
    expect(Object.keys(run.changes)).toEqual(['1_tables']);
    const [{ before, after }] = run.changes['1_tables'].updated;
    expect(before).toEqual(tableRow);
    expect(parsedTable(after)).toEqual({
      ...parsedTable(tableRow),
      permissions: { insert: DEVELOPER, update: 'true', new_column: DEVELOPER, read: 'true', filter: 'true' },
    });
    expect(run.journal).toEqual([
      updatedEntry('1_tables', tableRow.id!, { permissions: tableRow.permissions }),
    ]);
    await h.undone(run);
  });

  it('EditTable refuses strangers, unknown tables and invalid conditions', async () => {
    const fields = { Name: 'things', InsertPerm: 'true', UpdatePerm: 'true', NewColumnPerm: 'true' };
    await h.refused(h.nodeKey, 'EditTable', fields, 'warning', 'Access denied');
    await h.refused(stranger, 'EditTable', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'EditTable',
      { ...fields, Name: 'nothing' },
      'warning',
      'table nothing has not been found',
    );
    await h.refused(developer, 'EditTable', { ...fields, UpdatePerm: '' }, 'panic', 'conditions is empty');
    // A platform table's row is MainCondition's: the developer may not change it.
    await h.refused(developer, 'EditTable', { ...fields, Name: 'pages' }, 'warning', 'Access denied');
  });

  it('NewColumn adds the column to the physical table and to the 1_tables row', async () => {
    const run = await h.track(developer, 'NewColumn', {
      TableName: 'Things',
      Name: 'Note',
      Type: 'text',
      Permissions: '{"update":"true","read":"true"}',
    });
    expectOk(run);
    expect(run.createdTables).toEqual([]);
    expect(await columnsOf('1_things')).toEqual([
      'id bigint',
      'title character varying',
      'price numeric',
      'note text',
    ]);
    const [{ after }] = run.changes['1_tables'].updated;
    expect(parsedTable(after)).toEqual({
      ...parsedTable(tableRow),
      // The permission text as given, as the reference keeps it.
      columns: { title: 'true', price: DEVELOPER, note: '{"update":"true","read":"true"}' },
    });
    expect(run.journal).toEqual([
      {
        table_name: '@system',
        table_id: '1_things',
        data: { type: 'NewColumn', table: '1_things', column: 'note' },
      },
      updatedEntry('1_tables', tableRow.id!, { columns: tableRow.columns }),
    ]);
    await h.undone(run);
    expect(await columnsOf('1_things')).toEqual(['id bigint', 'title character varying', 'price numeric']);
  });

  it('NewColumn creates every column type', async () => {
    const types: Record<string, string> = {
      varchar: 'character varying',
      character: 'character',
      number: 'bigint',
      double: 'double precision',
      datetime: 'timestamp without time zone',
      json: 'jsonb',
      bytea: 'bytea',
    };
    for (const type of Object.keys(types)) {
      expectOk(
        await h.bench.run(developer, 'NewColumn', {
          TableName: 'things',
          Name: `c_${type}`,
          Type: type,
          Permissions: 'true',
        }),
      );
    }
    expect(await columnsOf('1_things')).toEqual([
      'id bigint',
      'title character varying',
      'price numeric',
      ...Object.entries(types).map(([type, sql]) => `c_${type} ${sql}`),
    ]);
  });

  it('NewColumn refuses callers without new_column, bad names and types, existing columns', async () => {
    const fields = { TableName: 'things', Name: 'extra', Type: 'text', Permissions: 'true' };
    await h.refused(stranger, 'NewColumn', fields, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'NewColumn', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, TableName: 'nothing' },
      'warning',
      'table nothing has not been found',
    );
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, Name: '1abc' },
      'error',
      '1abc is not a valid column name',
    );
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, Name: 'a-b' },
      'error',
      'a-b is not a valid column name',
    );
    await h.refused(developer, 'NewColumn', { ...fields, Type: 'blob' }, 'error', 'Unknown column type blob');
    await h.refused(developer, 'NewColumn', { ...fields, Name: 'Title' }, 'warning', 'column title exists');
    await h.refused(developer, 'NewColumn', { ...fields, Name: 'id' }, 'warning', 'column id exists');
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, Permissions: '{"insert":"true"}' },
      'error',
      'Column permissions may only have update and read, not insert',
    );
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, Permissions: '{"update":1}' },
      'error',
      'Column permission update must be a string',
    );
    await h.refused(
      developer,
      'NewColumn',
      { ...fields, Permissions: 'maybe' },
      'panic',
      /^condition .* is not allowed$/,
    );
  });

  it('EditColumn replaces a column’s permission', async () => {
    const current = (await h.row('1_tables', `"id" = $1`, [tableRow.id]))!;
    const run = await h.track(developer, 'EditColumn', {
      TableName: 'things',
      Name: 'Title',
      Permissions: DEVELOPER,
    });
    expectOk(run);
    const [{ before, after }] = run.changes['1_tables'].updated;
    expect(before).toEqual(current);
    expect(parsedTable(after)).toEqual({
      ...parsedTable(current),
      columns: { ...(parsedTable(current).columns as object), title: DEVELOPER },
    });
    expect(run.journal).toEqual([updatedEntry('1_tables', tableRow.id!, { columns: current.columns })]);
    await h.undone(run);
  });

  it('EditColumn refuses strangers, unknown tables and columns, and bad permissions', async () => {
    const fields = { TableName: 'things', Name: 'title', Permissions: 'true' };
    await h.refused(stranger, 'EditColumn', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'EditColumn',
      { ...fields, TableName: 'nothing' },
      'warning',
      'table nothing has not been found',
    );
    await h.refused(
      developer,
      'EditColumn',
      { ...fields, Name: 'nothing' },
      'warning',
      'column nothing has not been found',
    );
    await h.refused(
      developer,
      'EditColumn',
      { ...fields, Permissions: '{"write":"true"}' },
      'error',
      'Column permissions may only have update and read, not write',
    );
  });
});

describe('contracts', () => {
  const HELLO =
    'contract Hello {\n  data {\n    Name string "optional"\n  }\n  action {\n    $result = "Hello " + $Name\n  }\n}';
  const HELLO_2 = HELLO.replace('"Hello "', '"Hi "');
  let contract: Row;

  it('NewContract stores the source under its first name and registers it in the VM', async () => {
    const id = await h.nextId('1_contracts');
    const run = await h.track(developer, 'NewContract', {
      ApplicationId: 1,
      Value: HELLO,
      Conditions: DEVELOPER,
    });
    expectOk(run);
    // The row id, as the reference returns it (a client opens row/contracts/<id>); transactions use 5000 + id.
    expect(run.outcome.result).toBe(id);
    contract = {
      id,
      ecosystem: '1',
      name: 'Hello',
      value: HELLO,
      wallet_id: '0',
      token_id: '1',
      conditions: DEVELOPER,
      permissions: '{}',
      app_id: '1',
    };
    expect(run.changes).toEqual({ '1_contracts': insertedOnly(contract) });
    expect(run.journal).toEqual([insertedEntry('1_contracts', id)]);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.tableId).toBe(Number(id));
    expect((await h.bench.mustRun(stranger, 'Hello', { Name: 'Bob' })).result).toBe('Hello Bob');

    await h.undone(run);
    expect(h.bench.contracts.contract('Hello', 1n)).toBeUndefined();
    const gone = await h.bench.run(stranger, 'Hello', { Name: 'Bob' });
    expect(gone.error?.message).toBe('unknown contract Hello');

    expect(
      (
        await h.bench.mustRun(developer, 'NewContract', {
          ApplicationId: 1,
          Value: HELLO,
          Conditions: DEVELOPER,
        })
      ).result,
    ).toBe(run.outcome.result);
    expect(await h.row('1_contracts', `"id" = $1`, [id])).toEqual(contract);
  });

  it('NewContract stores a function and the token ecosystem', async () => {
    const run = await h.track(developer, 'NewContract', {
      ApplicationId: 1,
      Value: 'func double(n int) int {\n  return n * 2\n}',
      Conditions: 'true',
      TokenEcosystem: 3,
    });
    expectOk(run);
    expect(run.changes['1_contracts'].inserted[0]).toMatchObject({
      name: 'double',
      token_id: '3',
      conditions: 'true',
    });
    await h.undone(run);
  });

  it('NewContract refuses strangers, duplicates, empty and broken sources', async () => {
    const fields = { ApplicationId: 1, Value: 'contract Other {\n}', Conditions: DEVELOPER };
    await h.refused(h.nodeKey, 'NewContract', fields, 'warning', 'Access denied');
    await h.refused(stranger, 'NewContract', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewContract',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Value: HELLO_2 },
      'warning',
      'Contract Hello already exists',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Value: 'contract NewPage {\n}' },
      'warning',
      'Contract NewPage already exists',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Value: '// nothing here' },
      'error',
      'The source must declare a contract or a function',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Value: '' },
      'error',
      'The source must declare a contract or a function',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, TokenEcosystem: -1 },
      'error',
      'TokenEcosystem must be positive',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Value: 'contract Broken {\n  action {\n    $x = \n  }\n}' },
      'panic',
      'there is not eval expression',
    );
    await h.refused(
      developer,
      'NewContract',
      { ...fields, Conditions: 'DBFind("keys")' },
      'panic',
      /^condition .* is not allowed$/,
    );
    expect(h.bench.contracts.contract('Broken', 1n)).toBeUndefined();
  });

  it('EditContract recompiles the source, and the journal brings the old one back', async () => {
    const run = await h.track(developer, 'EditContract', { Id: Number(contract.id), Value: HELLO_2 });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_contracts': {
        inserted: [],
        updated: [{ before: contract, after: { ...contract, value: HELLO_2 } }],
        deleted: [],
      },
    });
    expect(run.journal).toEqual([updatedEntry('1_contracts', contract.id!, { value: HELLO })]);
    expect((await h.bench.mustRun(stranger, 'Hello', { Name: 'Bob' })).result).toBe('Hi Bob');
    await h.undone(run);
    expect(h.bench.contracts.contract('Hello', 1n)?.source).toBe(HELLO);
    expect((await h.bench.mustRun(stranger, 'Hello', { Name: 'Bob' })).result).toBe('Hello Bob');
  });

  it('EditContract changes only the conditions', async () => {
    const run = await h.track(developer, 'EditContract', { Id: Number(contract.id), Conditions: MAIN });
    expectOk(run);
    expect(run.changes['1_contracts'].updated[0].after).toEqual({ ...contract, conditions: MAIN });
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.conditions).toBe(MAIN);
    await h.undone(run);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.conditions).toBe(DEVELOPER);
  });

  it('EditContract refuses strangers, other names, broken sources and empty edits', async () => {
    const id = Number(contract.id);
    await h.refused(stranger, 'EditContract', { Id: id, Value: HELLO_2 }, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'EditContract', { Id: id, Value: HELLO_2 }, 'warning', 'Access denied');
    await h.refused(
      developer,
      'EditContract',
      { Id: 9999, Value: HELLO_2 },
      'panic',
      'item 9999 has not been found',
    );
    await h.refused(
      developer,
      'EditContract',
      { Id: id },
      'warning',
      'Nothing to change: Value and Conditions are empty',
    );
    await h.refused(
      developer,
      'EditContract',
      { Id: id, Value: 'contract Bye {\n}' },
      'panic',
      'contracts or functions names cannot be changed',
    );
    await h.refused(
      developer,
      'EditContract',
      { Id: id, Value: 'contract Hello {\n  action {\n    $result = Nope()\n  }\n}' },
      'panic',
      'unknown identifier Nope',
    );
    expect(h.bench.contracts.contract('Hello', 1n)?.source).toBe(HELLO);
    // A system contract's row is MainCondition's.
    const newPage = (await h.row('1_contracts', `"ecosystem" = 1 AND "name" = 'NewPage'`))!;
    await h.refused(
      developer,
      'EditContract',
      { Id: Number(newPage.id), Conditions: DEVELOPER },
      'warning',
      'Access denied',
    );
  });

  it('BindWallet binds the contract to the caller', async () => {
    const run = await h.track(developer, 'BindWallet', { Id: Number(contract.id) });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_contracts': {
        inserted: [],
        updated: [{ before: contract, after: { ...contract, wallet_id: developer.keyId.toString() } }],
        deleted: [],
      },
    });
    expect(run.journal).toEqual([updatedEntry('1_contracts', contract.id!, { wallet_id: '0' })]);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.walletId).toBe(developer.keyId);
    await h.undone(run);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.walletId).toBe(0n);
  });

  it('BindWallet refuses strangers, unknown contracts and a second bind to the same account', async () => {
    await h.refused(stranger, 'BindWallet', { Id: Number(contract.id) }, 'warning', 'Access denied');
    await h.refused(developer, 'BindWallet', { Id: 9999 }, 'warning', 'Contract 9999 has not been found');
    await h.bench.mustRun(developer, 'BindWallet', { Id: Number(contract.id) });
    await h.refused(
      developer,
      'BindWallet',
      { Id: Number(contract.id) },
      'warning',
      'The contract is already bound to this account',
    );
  });

  it('UnbindWallet: the bound account may unbind even when the row’s conditions no longer let it', async () => {
    await h.bench.mustRun(developer, 'EditContract', { Id: Number(contract.id), Conditions: MAIN });
    const bound = (await h.row('1_contracts', `"id" = $1`, [contract.id]))!;
    expect(bound.wallet_id).toBe(developer.keyId.toString());
    await h.refused(stranger, 'UnbindWallet', { Id: Number(contract.id) }, 'warning', 'Access denied');
    const run = await h.track(developer, 'UnbindWallet', { Id: Number(contract.id) });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_contracts': {
        inserted: [],
        updated: [{ before: bound, after: { ...bound, wallet_id: '0' } }],
        deleted: [],
      },
    });
    expect(run.journal).toEqual([
      updatedEntry('1_contracts', contract.id!, { wallet_id: developer.keyId.toString() }),
    ]);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.walletId).toBe(0n);
    await h.undone(run);
    expect(h.bench.contracts.contract('Hello', 1n)?.meta.walletId).toBe(developer.keyId);
    // The founder passes the row's conditions.
    expectOk(await h.bench.run(h.founder, 'UnbindWallet', { Id: Number(contract.id) }));
  });

  it('UnbindWallet refuses unbound and unknown contracts', async () => {
    await h.refused(
      h.founder,
      'UnbindWallet',
      { Id: Number(contract.id) },
      'warning',
      'The contract is not bound to an account',
    );
    await h.refused(h.founder, 'UnbindWallet', { Id: 9999 }, 'warning', 'Contract 9999 has not been found');
  });
});

describe('a new contract on a new table', () => {
  const ADD_THING = `contract AddThing {
  data {
    Title string
    Price money
  }
  action {
    $result = DBInsert("things", {"title": $Title, "price": $Price})
  }
}`;
  const SET_PRICE = `contract SetPrice {
  data {
    Id int
    Price money
  }
  action {
    DBUpdate("things", $Id, {"price": $Price})
  }
}`;

  beforeAll(async () => {
    await h.bench.mustRun(developer, 'NewContract', {
      ApplicationId: 1,
      Value: ADD_THING,
      Conditions: DEVELOPER,
    });
    await h.bench.mustRun(developer, 'NewContract', {
      ApplicationId: 1,
      Value: SET_PRICE,
      Conditions: DEVELOPER,
    });
  });

  it('writes the table under its insert permission, and the journal takes the row back', async () => {
    const id = await h.nextId('1_things');
    const run = await h.track(stranger, 'AddThing', { Title: 'lamp', Price: { money: '25' } });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    expect(run.changes['1_things'].inserted).toEqual([
      expect.objectContaining({
        id,
        title: 'lamp',
        price: '25',
        c_number: '0',
        c_json: '{}',
        c_bytea: '\\x',
        c_datetime: null,
      }),
    ]);
    expect(Object.keys(run.changes)).toEqual(['1_things']);
    expect(run.journal).toEqual([insertedEntry('1_things', id)]);
    await h.undone(run);
  });

  it('updates a column only for callers its permission lets through', async () => {
    const id = (await h.bench.mustRun(stranger, 'AddThing', { Title: 'desk', Price: { money: '100' } }))
      .result;
    // update: DEVELOPER on the table (restored after EditTable's undo), and price: DEVELOPER on the column.
    await h.refused(
      stranger,
      'SetPrice',
      { Id: Number(id), Price: { money: '1' } },
      'warning',
      'Access denied',
    );
    const run = await h.track(developer, 'SetPrice', { Id: Number(id), Price: { money: '90' } });
    expectOk(run);
    expect(run.changes['1_things'].updated.map(({ before, after }) => [before.price, after.price])).toEqual([
      ['100', '90'],
    ]);
    expect(run.journal).toEqual([updatedEntry('1_things', id, { price: '100' })]);
    await h.undone(run);
  });

  it('hides a column whose read permission the caller does not pass', async () => {
    const source = `contract ReadThing {
  data {
    Id int
  }
  action {
    $result = JSONEncode(DBFind("things").Columns("title,price").WhereId($Id).Row())
  }
}`;
    await h.bench.mustRun(developer, 'NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: DEVELOPER,
    });
    const id = Number(
      (await h.bench.mustRun(stranger, 'AddThing', { Title: 'chair', Price: { money: '7' } })).result,
    );
    // RoleAccess is false for a stranger (ContractConditions would raise "Access denied" and refuse the read).
    const read = `RoleAccess(${developerRole})`;
    const edit = await h.track(developer, 'EditColumn', {
      TableName: 'things',
      Name: 'price',
      Permissions: `{"update": "true", "read": "${read}"}`,
    });
    expectOk(edit);
    // Kept as given, as the reference keeps it.
    expect(JSON.parse(edit.changes['1_tables'].updated[0].after.columns!).price).toBe(
      `{"update": "true", "read": "${read}"}`,
    );
    expect(JSON.parse((await h.bench.mustRun(stranger, 'ReadThing', { Id: id })).result)).toEqual({
      id: String(id),
      title: 'chair',
    });
    expect(JSON.parse((await h.bench.mustRun(developer, 'ReadThing', { Id: id })).result)).toEqual({
      id: String(id),
      title: 'chair',
      price: '7',
    });
    // The column's update permission is now "true": anyone may change the price (the table's update is DEVELOPER).
    await h.refused(stranger, 'SetPrice', { Id: id, Price: { money: '1' } }, 'warning', 'Access denied');
    await h.undone(edit);
    expect(JSON.parse((await h.bench.mustRun(stranger, 'ReadThing', { Id: id })).result)).toEqual({
      id: String(id),
      title: 'chair',
      price: '7',
    });
  });

  it('cannot write the platform tables: their permissions name the system contracts', async () => {
    const source = `contract Sneaky {
  data {
    Mode string
  }
  action {
    if $Mode == "keys" { DBUpdate("keys", $key_id, {"+amount": 1000}) }
    if $Mode == "history" { DBInsert("history", {"sender_id": 1, "recipient_id": $key_id, "amount": 5}) }
    if $Mode == "members" { DBInsert("members", {"account": "x", "member_name": "x"}) }
    if $Mode == "contracts" { DBUpdate("contracts", 1, {"value": "x"}) }
    if $Mode == "tables" { DBUpdate("tables", 1, {"permissions": "{}"}) }
    if $Mode == "parameters" { DBUpdate("parameters", 1, {"value": "1"}) }
    if $Mode == "ecosystems" { DBUpdate("ecosystems", 1, {"name": "mine"}) }
  }
}`;
    await h.bench.mustRun(developer, 'NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: DEVELOPER,
    });
    for (const [mode, message] of [
      ['keys', 'table: access denied'],
      ['history', 'table: access denied'],
      ['members', 'table: access denied'],
      ['contracts', 'table: access denied'],
      ['tables', 'table: access denied'],
      ['parameters', 'table: access denied'],
      ['ecosystems', 'table: access denied'],
    ]) {
      await h.refused(h.founder, 'Sneaky', { Mode: mode }, 'panic', message);
    }
  });

  it('the schema built-ins only run from their system contracts', async () => {
    const source = `contract SchemaProbe {
  action {
    CreateTable("sneaky", "[{\\"name\\":\\"a\\",\\"type\\":\\"text\\",\\"conditions\\":\\"true\\"}]", "{\\"insert\\":\\"true\\",\\"update\\":\\"true\\",\\"new_column\\":\\"true\\"}", 1)
  }
}`;
    await h.bench.mustRun(developer, 'NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: DEVELOPER,
    });
    await h.refused(
      h.founder,
      'SchemaProbe',
      {},
      'panic',
      /^CreateTable can only be called with condition: /,
    );
  });
});

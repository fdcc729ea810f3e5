import { randomBytes } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { beforeAll, describe, expect, it } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { keyIdToAddress } from '../../src/crypto';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildCoinTransfer, type TxStatusAnswer } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';

/**
 * The built-ins added for parity with the reference (CheckCondition, CheckNumberChars, CreateView,
 * DelColumn, DelTable, GetColumnType, GetDataFromXLSX, GetHistory, GetHistoryRow, GetLogTxCount,
 * GetRowsCountXLSX, RegexpMatch, TopAmounts, UpdateNotifications, UpdateRolesNotifications), each used by
 * a contract in real transactions sent over HTTP and mined in blocks: their results, their refusals of bad
 * input, and, for the schema changes, the block rollback that takes them back exactly.
 */

// The probes fail on purpose, more often than a key may before it is banned (BAN_BAD_TX).
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });
let node: TestNode;
let db: DatabaseService;
let founder: IbaxClient;

const PROBE = `contract Parity {
    data {
        Mode string
        Text string "optional"
        Pattern string "optional"
        Table string "optional"
        Column string "optional"
        Id int "optional"
        Num int "optional"
        Count int "optional"
        Sheet int "optional"
    }
    action {
        if $Mode == "chars" { $result = CheckNumberChars($Text) }
        if $Mode == "regexp" { $result = RegexpMatch($Text, $Pattern) }
        if $Mode == "condition" { $result = CheckCondition($Text) }
        if $Mode == "coltype" { $result = GetColumnType($Table, $Column) }
        if $Mode == "logcount" { $result = GetLogTxCount($Num) }
        if $Mode == "block" { $result = JSONEncode(GetBlock($Num)) }
        if $Mode == "top" { $result = JSONEncode(TopAmounts($Num, $Count)) }
        if $Mode == "history" { $result = JSONEncode(GetHistory($Table, $Id)) }
        if $Mode == "historyrow" { $result = JSONEncode(GetHistoryRow($Table, $Id, $Num)) }
        if $Mode == "notify" {
            UpdateNotifications($ecosystem_id, $Text, $key_id)
            UpdateNotifications(1, [$Text, "0000-0000-0000-0000-0000"])
            UpdateRolesNotifications(1, 1, "2")
            UpdateRolesNotifications($ecosystem_id, [1, 2])
            $result = "queued"
        }
        if $Mode == "notifybad" { UpdateNotifications(1, 1.5) }
        if $Mode == "rolesbad" { UpdateRolesNotifications(1, "x") }
        if $Mode == "xlsxrows" { $result = GetRowsCountXLSX($Id, $Sheet) }
        if $Mode == "xlsxdata" { $result = JSONEncode(GetDataFromXLSX($Id, $Num, $Count, $Sheet)) }
        if $Mode == "insert" {
            $result = DBInsert($Table, {"title": $Text, "owner_id": $Num, "amount": $Count})
        }
        if $Mode == "owner" { $result = DBInsert("parity_owners", {"name": $Text}) }
        if $Mode == "update" { DBUpdate($Table, $Id, {"title": $Text}) }
        if $Mode == "view" { $result = JSONEncode(DBFind($Table).Columns("title,owner").Order("title")) }
        if $Mode == "createview" { CreateView("parity_direct", $Text, $Pattern, 1) }
        if $Mode == "delcolumn" { DelColumn($Table, $Column) }
        if $Mode == "deltable" { DelTable($Table) }
    }
}`;

/** The reference's NewView (not shipped here yet): the only contract access_exec_create_view allows. */
const NEW_VIEW = `contract NewView {
    data {
        Name string
        Columns string
        Where string
    }
    action {
        CreateView($Name, $Columns, $Where, 1)
    }
}`;

const PERMISSIONS = (update = 'true', read?: string) =>
  JSON.stringify({ insert: 'true', update, new_column: 'true', ...(read ? { read } : {}) });

/** Runs a contract in a block; returns its status (result or error). */
async function call(contract: string, args: Record<string, unknown>): Promise<TxStatusAnswer> {
  const { status } = await founder.call(node.founderKey, contract, args as Record<string, string>);
  return status;
}

async function must(contract: string, args: Record<string, unknown>): Promise<string> {
  const status = await call(contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result;
}

const probe = (args: Record<string, unknown>) => must('Parity', args);

/** Expects the probe to fail with a panic (the built-in's error) or an `error` statement's text. */
async function refused(args: Record<string, unknown>, error: string | RegExp, type = 'panic') {
  const status = await call('Parity', args);
  expect(status.errmsg, `${JSON.stringify(args)} should fail`).toBeDefined();
  expect(status.errmsg!.type).toBe(type);
  if (typeof error === 'string') expect(status.errmsg!.error).toBe(error);
  else expect(status.errmsg!.error).toMatch(error);
}

async function newTable(name: string, columns: { name: string; type: string }[], permissions: string) {
  await must('NewTable', {
    ApplicationId: '1',
    Name: name,
    Columns: JSON.stringify(columns.map((column) => ({ ...column, conditions: 'true' }))),
    Permissions: permissions,
  });
}

/** What a schema change may touch: the columns (with defaults) and key of the tables, views, and rows. */
async function schemaOf(...tables: string[]) {
  const columns = await db.query(
    `SELECT "table_name", "column_name", "data_type", "is_nullable", "column_default"
       FROM information_schema.columns WHERE "table_schema" = current_schema() AND "table_name" = ANY($1::text[])
      ORDER BY "table_name", "ordinal_position"`,
    [tables],
  );
  const keys = await db.query(
    `SELECT "table_name", "constraint_type" FROM information_schema.table_constraints
      WHERE "table_schema" = current_schema() AND "table_name" = ANY($1::text[]) ORDER BY 1, 2`,
    [tables],
  );
  const registered = await db.query(
    `SELECT t::text AS "row" FROM "1_tables" t WHERE "ecosystem" = 1 AND "name" LIKE 'parity_%' ORDER BY "id"`,
  );
  const views = await db.query(`SELECT t::text AS "row" FROM "1_views" t ORDER BY "id"`);
  return { columns, keys, registered, views };
}

/**
 * Takes the chain back to before the block `blockId` over JSON-RPC: that block, and any the node made
 * after it (its own periodic transactions), which touch none of the tables compared.
 */
async function rollBack(blockId: string) {
  for (;;) {
    const tip = await db.one<{ block_id: string }>(`SELECT "block_id"::text AS "block_id" FROM "info_block"`);
    const count = Number(tip!.block_id) - Number(blockId) + 1;
    if (count <= 0) return;
    expect(await node.client.rpc('admin.rollbackBlocks', [count, true])).toMatchObject({
      rolled_back: count,
    });
  }
}

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  await must('NewContract', { ApplicationId: '1', Value: PROBE, Conditions: 'true' });
  await must('NewContract', { ApplicationId: '1', Value: NEW_VIEW, Conditions: 'true' });
  await newTable(
    'parity_items',
    [
      { name: 'title', type: 'varchar' },
      { name: 'owner_id', type: 'number' },
      { name: 'amount', type: 'money' },
    ],
    PERMISSIONS(),
  );
  await newTable('parity_owners', [{ name: 'name', type: 'varchar' }], PERMISSIONS());
  await newTable(
    'parity_scratch',
    [
      { name: 'note', type: 'text' },
      { name: 'extra', type: 'number' },
      { name: 'stamp', type: 'datetime' },
    ],
    PERMISSIONS(),
  );
  await newTable('parity_empty', [{ name: 'ref', type: 'number' }], PERMISSIONS());
  await newTable('parity_locked', [{ name: 'note', type: 'varchar' }], PERMISSIONS('false'));
  await newTable('parity_secret', [{ name: 'note', type: 'varchar' }], PERMISSIONS('true', 'false'));
});

describe('CheckNumberChars and RegexpMatch', () => {
  it('accept ASCII letters and digits only', async () => {
    expect(await probe({ Mode: 'chars', Text: 'Abc123' })).toBe('true');
    expect(await probe({ Mode: 'chars', Text: '' })).toBe('true');
    expect(await probe({ Mode: 'chars', Text: 'abc 1' })).toBe('false');
    expect(await probe({ Mode: 'chars', Text: 'é' })).toBe('false');
  });

  it('match RE2 patterns, in linear time, and refuse invalid ones with Go’s text', async () => {
    expect(await probe({ Mode: 'regexp', Text: 'order-42', Pattern: '^[a-z]+-\\d{2,3}$' })).toBe('true');
    expect(await probe({ Mode: 'regexp', Text: 'ORDER-4', Pattern: '(?i)^order-\\d{2,3}$' })).toBe('false');
    expect(await probe({ Mode: 'regexp', Text: 'αβγ', Pattern: '^\\p{Greek}+$' })).toBe('true');
    // A pattern with \u is read as a Go string body first, as the reference does.
    expect(await probe({ Mode: 'regexp', Text: 'café', Pattern: 'caf\\u00e9' })).toBe('true');
    expect(await probe({ Mode: 'regexp', Text: 'x1', Pattern: '\\u0078\\d' })).toBe('false');
    // What makes a backtracking engine run for ever is one pass here.
    const started = Date.now();
    expect(await probe({ Mode: 'regexp', Text: `${'a'.repeat(20_000)}b`, Pattern: '^(a+)+$' })).toBe('false');
    expect(Date.now() - started).toBeLessThan(10_000);
    await refused(
      { Mode: 'regexp', Text: 'x', Pattern: '(' },
      'regexp: Compile(`(`): error parsing regexp: missing closing ): `(`',
    );
    await refused(
      { Mode: 'regexp', Text: 'x', Pattern: '(?=x)' },
      'regexp: Compile(`(?=x)`): error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
    await refused(
      { Mode: 'regexp', Text: 'x', Pattern: 'a{1001}' },
      'regexp: Compile(`a{1001}`): error parsing regexp: invalid repeat count: `{1001}`',
    );
  });
});

describe('CheckCondition', () => {
  it('answers whether a condition holds, false for an empty one, and fails on one that does not compile', async () => {
    expect(await probe({ Mode: 'condition', Text: 'true' })).toBe('true');
    expect(await probe({ Mode: 'condition', Text: 'false' })).toBe('false');
    expect(await probe({ Mode: 'condition', Text: '' })).toBe('false');
    expect(await probe({ Mode: 'condition', Text: 'ContractConditions("MainCondition")' })).toBe('true');
    const status = await call('Parity', { Mode: 'condition', Text: '1 +' });
    expect(status.errmsg?.error).toBeTruthy();
  });
});

describe('GetColumnType, GetLogTxCount, TopAmounts', () => {
  it('names column types as the reference does, "" for what does not exist', async () => {
    const type = (Table: string, Column: string) => probe({ Mode: 'coltype', Table, Column });
    expect(await type('parity_items', 'title')).toBe('varchar');
    expect(await type('parity_items', 'owner_id')).toBe('number');
    expect(await type('parity_items', 'amount')).toBe('money');
    expect(await type('parity_scratch', 'stamp')).toBe('datetime');
    expect(await type('parity_scratch', 'note')).toBe('text');
    expect(await type('keys', 'pub')).toBe('bytea');
    expect(await type('parity_items', 'nope')).toBe('');
    expect(await type('nope', 'title')).toBe('');
  });

  it('counts the transactions of an ecosystem in the chain', async () => {
    const counted = await db.one<{ count: string }>(
      `SELECT count(*)::text AS "count" FROM "log_transactions" WHERE "ecosystem_id" = 1 AND "status" = 0`,
    );
    expect(await probe({ Mode: 'logcount', Num: '1' })).toBe(counted!.count);
    expect(await probe({ Mode: 'logcount', Num: '987654' })).toBe('0');
  });

  it('reads a block of the chain (GetBlock), nil for one that does not exist', async () => {
    const block = await db.one<{ time: string; key_id: string }>(
      `SELECT "time"::text AS "time", "key_id"::text AS "key_id" FROM "block_chain" WHERE "id" = 2`,
    );
    expect(await probe({ Mode: 'block', Num: '2' })).toBe(
      `{"id":2,"time":${block!.time},"key_id":${block!.key_id}}`,
    );
    expect(await probe({ Mode: 'block', Num: '987654' })).toBe('null');
  });

  it('lists the accounts holding the most, largest first, and refuses a bad count', async () => {
    // Two keys get equal balances by real transfers (a table written by hand while blocks are made could be
    // overwritten by the block's write-behind): ties go by key id.
    const other = new IbaxClient(node.url, founder.crypto);
    const otherAccount = (await other.login(randomBytes(32).toString('hex'))).account;
    const nodeAccount = keyIdToAddress(node.app.get(NodeIdentity).keys.node.keyId);
    const toAccount = buildCoinTransfer(
      founder.signer,
      node.founderKey,
      { transferSelf: { value: '1000000', source: 'UTXO', target: 'Account' } },
      { networkId: node.config.networkId },
    );
    for (const status of Object.values(
      await founder.waitForTransactions(await founder.sendTransactions([toAccount.bytes])),
    )) {
      expect(status.errmsg).toBeUndefined();
    }
    for (const recipient of [otherAccount, nodeAccount]) {
      const { status } = await founder.call(node.founderKey, 'TokensTransfer', {
        Recipient: recipient,
        Amount: '4242',
        Comment: 'top',
      });
      expect(status.errmsg).toBeUndefined();
    }
    const answered = JSON.parse(await probe({ Mode: 'top', Num: '1', Count: '10' })) as {
      id: string;
      account: string;
      amount: string;
    }[];
    // Ordered by the table's columns: ORDER BY "id" would sort the text the SELECT names "id".
    const expected = await db.query<{ id: string; account: string; amount: string }>(
      `SELECT "id"::text AS "id", "account", "amount"::text AS "amount" FROM "1_keys"
        WHERE "ecosystem" = 1 AND "deleted" = 0 AND "blocked" = 0 AND "amount" > 0
        ORDER BY "1_keys"."amount" DESC, "1_keys"."id" LIMIT 10`,
    );
    expect(answered).toEqual(expected);
    const tied = answered.filter((key) => key.amount === '4242').map((key) => key.account);
    expect(tied.sort()).toEqual([otherAccount, nodeAccount].sort());
    const [first, second] = answered.filter((key) => key.amount === '4242').map((key) => BigInt(key.id));
    expect(first < second).toBe(true);
    expect(JSON.parse(await probe({ Mode: 'top', Num: '987654', Count: '3' }))).toEqual([]);
    await refused({ Mode: 'top', Num: '1', Count: '0' }, 'count 0 must be from 1 to 10000', 'error');
    await refused({ Mode: 'top', Num: '0', Count: '1' }, 'ecosystem 0 must be positive', 'error');
  });
});

describe('GetHistory and GetHistoryRow', () => {
  let id: string;
  const blocks: string[] = [];

  beforeAll(async () => {
    for (const [mode, text] of [
      ['insert', 'first'],
      ['update', 'second'],
      ['update', 'third'],
    ]) {
      const status = await call('Parity', {
        Mode: mode,
        Table: 'parity_items',
        Text: text,
        Id: id ?? '0',
        Num: '7',
        Count: '150',
      });
      expect(status.errmsg).toBeUndefined();
      if (mode === 'insert') id = status.result;
      blocks.push(status.blockid);
    }
  });

  it('rebuilds the former versions of a row from the journal, newest first', async () => {
    const journal = await db.query<{ id: string; block_id: string }>(
      `SELECT "id"::text AS "id", "block_id"::text AS "block_id" FROM "rollback_tx"
        WHERE "table_name" = '1_parity_items' AND "table_id" = $1 ORDER BY "id"`,
      [id],
    );
    expect(journal.map((record) => record.block_id)).toEqual(blocks);
    const times = await db.query<{ id: string; time: string }>(
      `SELECT "id"::text AS "id", "time"::text AS "time" FROM "block_chain" WHERE "id" = ANY($1::bigint[])`,
      [blocks],
    );
    const timeOf = (block: string) =>
      new Date(Number(times.find((row) => row.id === block)!.time) * 1000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
    const history = JSON.parse(await probe({ Mode: 'history', Table: 'parity_items', Id: id }));
    // Each version is the row before the next change, named by the journal record of the change that
    // made it (its `id` replaces the row's, as in the reference).
    expect(history).toEqual([
      {
        id: journal[1].id,
        title: 'second',
        owner_id: '7',
        amount: '150',
        block_id: blocks[1],
        block_time: timeOf(blocks[1]),
      },
      {
        id: journal[0].id,
        title: 'first',
        owner_id: '7',
        amount: '150',
        block_id: blocks[0],
        block_time: timeOf(blocks[0]),
      },
    ]);
    const row = JSON.parse(
      await probe({ Mode: 'historyrow', Table: 'parity_items', Id: id, Num: journal[0].id }),
    );
    expect(row).toEqual(history[1]);
    expect(await probe({ Mode: 'historyrow', Table: 'parity_items', Id: id, Num: journal[2].id })).toBe('{}');
    expect(await probe({ Mode: 'historyrow', Table: 'parity_items', Id: id, Num: '0' })).toBe('{}');
  });

  it('refuses a row that does not exist and tables the caller may not read', async () => {
    await refused({ Mode: 'history', Table: 'parity_items', Id: '99999' }, 'record has not been found');
    await refused({ Mode: 'history', Table: 'parity_secret', Id: '1' }, 'table: access denied');
    await refused({ Mode: 'history', Table: 'no such', Id: '1' }, /is not valid/);
  });
});

describe('UpdateNotifications and UpdateRolesNotifications', () => {
  it('queue the accounts and roles to notify, as lists or arrays, and refuse other values', async () => {
    const account = (await db.one<{ account: string }>(
      `SELECT "account" FROM "1_keys" WHERE "ecosystem" = 1 ORDER BY "id" LIMIT 1`,
    ))!.account;
    const before = await db.query(`SELECT t::text FROM "1_notifications" t ORDER BY "id"`);
    expect(await probe({ Mode: 'notify', Text: account })).toBe('queued');
    // They write nothing: the counts go to the notification service after the block.
    expect(await db.query(`SELECT t::text FROM "1_notifications" t ORDER BY "id"`)).toEqual(before);
    await refused({ Mode: 'notifybad' }, 'UpdateNotifications takes accounts as address text or key ids');
    await refused({ Mode: 'rolesbad' }, 'role id must be an integer');
  });
});

describe('GetDataFromXLSX and GetRowsCountXLSX', () => {
  let book: string;
  const upload = (name: string, data: Uint8Array) =>
    must('UploadBinary', { ApplicationId: '1', Name: name, Data: data, DataMimeType: 'application/xlsx' });

  beforeAll(async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      workbook,
      XLSX.utils.aoa_to_sheet([
        ['name', 'qty', 'note'],
        ['apple', 3, ''],
        ['pear', 1.5, 'ripe'],
        [],
        ['plum', true],
      ]),
      'Fruit',
    );
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([[null, 'B1']]), 'Other');
    book = await upload('fruit.xlsx', XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }));
  });

  it('reads the rows of a sheet as text, from row 0, sheets numbered from 1', async () => {
    const data = (Num: string, Count: string, Sheet = '1') =>
      probe({ Mode: 'xlsxdata', Id: book, Num, Count, Sheet }).then((text) => JSON.parse(text));
    expect(await probe({ Mode: 'xlsxrows', Id: book, Sheet: '1' })).toBe('5');
    expect(await probe({ Mode: 'xlsxrows', Id: book, Sheet: '2' })).toBe('1');
    expect(await probe({ Mode: 'xlsxrows', Id: book, Sheet: '3' })).toBe('0');
    expect(await data('0', '1')).toEqual([['name', 'qty', 'note']]);
    expect(await data('1', '10')).toEqual([
      ['apple', '3', ''],
      ['pear', '1.5', 'ripe'],
      ['', '', ''],
      ['plum', 'TRUE', ''],
    ]);
    expect(await data('0', '5', '2')).toEqual([['', 'B1']]);
    expect(await data('9', '5')).toEqual([]);
    expect(await data('0', '0')).toEqual([]);
    expect(await data('0', '5', '7')).toEqual([]);
    expect(await probe({ Mode: 'xlsxdata', Id: '99999', Num: '0', Count: '5', Sheet: '1' })).toBe('[]');
  });

  it('refuses a missing binary, a file that is no XLSX, one that unpacks too large, and a negative line', async () => {
    await refused({ Mode: 'xlsxrows', Id: '99999', Sheet: '1' }, 'binary 99999 has not been found');
    await refused(
      { Mode: 'xlsxdata', Id: book, Num: '-1', Count: '1', Sheet: '1' },
      'line -1 must not be negative',
    );
    const text = await upload('notes.txt', Buffer.from('plain text, no archive'));
    await refused({ Mode: 'xlsxrows', Id: text, Sheet: '1' }, 'zip: not a valid zip file');
    // 20 MB of spaces deflate to some 200 kB: the archive is refused as it unpacks, before any of it is read.
    const bomb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(bomb, 'xl/workbook.xml', Buffer.alloc(20 * 1024 * 1024, 0x20));
    const packed: Buffer = XLSX.CFB.write(bomb, { fileType: 'zip', type: 'buffer', compression: true });
    expect(packed.length).toBeLessThan(500_000);
    const bombId = await upload('bomb.xlsx', packed);
    await refused(
      { Mode: 'xlsxdata', Id: bombId, Num: '0', Count: '1', Sheet: '1' },
      'the file unpacks to more than 16777216 bytes',
    );
  });
});

describe('CreateView', () => {
  const columns = JSON.stringify([
    { table: 'parity_items', col: 'title' },
    { table: 'parity_owners', col: 'name', alias: 'owner' },
  ]);
  const where = JSON.stringify([
    { table1: 'parity_items', col1: 'owner_id', compare: '=', table2: 'parity_owners', col2: 'id' },
  ]);

  it('creates a view of joined tables that contracts read, registered in 1_views; a rollback drops both', async () => {
    const owner = await probe({ Mode: 'owner', Text: 'ann' });
    await probe({ Mode: 'insert', Table: 'parity_items', Text: 'kettle', Num: owner, Count: '3' });
    const created = await call('NewView', { Name: 'Parity_View', Columns: columns, Where: where });
    expect(created.errmsg).toBeUndefined();
    expect(JSON.parse(await probe({ Mode: 'view', Table: 'parity_view' }))).toEqual([
      { title: 'kettle', owner: 'ann' },
    ]);
    expect(await probe({ Mode: 'coltype', Table: 'parity_view', Column: 'owner' })).toBe('varchar');
    const registered = await db.one<{ name: string; columns: unknown; wheres: unknown; app_id: string }>(
      `SELECT "name", "columns", "wheres", "app_id"::text AS "app_id" FROM "1_views" WHERE "ecosystem" = 1`,
    );
    expect(registered).toEqual({
      name: 'parity_view',
      columns: [
        { table: '1_parity_items', col: 'title' },
        { table: '1_parity_owners', col: 'name', alias: 'owner' },
      ],
      wheres: [
        { table1: '1_parity_items', table2: '1_parity_owners', col1: 'owner_id', col2: 'id', compare: '=' },
      ],
      app_id: '1',
    });
    const beforeSecond = await schemaOf('1_parity_view2');
    const second = await call('NewView', {
      Name: 'parity_view2',
      Columns: JSON.stringify([
        { table: 'parity_items', col: 'title' },
        { table: 'parity_empty', col: 'ref' },
      ]),
      Where: JSON.stringify([
        { table1: 'parity_items', col1: 'owner_id', compare: '=', table2: 'parity_empty', col2: 'ref' },
      ]),
    });
    expect(second.errmsg).toBeUndefined();
    expect((await schemaOf('1_parity_view2')).columns).toHaveLength(2);
    // What a view reads cannot be dropped from under it.
    await refused(
      { Mode: 'deltable', Table: 'parity_empty' },
      'table 1_parity_empty is read by the view 1_parity_view2',
    );
    await refused(
      { Mode: 'delcolumn', Table: 'parity_empty', Column: 'ref' },
      'table 1_parity_empty is read by the view 1_parity_view2',
    );
    await rollBack(second.blockid);
    expect(await schemaOf('1_parity_view2')).toEqual(beforeSecond);
    expect(
      await db.query(`SELECT 1 FROM information_schema.views WHERE "table_name" = '1_parity_view2'`),
    ).toEqual([]);
    expect(await db.query(`SELECT "name" FROM "1_views" ORDER BY "id"`)).toEqual([{ name: 'parity_view' }]);
  });

  it('is allowed only where access_exec_create_view says (@1NewView), and checks what it joins', async () => {
    await refused(
      { Mode: 'createview', Text: columns, Pattern: where },
      'CreateView can only be called with condition: ContractAccess("@1NewView")',
    );
    const view = async (name: string, viewColumns: unknown, viewWhere: unknown, error: string) => {
      const status = await call('NewView', {
        Name: name,
        Columns: JSON.stringify(viewColumns),
        Where: JSON.stringify(viewWhere),
      });
      expect(status.errmsg).toEqual({ type: 'panic', error });
    };
    const join = JSON.parse(where);
    await view('parity_items', JSON.parse(columns), join, 'table parity_items exists');
    await view('parity_v3', [], join, 'columns is empty');
    await view('parity_v3', JSON.parse(columns), [], 'columns is empty');
    await view('parity_v3', [{ table: 'parity_items', col: 'nope' }], join, "column nope doesn't exist");
    await view('parity_v3', [{ table: 'keys', col: 'amount' }], join, 'table 1_keys has not been found');
    await view(
      'parity_v3',
      [{ table: 'parity_items', col: 'title' }],
      [{ ...join[0], compare: '= 1 OR 1' }],
      'compare operator = 1 or 1 is not supported',
    );
    await view(
      'parity_v3',
      [{ table: 'parity_secret', col: 'note' }],
      [{ ...join[0], table2: 'parity_secret' }],
      'table 1_parity_secret has a read condition: a view would show what it hides',
    );
    await view(
      'parity_v3',
      [{ table: 'parity_scratch', col: 'note' }],
      join,
      'table 1_parity_scratch is not joined in where',
    );
  });
});

describe('DelColumn and DelTable', () => {
  it('drop a column of an empty table, journalled: a rollback adds it back as it was', async () => {
    const before = await schemaOf('1_parity_scratch');
    const dropped = await call('Parity', { Mode: 'delcolumn', Table: 'parity_scratch', Column: 'Extra' });
    expect(dropped.errmsg).toBeUndefined();
    const after = await schemaOf('1_parity_scratch');
    expect(after.columns.map((column: any) => column.column_name)).toEqual(['id', 'note', 'stamp']);
    const row = await db.one<{ columns: Record<string, string> }>(
      `SELECT "columns" FROM "1_tables" WHERE "ecosystem" = 1 AND "name" = 'parity_scratch'`,
    );
    expect(Object.keys(row!.columns).sort()).toEqual(['note', 'stamp']);
    await rollBack(dropped.blockid);
    expect(await schemaOf('1_parity_scratch')).toEqual(before);
  });

  it('drop an empty table and its 1_tables row, journalled: a rollback restores both exactly', async () => {
    const before = await schemaOf('1_parity_scratch');
    const dropped = await call('Parity', { Mode: 'deltable', Table: 'parity_scratch' });
    expect(dropped.errmsg).toBeUndefined();
    expect((await schemaOf('1_parity_scratch')).columns).toEqual([]);
    expect(
      await db.query(`SELECT 1 FROM "1_tables" WHERE "ecosystem" = 1 AND "name" = 'parity_scratch'`),
    ).toEqual([]);
    await rollBack(dropped.blockid);
    expect(await schemaOf('1_parity_scratch')).toEqual(before);
    // The restored table works: it is dropped again for good.
    expect((await call('Parity', { Mode: 'deltable', Table: 'parity_scratch' })).errmsg).toBeUndefined();
    expect((await schemaOf('1_parity_scratch')).columns).toEqual([]);
  });

  it('refuse platform tables, tables the caller may not update, tables with rows, and unknown columns', async () => {
    await refused({ Mode: 'deltable', Table: 'keys' }, '1_keys is not a custom table');
    await refused({ Mode: 'deltable', Table: 'nope' }, '1_nope is not a custom table');
    await refused({ Mode: 'deltable', Table: 'parity_locked' }, 'table: access denied');
    await refused({ Mode: 'deltable', Table: 'parity_items' }, 'Table 1_parity_items is not empty');
    await refused(
      { Mode: 'delcolumn', Table: 'parity_items', Column: 'title' },
      'Table 1_parity_items is not empty',
    );
    await refused({ Mode: 'delcolumn', Table: 'parity_secret', Column: 'nope' }, "column nope doesn't exist");
    await refused({ Mode: 'delcolumn', Table: 'parity_secret', Column: 'id' }, 'Column id cannot be deleted');
  });
});

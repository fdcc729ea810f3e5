import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, type TxStatusAnswer } from '../../src/sdk';
import type { ArgumentValue } from '../../src/sdk/transactions';
import { useTestNode, type TestNode } from '../support/node';
import { expectRestError } from '../support/wire';

/**
 * Column permissions in the reference's forms: a NewTable column's `conditions` as a condition or as an
 * object `{"update", "read"}` (the reference's scenarios send it so), a column given as the JSON text of
 * its object (NewTableJoint's form), NewColumn and EditColumn with the object as JSON text. `1_tables`
 * keeps what the reference keeps (each column's permission as text: an object as Go's JSON of it), and
 * both conditions apply: read to contracts, the list endpoints and pages, update to contracts.
 */

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });
let node: TestNode;
let founder: IbaxClient;
let stranger: IbaxClient;
let db: DatabaseService;

const MAIN = 'ContractConditions("MainCondition")';
const COLUMNS = [
  { name: 'MyName', type: 'varchar', index: '0', conditions: { update: 'true', read: 'true' } },
  { name: 'Secret', type: 'text', conditions: { update: 'true', read: MAIN } },
  { name: 'hidden', type: 'json', conditions: { read: 'false', update: 'true' } },
  { name: 'locked', type: 'text', conditions: { update: 'false' } },
  JSON.stringify({ name: 'note', type: 'text', conditions: 'true' }),
  { name: 'marks', type: 'text', conditions: { update: 'ContractConditions("A&B<C>")' } },
];

const CONTRACTS = [
  `contract PermAdd {
    data {
        Name string
        Secret string
        Hidden string
        Locked string
        Note string
    }
    action {
        $result = DBInsert("perms", {"myname": $Name, "secret": $Secret, "hidden": $Hidden, "locked": $Locked, "note": $Note})
    }
}`,
  `contract PermFind {
    data {
        Columns string "optional"
        Id int "optional"
    }
    action {
        $result = JSONEncode(DBFind("perms").Columns($Columns).WhereId($Id).Order("id"))
    }
}`,
  `contract PermSet {
    data {
        Id int
        Column string
        Value string
    }
    action {
        var values map
        values[$Column] = $Value
        DBUpdate("perms", $Id, values)
    }
}`,
];

let calls = 0;
const callTime = () => BigInt(Math.floor(Date.now() / 1000) - ++calls);

async function call(contract: string, args: Record<string, ArgumentValue> = {}): Promise<TxStatusAnswer> {
  return (await founder.call(node.founderKey, contract, args, { time: callTime() })).status;
}

async function mustCall(contract: string, args: Record<string, ArgumentValue> = {}): Promise<string> {
  const status = await call(contract, args);
  expect(status.errmsg, `${contract} ${JSON.stringify(args)}`).toBeUndefined();
  return status.result;
}

/** Each call at once; its rows (PermFind), its result, or its error text. */
async function callAll(calls: [string, Record<string, ArgumentValue>][]): Promise<unknown[]> {
  const txs = [];
  for (const [contract, args] of calls) {
    txs.push((await founder.buildCall(node.founderKey, contract, args, { time: callTime() })).bytes);
  }
  const hashes = await founder.sendTransactions(txs);
  const statuses = await founder.waitForTransactions(hashes, { timeoutMs: 60_000 });
  return hashes.map((hash, i) => {
    const status = statuses[hash];
    if (status.errmsg) return `error: ${status.errmsg.error}`;
    return calls[i][0] === 'PermFind' ? JSON.parse(status.result) : status.result;
  });
}

/** The `columns` of the table's `1_tables` row, each permission as the text kept. */
async function storedColumns(table: string): Promise<Record<string, unknown>> {
  const row = await db.one<{ columns: string; permissions: string }>(
    `SELECT "columns"::text AS "columns", "permissions"::text AS "permissions" FROM "1_tables"
      WHERE "ecosystem" = 1 AND "name" = $1`,
    [table],
  );
  return { columns: JSON.parse(row!.columns), permissions: JSON.parse(row!.permissions) };
}

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  stranger = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await stranger.login(randomBytes(32).toString('hex'));
  await mustCall('@1NewTable', {
    ApplicationId: '1',
    Name: 'perms',
    Columns: JSON.stringify(COLUMNS),
    Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true', read: '', filter: '' }),
  });
  for (const source of CONTRACTS) {
    await mustCall('@1NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });
  }
  await mustCall('PermAdd', { Name: 'one', Secret: 's1', Hidden: '{"a": "h1"}', Locked: 'l1', Note: 'n1' });
  await mustCall('PermAdd', { Name: 'two', Secret: 's2', Hidden: '{"a": "h2"}', Locked: 'l2', Note: 'n2' });
}, 180_000);

describe('NewTable', () => {
  it('keeps each column’s permission as the reference does: an object as Go’s JSON of it', async () => {
    expect(await storedColumns('perms')).toEqual({
      columns: {
        myname: '{"read":"true","update":"true"}',
        secret: '{"read":"ContractConditions(\\"MainCondition\\")","update":"true"}',
        hidden: '{"read":"false","update":"true"}',
        locked: '{"update":"false"}',
        note: 'true',
        marks: '{"update":"ContractConditions(\\"A\\u0026B\\u003cC\\u003e\\")"}',
      },
      // An empty read or filter is not kept.
      permissions: { insert: 'true', update: 'true', new_column: 'true' },
    });
    const table = await founder.get('/api/v2/table/perms');
    expect(table.body.columns).toContainEqual({
      name: 'secret',
      type: 'text',
      perm: '{"read":"ContractConditions(\\"MainCondition\\")","update":"true"}',
    });
    expect(table.body).not.toHaveProperty('read');
  });

  it('refuses a permission object that is not {update, read} of conditions', async () => {
    const refused = async (conditions: unknown, message: string | RegExp) => {
      const status = await call('@1NewTable', {
        ApplicationId: '1',
        Name: 'refused',
        Columns: JSON.stringify([{ name: 'a', type: 'text', conditions }]),
        Permissions: '{"insert": "true", "update": "true", "new_column": "true"}',
      });
      expect(status.errmsg?.error, JSON.stringify(conditions)).toMatch(message);
    };
    await refused({ update: 'true', index: '0' }, 'unknown column permission index');
    await refused({ update: true }, 'column permission update must be a string');
    await refused({ read: 'true' }, 'column permission update is missing');
    await refused({ update: 'true', read: 'nope()' }, /^condition .* is not allowed$/);
    await refused(1, 'conditions is empty');
    expect(await db.one(`SELECT 1 FROM "1_tables" WHERE "name" = 'refused'`)).toBeUndefined();
  });
});

describe('read permissions', () => {
  it('contracts see neither a column whose read condition fails nor the JSON paths into it', async () => {
    const [all, named, onlyHidden, onlyPath] = await callAll([
      ['PermFind', { Id: 1 }],
      ['PermFind', { Columns: 'myname,hidden,Hidden->A,secret,note', Id: 1 }],
      ['PermFind', { Columns: 'hidden' }],
      ['PermFind', { Columns: 'hidden->a' }],
    ]);
    expect(all).toEqual([
      { id: '1', myname: 'one', secret: 's1', locked: 'l1', note: 'n1', marks: '' },
    ]);
    expect(named).toEqual([{ id: '1', myname: 'one', secret: 's1', note: 'n1' }]);
    expect(onlyHidden).toBe('error: access denied');
    expect(onlyPath).toBe('error: access denied');
  });

  it('the list endpoints and pages show each reader what its read conditions allow', async () => {
    const byFounder = await founder.get('/api/v2/list/perms?limit=1');
    expect(byFounder.body.list).toEqual([
      { id: '1', myname: 'one', secret: 's1', locked: 'l1', note: 'n1', marks: '' },
    ]);
    const byStranger = await stranger.get('/api/v2/list/perms?limit=1');
    expect(byStranger.body.list).toEqual([{ id: '1', myname: 'one', locked: 'l1', note: 'n1', marks: '' }]);
    expectRestError(await stranger.get('/api/v2/list/perms?columns=secret'), 400, 'E_SERVER', 'access denied');
    expectRestError(await founder.get('/api/v2/list/perms?columns=hidden->a'), 400, 'E_SERVER', 'access denied');
    expect((await founder.get('/api/v2/row/perms/2?columns=myname,hidden->a')).body).toEqual({
      value: { id: '2', myname: 'two' },
    });
    const page = await stranger.postForm('/api/v2/content', {
      template: 'DBFind(perms,p).Columns("myname,secret,hidden,hidden->a").WhereId(2)',
    });
    expect(page.body.tree[0].attr).toMatchObject({ columns: ['myname', 'id'], data: [['two', '2']] });
  });
});

describe('update permissions', () => {
  it('a column whose update condition fails may not be changed; the others may', async () => {
    const answers = await callAll([
      ['PermSet', { Id: 1, Column: 'myname', Value: 'uno' }],
      ['PermSet', { Id: 1, Column: 'hidden', Value: '{"a": "changed"}' }],
      ['PermSet', { Id: 1, Column: 'locked', Value: 'changed' }],
    ]);
    expect(answers).toEqual(['', '', 'error: column: access denied']);
    expect(await db.one(`SELECT "myname", "hidden"->>'a' AS "a", "locked" FROM "1_perms" WHERE "id" = 1`)).toEqual({
      myname: 'uno',
      a: 'changed',
      locked: 'l1',
    });
  });

  it('EditColumn and NewColumn take the object as JSON text and keep it as given', async () => {
    const given = '{"update": "true", "read": "true"}';
    await mustCall('@1EditColumn', { TableName: 'perms', Name: 'locked', Permissions: given });
    await mustCall('@1NewColumn', {
      TableName: 'perms',
      Name: 'extra',
      Type: 'text',
      Permissions: '{"update": "false", "read": "false"}',
    });
    const { columns } = (await storedColumns('perms')) as { columns: Record<string, string> };
    expect(columns.locked).toBe(given);
    expect(columns.extra).toBe('{"update": "false", "read": "false"}');
    expect(await mustCall('PermSet', { Id: 1, Column: 'locked', Value: 'changed' })).toBe('');
    const [rows, extra] = await callAll([
      ['PermFind', { Columns: 'locked,extra', Id: 1 }],
      ['PermSet', { Id: 1, Column: 'extra', Value: 'x' }],
    ]);
    expect(rows).toEqual([{ id: '1', locked: 'changed' }]);
    expect(extra).toBe('error: column: access denied');
  });
});

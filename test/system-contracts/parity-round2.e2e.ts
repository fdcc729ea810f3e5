import { beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient, type TxStatusAnswer } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';
import {
  ONLY_HERE,
  ONLY_IN_REFERENCE,
  REFERENCE_ACCESS_EXEC_PARAMETERS,
  REFERENCE_BASE_PARAMETERS,
  REFERENCE_PRICE_CREATE_PARAMETERS,
  REFERENCE_PRICE_EXEC_PARAMETERS,
} from './reference-platform-parameters';

/**
 * Issue 30, the second round of parity with the reference node: what a user of the reference meets, each
 * asked over HTTP of a real node, in real transactions mined in blocks, and answered as the reference does.
 */

// Some probes fail on purpose, more often than a key may before it is banned (BAN_BAD_TX).
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });
let node: TestNode;
let founder: IbaxClient;

async function call(contract: string, args: Record<string, unknown>): Promise<TxStatusAnswer> {
  const { status } = await founder.call(node.founderKey, contract, args as Record<string, string>);
  return status;
}

async function must(contract: string, args: Record<string, unknown> = {}): Promise<string> {
  const status = await call(contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result;
}

async function refused(contract: string, args: Record<string, unknown>, type: string, error: string) {
  const status = await call(contract, args);
  expect(status.errmsg, `${contract} ${JSON.stringify(args)} should fail`).toBeDefined();
  expect(status.errmsg).toEqual({ type, error });
}

/** Creates a contract in ecosystem 1 (the founder's): `NewContract` as a client sends it. */
const newContract = (source: string) =>
  must('NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });

beforeAll(async () => {
  node = running.node;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
});

describe('CurrentKeyFromAccount (a system function of the reference)', () => {
  it('gives the key id of an account, and 0 for an account nobody holds', async () => {
    await newContract(`contract KeyOfAccount {
    data {
        Account string
    }
    action {
        $result = Sprintf("%v %T", CurrentKeyFromAccount($Account), CurrentKeyFromAccount($Account))
    }
}`);
    const session = await founder.login(node.founderKey);
    expect(await must('KeyOfAccount', { Account: session.account })).toBe(`${session.keyId} int64`);
    expect(await must('KeyOfAccount', { Account: '0000-0000-0000-0000-0001' })).toBe('0 int64');
  });
});

describe('an element of a system variable', () => {
  it('can be written, while the whole variable stays read-only', async () => {
    await newContract(`contract WriteStackElement {
    action {
        $stack[0] = "replaced"
        $result = Sprintf("%v", $stack)
    }
}`);
    expect(await must('WriteStackElement')).toBe('[replaced]');
    // The reference compiles `$data[i] = row`; with no $data set it fails when it runs, as here.
    await newContract(`contract WriteDataElement {
    action {
        $data[0] = 1
    }
}`);
    await refused('WriteDataElement', {}, 'panic', 'unknown extend identifier data');
    await refused(
      'NewContract',
      {
        ApplicationId: '1',
        Value: 'contract WriteWholeStack {\n    action {\n        $stack = 1\n    }\n}',
        Conditions: 'true',
      },
      'panic',
      'system variable $stack cannot be changed',
    );
  });
});

describe('$this_contract, $original_contract and $parent', () => {
  it('hold bare contract names, as the reference gives them; $stack keeps full names', async () => {
    await newContract(`contract WhereAmI {
    action {
        $result = Sprintf("%s|%s|%s|%v", $this_contract, $original_contract, $parent, $stack)
    }
}`);
    await newContract(`contract WhoCalls {
    action {
        $result = WhereAmI() + "/" + Sprintf("%s|%s|%s", $this_contract, $original_contract, $parent)
    }
}`);
    expect(await must('WhereAmI')).toBe('WhereAmI|WhereAmI||[@1WhereAmI]');
    expect(await must('WhoCalls')).toBe(
      'WhereAmI|WhoCalls|WhoCalls|[@1WhoCalls @1WhereAmI]/WhoCalls|WhoCalls|',
    );
  });
});

describe('the stylesheet parameter', () => {
  it('is seeded in the first ecosystem, so Weaver finds it on every page load', async () => {
    const answer = await founder.get('/api/v2/ecosystemparam/stylesheet?ecosystem=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      name: 'stylesheet',
      conditions: 'ContractConditions("DeveloperCondition")',
    });
    expect(answer.body.value).toContain('body {');
  });
});

describe('error texts and their order', () => {
  const newContractFails = async (source: string) => {
    const status = await call('NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });
    expect(status.errmsg?.type).toBe('panic');
    return status.errmsg!.error;
  };

  it('a type where a data field name belongs, and a data field named like a system variable', async () => {
    expect(
      await newContractFails('contract TypeFirst {\n    data {\n        string qwerty\n    }\n}'),
    ).toMatch(/^expecting name of the data field( \[Ln:3 Col:9\])?$/);
    expect(await newContractFails('contract FieldKeyId {\n    data {\n        key_id int\n    }\n}')).toBe(
      "param variable 'key_id' in the data section of the contract '@1FieldKeyId' collides with the 'builtin' variable",
    );
  });

  it('EditContract validates the condition before the source', async () => {
    await newContract('contract EditMe {\n    action {\n        $result = "v1"\n    }\n}');
    const id = (await founder.get('/api/v2/contract/EditMe')).body.tableid as string;
    await refused(
      'EditContract',
      { Id: id, Value: 'contract Renamed {\n    action {\n    }\n}', Conditions: 'incorrectConditions' },
      'panic',
      'condition incorrectConditions is not allowed',
    );
  });

  it('an Edit contract of a row that does not exist fails in RowConditions, as the reference does', async () => {
    for (const contract of [
      'EditParameter',
      'EditContract',
      'EditMenu',
      'EditPage',
      'EditSnippet',
      'EditAppParam',
    ]) {
      await refused(contract, { Id: '7123', Value: 'x' }, 'panic', 'item 7123 has not been found');
    }
  });
});

describe('names of tables and columns', () => {
  const newTable = (name: string, column: string) =>
    call('NewTable', {
      ApplicationId: '1',
      Name: name,
      Columns: JSON.stringify([{ name: column, type: 'varchar', conditions: 'true' }]),
      Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
    });

  it('are refused in the reference’s words', async () => {
    expect((await newTable('1table', 'note')).errmsg).toEqual({
      type: 'panic',
      error: 'the name of the table cannot begin with @',
    });
    expect((await newTable('ok_table', '1note')).errmsg).toEqual({
      type: 'panic',
      error: 'column name cannot begin with digit',
    });
    expect((await newTable('ok_table', 'my note')).errmsg).toEqual({
      type: 'panic',
      error: "Name my note must only contain latin, digit and '_', '-' characters",
    });
  });
});

describe('a binaries row (issue 30, item 6)', () => {
  // The reference's 1_binaries is created with these columns in this order (go-ibax packages/migration).
  const TABLE_ORDER = ['id', 'app_id', 'name', 'data', 'hash', 'mime_type', 'ecosystem', 'account'];
  // The reference answers row, list and listWhere with Go maps, which encoding/json writes in key order.
  const MAP_ORDER = [...TABLE_ORDER].sort();
  let binaryId: string;

  beforeAll(async () => {
    binaryId = await must('UploadBinary', {
      ApplicationId: '1',
      Name: 'order.bin',
      Data: Buffer.from([1, 2, 3]),
      DataMimeType: 'application/octet-stream',
    });
  });

  it('lists every column in the reference’s table order where the order shows: DBFind of a page', async () => {
    const page = await founder.postForm('/api/v2/content', {
      template: `DBFind(binaries, files).Where({"id": ${binaryId}})`,
    });
    expect(page.status).toBe(200);
    expect(page.body.tree[0].attr.columns).toEqual(TABLE_ORDER);
    expect(page.body.tree[0].attr.data).toHaveLength(1);
  });

  it('comes back with the keys in the reference’s order from row, list, listWhere and JSON-RPC', async () => {
    const keysOf = (text: string, pick: (body: any) => object) => Object.keys(pick(JSON.parse(text)));
    const row = await founder.get(`/api/v2/row/binaries/${binaryId}`);
    expect(row.status).toBe(200);
    expect(keysOf(row.text, (body) => body.value)).toEqual(MAP_ORDER);
    const list = await founder.get('/api/v2/list/binaries');
    expect(keysOf(list.text, (body) => body.list[0])).toEqual(MAP_ORDER);
    const where = await founder.postForm('/api/v2/listWhere/binaries', { where: `{"id": ${binaryId}}` });
    expect(where.status).toBe(200);
    expect(keysOf(where.text, (body) => body.list[0])).toEqual(MAP_ORDER);
    const rpc = await founder.rpcRaw({
      jsonrpc: '2.0',
      id: 1,
      method: 'ibax.getRow',
      params: ['binaries', Number(binaryId)],
    });
    expect(keysOf(rpc.text, (body) => body.result.value)).toEqual(MAP_ORDER);
  });
});

describe('the platform parameters (issue 30, item 6)', () => {
  it('are the reference’s, less and more the names docs/compatibility.md gives reasons for', async () => {
    const reference = [
      ...REFERENCE_BASE_PARAMETERS,
      ...REFERENCE_PRICE_EXEC_PARAMETERS,
      ...REFERENCE_ACCESS_EXEC_PARAMETERS,
      ...REFERENCE_PRICE_CREATE_PARAMETERS,
    ];
    expect(reference).toHaveLength(163);
    const expected = [...reference.filter((name) => !ONLY_IN_REFERENCE.includes(name)), ...ONLY_HERE].sort();
    const answer = await founder.get('/api/v2/systemparams');
    expect(answer.status).toBe(200);
    const names = (answer.body.list as { name: string }[]).map((entry) => entry.name);
    expect(names).toHaveLength(176);
    expect([...names].sort()).toEqual(expected);
  });
});

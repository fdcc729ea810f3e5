import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, type TxStatusAnswer } from '../../src/sdk';
import type { ArgumentValue } from '../../src/sdk/transactions';
import { useTestNode, type TestNode } from '../support/node';
import { expectRestError } from '../support/wire';

/**
 * JSON paths (`column->key->…`) in every form the reference accepts, through the one where/column compiler
 * of table-access: in a contract's DBFind (Columns as a string or an array, Where keys, One, Row), in the
 * list endpoints (list, listWhere, getList, row) and in a page's DBFind. The paths are the reference's own
 * scenario (its TestJSONTable: mixed case, nested keys, an object's member named by a number) and hostile
 * ones: a key is data, bound as a parameter or refused, never SQL text.
 */

// Failing contracts on purpose: no ban for the founder's key.
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });
let node: TestNode;
let founder: IbaxClient;
let db: DatabaseService;

/** A document each row of `jdocs` starts with (row 2 is written from a contract map, as the reference does). */
const DOCS: Record<number, string> = {
  1: '{"type": "0"}',
  3: '{"title": {"name": "Test att", "text": "low"}}',
  4: '{"languages": {"arr_id": {"1": "0", "2": "0", "3": "0"}}}',
  5: '{"app_id": "33"}',
  6: JSON.stringify({
    list: ['a', 'b', 'c'],
    Upper: 'U',
    n: 7,
    flag: true,
    nil: null,
    deep: { a: { b: { c: 'd' } } },
    "it's": 'quote',
    'a--b': 'dashes',
    'x)y': 'paren',
    'a,b': 'comma',
    ключ: 'unicode',
    '"; drop table "1_jdocs"; --': 'sql',
  }),
  7: '[{"x": "first"}, "second"]',
  8: '{"n": 8}',
  9: '{"n": 9}',
  10: '{"n": 10}',
};

const CONTRACTS = [
  String.raw`contract JdocAdd {
    data {
        Name string
        Doc string
    }
    action {
        $result = DBInsert("jdocs", {"MyName": $Name, "Doc": $Doc})
    }
}`,
  String.raw`contract JdocAddMap {
    action {
        var mydoc map
        mydoc["type"] = "document"
        mydoc["ind"] = 2
        mydoc["check"] = "99"
        mydoc["doc"] = "Some text."
        $result = DBInsert("jdocs", {"MyName": "test2", "Doc": mydoc})
    }
}`,
  // The reference's own reads (its TestJSONTable), word for word but for the table's name.
  String.raw`contract JdocGet {
    data {
        Id int
    }
    action {
        var ret map
        var list array
        var one out tmp where empty string
        ret = DBFind("jdocs").Columns("Myname,doc,Doc->Ind").WhereId($Id).Row()
        out = ret["doc.ind"]
        out = out + DBFind("jdocs").Columns("myname,doc->Type").WhereId($Id).One("Doc->type")
        list = DBFind("jdocs").Columns(["Myname", "doc", "Doc->Ind"]).Where({"Doc->ind": "101"})
        out = out + Str(Len(list))
        tmp = DBFind("jdocs").Columns("doc->title->name").WhereId(3).One("doc->title->name")
        where = DBFind("jdocs").Columns("doc->title->name").Where({"doc->title->text":"low"}).One("doc->title->name")
        one = DBFind("jdocs").Where({"doc->title->text":"low"}).One("doc->title->text")
        empty = DBFind("jdocs").WhereId(4).One("doc->languages->arr_id->2")
        $result = out + Str(DBFind("jdocs").WhereId($Id).One("doc->check")) + tmp + where +one + empty
    }
}`,
  String.raw`contract JdocUpd {
    action {
        DBUpdate("jdocs", 1, {"Doc": "{\"type\": \"doc\", \"ind\": \"3\", \"check\": \"33\"}"})
        var mydoc map
        mydoc["type"] = "doc"
        mydoc["doc"] = "Some test text."
        DBUpdate("jdocs", 2, {"myname": "test3", "Doc": mydoc})
    }
}`,
  String.raw`contract JdocSet {
    data {
        Id int
        Doc string
    }
    action {
        DBUpdate("jdocs", $Id, {"Doc": $Doc})
    }
}`,
  // Any read: the rows as JSON, or One of them; Where is JSON text (JSONDecode gives the map).
  String.raw`contract JdocFind {
    data {
        Columns string "optional"
        ColumnList array "optional"
        Where string "optional"
        One string "optional"
        Id int "optional"
    }
    action {
        var rows array
        var where map
        if Size($Where) > 0 {
            where = JSONDecode($Where)
        }
        if Len($ColumnList) > 0 {
            rows = DBFind("jdocs").Columns($ColumnList).Where(where).WhereId($Id).Order("id")
        } else {
            rows = DBFind("jdocs").Columns($Columns).Where(where).WhereId($Id).Order("id")
        }
        if Size($One) > 0 {
            $result = One(rows, $One)
        } else {
            $result = JSONEncode(rows)
        }
    }
}`,
];

/** A time for each call, a second apart: the same call made twice is then two transactions. */
let calls = 0;
const callTime = () => BigInt(Math.floor(Date.now() / 1000) - ++calls);

async function mustCall(contract: string, args: Record<string, ArgumentValue> = {}): Promise<string> {
  const answer = await founder.call(node.founderKey, contract, args, { time: callTime() });
  expect(answer.status.errmsg, `${contract} ${JSON.stringify(args)}`).toBeUndefined();
  return answer.status.result;
}

/** Sends the calls at once (one block or a few) and gives each one's status, in order. */
async function callAll(calls: [string, Record<string, ArgumentValue>][]): Promise<TxStatusAnswer[]> {
  const txs = [];
  for (const [contract, args] of calls) txs.push((await founder.buildCall(node.founderKey, contract, args, { time: callTime() })).bytes);
  const hashes = await founder.sendTransactions(txs);
  const statuses = await founder.waitForTransactions(hashes, { timeoutMs: 60_000 });
  return hashes.map((hash) => statuses[hash]);
}

/** JdocFind's rows (or its One text), each call at once; a failed call gives its error text instead. */
async function finds(argsList: Record<string, ArgumentValue>[]): Promise<(string | Record<string, string>[])[]> {
  const statuses = await callAll(argsList.map((args) => ['JdocFind', args]));
  return statuses.map((status, i) => {
    if (status.errmsg) return `error: ${status.errmsg.error}`;
    return argsList[i].One ? status.result : (JSON.parse(status.result) as Record<string, string>[]);
  });
}

const content = async (template: string) => {
  const answer = await founder.postForm('/api/v2/content', { template });
  expect(answer.status, template).toBe(200);
  return answer.body.tree as { tag: string; attr?: Record<string, unknown>; children?: unknown[] }[];
};
const dbfindOf = (tree: { tag: string; attr?: Record<string, unknown> }[]) => {
  const found = tree.find((item) => item.tag === 'dbfind');
  expect(found, JSON.stringify(tree)).toBeDefined();
  return found!.attr as { columns: string[]; data: string[][]; types: string[] };
};

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  // The reference's table definition: mixed-case names, extra members ("index") ignored.
  await mustCall('@1NewTable', {
    ApplicationId: '1',
    Name: 'jdocs',
    Columns:
      '[{"name":"MyName","type":"varchar", "index": "0", "conditions":"true"},' +
      ' {"name":"Doc", "type":"json","index": "0", "conditions":"true"}]',
    Permissions: '{"insert": "true", "update" : "true", "new_column": "true"}',
  });
  for (const source of CONTRACTS) {
    await mustCall('@1NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });
  }
  // One at a time: row ids follow the order of the calls.
  await mustCall('JdocAdd', { Name: 'test', Doc: DOCS[1] });
  await mustCall('JdocAddMap');
  for (const id of [3, 4, 5, 6, 7, 8, 9, 10]) await mustCall('JdocAdd', { Name: `test${id}`, Doc: DOCS[id] });
}, 180_000);

describe('contracts: the reference scenario', () => {
  it('reads paths in Columns (text and array), Where, One and Row, in any case, as the reference does', async () => {
    expect(await mustCall('JdocGet', { Id: 2 })).toBe('2document099Test attTest attlow0');
    await mustCall('JdocUpd');
    expect(await mustCall('JdocGet', { Id: 2 })).toBe('doc0Test attTest attlow0');
    // The reference's UpdOne writes single keys; here the documents are written whole to the same values.
    await mustCall('JdocSet', { Id: 1, Doc: '{"ind": "101", "type": "new\\"doc\\" val", "check": "33"}' });
    await mustCall('JdocSet', { Id: 2, Doc: '{"doc": "Some test text.", "ind": "101", "type": "new\\"doc\\""}' });
    await mustCall('JdocSet', {
      Id: 3,
      Doc: '{"sub": "100", "flag": "Flag", "temp": "Temp", "title": {"name": "Test att", "text": "low"}}',
    });
    expect(await mustCall('JdocGet', { Id: 2 })).toBe('101new"doc"2Test attTest attlow0');
  });

  it('answers a path under the dotted key, lower-cased, with the text of the JSON value', async () => {
    const [mixed, array, values, indexes, star] = await finds([
      { Columns: 'Myname,doc->Title->Name', Id: 3 },
      { ColumnList: ['MYNAME', 'Doc->Ind', 'doc->ind'], Where: '{"Doc->IND": "101"}' },
      { Columns: 'doc->n, doc->flag, doc->nil, doc->deep, doc->list, doc->Upper, doc->none', Id: 6 },
      { Columns: 'doc->list->1, doc->list->9, doc->0, doc->0->x, doc->1', Where: '{"myname": {"$in": ["test6", "test7"]}}' },
      { Columns: '*, doc->app_id', Id: 5 },
    ]);
    expect(mixed).toEqual([{ id: '3', myname: 'test3', 'doc.title.name': 'Test att' }]);
    expect(array).toEqual([
      { id: '1', myname: 'test', 'doc.ind': '101' },
      { id: '2', myname: 'test3', 'doc.ind': '101' },
    ]);
    // Numbers and booleans as their text, JSON null as nothing, objects and arrays as JSON text; a key
    // spelled with capitals cannot be reached (the path is lower-cased, as in the reference).
    expect(values).toEqual([
      {
        id: '6',
        'doc.n': '7',
        'doc.flag': 'true',
        'doc.nil': '',
        'doc.deep': '{"a": {"b": {"c": "d"}}}',
        'doc.list': '["a", "b", "c"]',
        'doc.upper': '',
        'doc.none': '',
      },
    ]);
    // One key names an object's member (an array has none: the reference's ->>); deeper keys index arrays.
    expect(indexes).toEqual([
      { id: '6', 'doc.list.1': 'b', 'doc.list.9': '', 'doc.0': '', 'doc.0.x': '', 'doc.1': '' },
      { id: '7', 'doc.list.1': '', 'doc.list.9': '', 'doc.0': '', 'doc.0.x': 'first', 'doc.1': '' },
    ]);
    expect(star).toEqual([{ id: '5', myname: 'test5', doc: '{"app_id": "33"}', 'doc.app_id': '33' }]);
  });

  it('orders by a column’s value, not by the text it is read as', async () => {
    const [ids, byPath] = await finds([
      { Columns: 'id, doc->n', Where: '{"id": {"$gt": 7}}' },
      { ColumnList: ['doc->n'], Where: '{"doc->n": {"$in": ["8", "9", "10"]}}' },
    ]);
    expect(ids).toEqual([
      { id: '8', 'doc.n': '8' },
      { id: '9', 'doc.n': '9' },
      { id: '10', 'doc.n': '10' },
    ]);
    expect((byPath as { id: string }[]).map((row) => row.id)).toEqual(['8', '9', '10']);
  });

  it('compares a path in Where as text, with every operator', async () => {
    const [inList, like, isNull, orGroup, flag] = await finds([
      { Columns: 'id', Where: '{"doc->title->text": {"$in": ["low", "high"]}}' },
      { Columns: 'id', Where: '{"doc->TYPE": {"$like": "doc"}}' },
      { Columns: 'id', Where: '{"doc->type": "$isnull"}' },
      { Columns: 'id', Where: '{"$or": [{"doc->app_id": "33"}, {"doc->languages->arr_id->3": "0"}]}' },
      { Columns: 'id', Where: '{"doc->flag": "true", "doc->n": {"$gt": "6"}}' },
    ]);
    expect(inList).toEqual([{ id: '3' }]);
    expect(like).toEqual([{ id: '1' }, { id: '2' }]);
    expect((isNull as { id: string }[]).map((row) => row.id)).toEqual(['3', '4', '5', '6', '7', '8', '9', '10']);
    expect(orGroup).toEqual([{ id: '4' }, { id: '5' }]);
    expect(flag).toEqual([{ id: '6' }]);
  });
});

describe('the list endpoints', () => {
  it('list and row read paths in columns, mixed case, under the dotted key', async () => {
    const list = await founder.get('/api/v2/list/jdocs?columns=MyName,Doc->Title->Name&limit=3');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      count: 10,
      list: [
        { id: '1', myname: 'test', 'doc.title.name': 'NULL' },
        { id: '2', myname: 'test3', 'doc.title.name': 'NULL' },
        { id: '3', myname: 'test3', 'doc.title.name': 'Test att' },
      ],
    });
    const row = await founder.get('/api/v2/row/jdocs/4?columns=doc->languages->arr_id->2,doc->languages');
    expect(row.body).toEqual({
      value: { id: '4', 'doc.languages': '{"arr_id": {"1": "0", "2": "0", "3": "0"}}', 'doc.languages.arr_id.2': '0' },
    });
  });

  it('listWhere and getList take paths as where keys', async () => {
    const where = '{"Doc->Title->Text": "low"}';
    const rest = await founder.postForm('/api/v2/listWhere/jdocs', { where, columns: 'doc->title->name' });
    expect(rest.body).toEqual({ count: 1, list: [{ id: '3', 'doc.title.name': 'Test att' }] });
    expect(await founder.rpc('ibax.getList', [{ name: 'jdocs', where, columns: 'doc->title->name' }])).toEqual(
      rest.body,
    );
    expect(
      await founder.rpc('ibax.getList', [
        { name: 'jdocs', where: { 'doc->ind': { $in: ['101'] }, 'doc->check': 33 }, columns: 'doc->type' },
      ]),
    ).toEqual({ count: 1, list: [{ id: '1', 'doc.type': 'new"doc" val' }] });
  });
});

describe('a page DBFind', () => {
  it('renders the reference scenario’s trees', async () => {
    let tree = await content('DBFind(jdocs).Columns("id,doc->app_id").WhereId(5).Vars(buffer)Span(#buffer_doc_app_id#)');
    expect(dbfindOf(tree)).toMatchObject({ columns: ['id', 'doc.app_id'], data: [['5', '33']], types: ['text', 'text'] });
    expect(tree[1]).toEqual({ tag: 'span', children: [{ tag: 'text', text: '33' }] });

    tree = await content('DBFind(jdocs,my).Columns("id").Where({"doc->title->text":"low"})');
    expect(dbfindOf(tree)).toMatchObject({ columns: ['id'], data: [['3']] });

    tree = await content(
      'DBFind(jdocs,my).Columns("id,doc->title->name").WhereId(3).Vars(prefix)Div(){#prefix_id# = #prefix_doc_title_name#}',
    );
    expect(tree[1]).toEqual({ tag: 'div', children: [{ tag: 'text', text: '3 = Test att' }] });

    tree = await content('DBFind(jdocs,my).Columns("id,doc->languages->arr_id").WhereId(4)');
    expect(dbfindOf(tree)).toMatchObject({
      columns: ['id', 'doc.languages.arr_id'],
      data: [['4', '{"1": "0", "2": "0", "3": "0"}']],
    });

    tree = await content('DBFind(jdocs,my).Columns("id,doc,doc->type").Where({doc->ind:101, doc->check:33})');
    expect(dbfindOf(tree)).toMatchObject({
      columns: ['id', 'doc', 'doc.type'],
      data: [['1', '{"ind": "101", "type": "new\\"doc\\" val", "check": "33"}', 'new"doc" val']],
    });

    tree = await content('DBFind(jdocs,my).Columns("doc->type").Order(id).Limit(3)');
    expect(dbfindOf(tree)).toMatchObject({
      columns: ['doc.type', 'id'],
      data: [
        ['new"doc" val', '1'],
        ['new"doc"', '2'],
        ['', '3'],
      ],
    });
  });

  it('reads mixed case and the array form of Columns', async () => {
    const tree = await content('DBFind(jdocs,my).Columns([ID, "Doc->Title->Name"]).Where({"DOC->title->TEXT": low})');
    expect(dbfindOf(tree)).toMatchObject({ columns: ['id', 'doc.title.name'], data: [['3', 'Test att']] });
  });
});

describe('hostile paths', () => {
  const HOSTILE_KEYS = ["it's", 'a--b', 'x)y', 'ключ', '"; DROP TABLE "1_jdocs"; --'];

  it('binds keys with quotes, comments, brackets and any script as data, in contracts', async () => {
    const columns = ['id', ...HOSTILE_KEYS.map((key) => `doc->${key}`)].join(',');
    const [selected, array, where, whereKeys] = await finds([
      { Columns: columns, Id: 6 },
      { ColumnList: ['id', 'doc->a,b'], Id: 6 },
      { Columns: 'id', Where: JSON.stringify({ "doc->it's": 'quote', 'doc->x)y': 'paren', 'doc->ключ': 'unicode' }) },
      { Columns: 'id', Where: JSON.stringify({ 'doc->"; DROP TABLE "1_jdocs"; --': 'sql', "doc->') OR true --": '' }) },
    ]);
    expect(selected).toEqual([
      {
        id: '6',
        "doc.it's": 'quote',
        'doc.a--b': 'dashes',
        'doc.x)y': 'paren',
        'doc.ключ': 'unicode',
        'doc."; drop table "1_jdocs"; --': 'sql',
      },
    ]);
    expect(array).toEqual([{ id: '6', 'doc.a,b': 'comma' }]);
    expect(where).toEqual([{ id: '6' }]);
    expect(whereKeys).toEqual([]);
    expect(await db.one('SELECT count(*)::int AS "count" FROM "1_jdocs"')).toEqual({ count: 10 });
  });

  it('refuses paths too long or too deep and paths into columns that hold no JSON, cleanly', async () => {
    const deep = `doc${'->k'.repeat(33)}`;
    const deepest = `doc${'->k'.repeat(32)}`;
    const long = `doc->${'k'.repeat(1100)}`;
    const answers = await finds([
      { Columns: deep },
      { Columns: long },
      { Columns: 'myname->a' },
      { Columns: 'nope->a' },
      { Columns: 'doc->' },
      { Columns: 'id', Where: JSON.stringify({ [deep]: 'x' }) },
      { Columns: 'id', Where: JSON.stringify({ 'myname->a': 'x' }) },
      { Columns: `id,${deepest}`, Id: 6 },
      { Columns: 'id,doc->a\u0000b' },
      { Columns: 'id', Where: JSON.stringify({ 'doc->a\u0000b': 'x' }) },
      { One: 'doc->constructor', Id: 6 },
      { One: 'Doc->Deep->A->B->C', Id: 6 },
    ]);
    expect(answers).toEqual([
      'error: the JSON path of doc has more than 32 keys',
      'error: a column name is longer than 1024 characters',
      'error: myname is not a JSON column',
      'error: unknown column nope->a',
      'error: unknown column doc->',
      'error: where: the JSON path of doc has more than 32 keys',
      'error: where: myname is not a JSON column',
      [{ id: '6', [deepest.replaceAll('->', '.')]: '' }],
      'error: a column name cannot hold the character U+0000',
      'error: where: a column name cannot hold the character U+0000',
      '',
      'd',
    ]);
  });

  it('refuses the same in the list endpoints and a page, and binds the same keys', async () => {
    const deep = `doc${'->k'.repeat(33)}`;
    expectRestError(
      await founder.get(`/api/v2/list/jdocs?columns=${encodeURIComponent(deep)}`),
      400,
      'E_SERVER',
      'the JSON path of doc has more than 32 keys',
    );
    expectRestError(
      await founder.get(`/api/v2/list/jdocs?columns=${'doc->'}${'k'.repeat(1100)}`),
      400,
      'E_SERVER',
      'a column name is longer than 1024 characters',
    );
    expectRestError(
      await founder.get(`/api/v2/list/jdocs?columns=${encodeURIComponent('doc->a\u0000b')}`),
      400,
      'E_SERVER',
      'a column name cannot hold the character U+0000',
    );
    expectRestError(
      await founder.postForm('/api/v2/listWhere/jdocs', { where: '{"myname->a": "x"}' }),
      400,
      'E_SERVER',
      'where: myname is not a JSON column',
    );
    const keys = HOSTILE_KEYS.map((key) => `doc->${key}`).join(',');
    const list = await founder.get(`/api/v2/row/jdocs/6?columns=${encodeURIComponent(keys)}`);
    expect(list.body.value).toMatchObject({ "doc.it's": 'quote', 'doc.x)y': 'paren', 'doc.ключ': 'unicode' });
    const where = await founder.postForm('/api/v2/listWhere/jdocs', {
      where: `{"doc->'); DELETE FROM jdocs; --": "x", "doc->a--b": "dashes"}`,
      columns: 'id',
    });
    expect(where.body).toEqual({ count: 0, list: null });
    const page = await content(`DBFind(jdocs,my).Columns("id,${deep}")`);
    expect(page).toEqual([{ tag: 'text', text: 'the JSON path of doc has more than 32 keys' }]);
    expect(await db.one('SELECT count(*)::int AS "count" FROM "1_jdocs"')).toEqual({ count: 10 });
  });
});

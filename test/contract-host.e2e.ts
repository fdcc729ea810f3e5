import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIdentity } from '../src/chain/node-identity.service';
import { ContractBench } from './support/contracts';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from './support/node';

let db: TestDatabase;
let node: TestNode;
let bench: ContractBench;

beforeAll(async () => {
  db = await createTestDatabase();
  node = await startNode({ databaseUrl: db.url });
  bench = new ContractBench(node);
  const probe = `contract HostProbe {
    data {
      Mode string
      Text string "optional"
    }
    action {
      if $Mode == "find" {
        $result = DBFind("pages").Columns("name,menu").Where({"name": "default_page"}).One("menu")
      }
      if $Mode == "row" {
        var row map
        row = DBRow("parameters").Where({"name": "max_sum"})
        $result = row["value"]
      }
      if $Mode == "count" { $result = DBCount("keys", {"blocked": 1}) }
      if $Mode == "like" { $result = DBCount("pages", {"name": {"$like": $Text}}) }
      if $Mode == "badcolumn" { $result = DBFind("pages").Where({"name; drop table x": 1}) }
      if $Mode == "badtable" { $result = DBFind("pages; drop table x") }
      if $Mode == "platform" { $result = DBFind("block_chain") }
      if $Mode == "insert" { $result = DBInsert("pages", {"name": "sneaky", "value": "x"}) }
      if $Mode == "loop" { while true { } }
      if $Mode == "param" { $result = EcosysParam("max_sum") + "/" + SysParamString("max_tx_block") }
      if $Mode == "address" { $result = IdToAddress(AddressToId("0000-0000-0000-0000-5555")) }
    }
  }`;
  await bench.mustRun(bench.founder, 'NewContract', { ApplicationId: 1, Value: probe, Conditions: 'true' });
});

afterAll(async () => {
  await node?.stop(true);
  await db?.drop();
});

const probe = (mode: string, text?: string) =>
  bench.run(bench.founder, 'HostProbe', text === undefined ? { Mode: mode } : { Mode: mode, Text: text });

describe('reading through DBFind, DBRow and DBCount', () => {
  it('reads rows of the caller ecosystem as strings', async () => {
    expect((await probe('find')).result).toBe('default_menu');
    expect((await probe('row')).result).toBe('1000000');
    expect((await probe('count')).result).toBe('3');
    expect((await probe('param')).result).toBe('1000000/5000');
    expect((await probe('address')).result).toBe('0000-0000-0000-0000-5555');
  });

  it('takes $like operands literally', async () => {
    expect((await probe('like', 'default')).result).toBe('1');
    expect((await probe('like', '%')).result).toBe('0');
  });

  it('refuses names that are not in the catalogue instead of splicing them into SQL', async () => {
    const column = await probe('badcolumn');
    expect(column.ok).toBe(false);
    expect(column.error?.message).toContain('unknown column');
    const table = await probe('badtable');
    expect(table.error?.message).toContain('is not valid');
    const platform = await probe('platform');
    expect(platform.error?.message).toContain('has not been found');
    expect(await bench.db.one(`SELECT 1 FROM "1_pages" LIMIT 1`)).toBeDefined();
  });
});

describe('writing', () => {
  it('refuses a write the table permissions do not allow, leaving nothing behind', async () => {
    const before = await bench.snapshot(['1_pages', 'rollback_tx']);
    const outcome = await probe('insert');
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.type).toBe('panic');
    expect(outcome.error?.message).toBe('table: access denied');
    expect(await bench.snapshot(['1_pages', 'rollback_tx'])).toEqual(before);
  });

  it('stops an endless loop with the fuel limit', async () => {
    const started = Date.now();
    const outcome = await probe('loop');
    expect(outcome.error?.message).toBe('runtime cost limit overflow');
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('prices built-ins by platform parameter (price_exec_*)', async () => {
    const price = await bench.db.one<{ value: string }>(
      `SELECT "value" FROM "1_platform_parameters" WHERE "name" = 'price_exec_db_count'`,
    );
    expect(price).toEqual({ value: '50' });
    await bench.db.query(
      `UPDATE "1_platform_parameters" SET "value" = '900000000' WHERE "name" = 'price_exec_db_count'`,
    );
    await bench.contracts.reload(bench.db);
    try {
      expect((await probe('count')).error?.message).toBe('runtime cost limit overflow');
      expect((await probe('find')).ok).toBe(true);
    } finally {
      await bench.db.query(
        `UPDATE "1_platform_parameters" SET "value" = '50' WHERE "name" = 'price_exec_db_count'`,
      );
      await bench.contracts.reload(bench.db);
    }
    expect((await probe('count')).result).toBe('3');
  });

  it('refuses the founder-only contracts to another key', async () => {
    const nodeKey = node.app.get(NodeIdentity).keys.node.keyId;
    const outcome = await bench.run(bench.actor(nodeKey), 'NewParameter', {
      Name: 'x1',
      Value: '1',
      Conditions: 'true',
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.type).toBe('warning');
    expect(outcome.error?.message).toBe('Access denied');
    expect(await bench.db.one(`SELECT 1 FROM "1_parameters" WHERE "name" = 'x1'`)).toBeUndefined();
  });
});

describe('the journal', () => {
  it('records every change and takes a transaction back exactly', async () => {
    const tables = ['1_parameters', '1_pages', 'rollback_tx'];
    const before = await bench.snapshot(tables);
    const created = await bench.mustRun(bench.founder, 'NewParameter', {
      Name: 'journal_probe',
      Value: '7',
      Conditions: 'true',
    });
    const id = created.result;
    expect(await bench.db.one(`SELECT "value" FROM "1_parameters" WHERE "id" = $1`, [id])).toEqual({
      value: '7',
    });
    const edited = await bench.mustRun(bench.founder, 'EditParameter', { Id: Number(id), Value: '8' });
    const page = await bench.db.one<{ id: string }>(
      `SELECT "id" FROM "1_pages" WHERE "name" = 'default_page'`,
    );
    const pageEdit = await bench.mustRun(bench.founder, 'EditPage', {
      Id: Number(page!.id),
      Value: 'Div(){changed}',
    });
    expect(
      (await bench.db.one<{ value: string }>(`SELECT "value" FROM "1_pages" WHERE "id" = $1`, [page!.id]))
        ?.value,
    ).toBe('Div(){changed}');
    const journal = await bench.db.query(
      `SELECT "table_name", "data" FROM "rollback_tx" WHERE "tx_hash" = $1`,
      [edited.txHash],
    );
    expect(journal).toEqual([{ table_name: '1_parameters', data: JSON.stringify({ value: '7' }) }]);

    await bench.undo(pageEdit.txHash);
    await bench.undo(edited.txHash);
    await bench.undo(created.txHash);
    expect(await bench.snapshot(tables)).toEqual(before);
  });

  it('drops a contract created by a transaction that is taken back', async () => {
    const source = `contract JournalProbe { action { $result = "here" } }`;
    const created = await bench.mustRun(bench.founder, 'NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: 'true',
    });
    // The new row's id (the genesis contracts hold the ids below it).
    expect(Number(created.result)).toBeGreaterThan(30);
    expect((await bench.mustRun(bench.founder, 'JournalProbe')).result).toBe('here');
    await bench.undo(created.txHash);
    await bench.contracts.resync(bench.db);
    expect(bench.contracts.contract('JournalProbe', 1n)).toBeUndefined();
    expect((await bench.run(bench.founder, 'JournalProbe')).ok).toBe(false);
  });

  it('keeps no compiled contract from a database transaction that rolled back', async () => {
    const source = `contract RolledBack { action { $result = 1 } }`;
    await expect(
      bench.contracts.transaction(async (sql) => {
        const outcome = await bench.runIn(sql, bench.founder, 'NewContract', {
          ApplicationId: 1,
          Value: source,
          Conditions: 'true',
        });
        expect(outcome.ok).toBe(true);
        expect(bench.contracts.contract('RolledBack', 1n)).toBeDefined();
        throw new Error('the block failed');
      }),
    ).rejects.toThrow('the block failed');
    expect(bench.contracts.contract('RolledBack', 1n)).toBeUndefined();
    expect(await bench.db.one(`SELECT 1 FROM "1_contracts" WHERE "name" = 'RolledBack'`)).toBeUndefined();
  });
});

describe('platform built-ins', () => {
  const source = `contract PlatformProbe {
    data {
      Mode string
      Id int "optional"
      Conditions string "optional"
      Key string "optional"
    }
    action {
      if $Mode == "fuel" { $result = SysFuel(1) + "/" + SysFuel(99) }
      if $Mode == "honor" { $result = IsHonorNodeKey(Int($Key)) }
      if $Mode == "param" { DBUpdatePlatformParam("max_tx_block", "4000", "") }
      if $Mode == "ban" { UpdateNodesBan($time) }
      if $Mode == "condition" { ConditionById("pages", true) }
    }
  }`;
  const allow = (builtin: string, value: string) =>
    bench.db.query(`UPDATE "1_platform_parameters" SET "value" = $1 WHERE "name" = $2`, [
      value,
      `access_exec_${builtin}`,
    ]);

  beforeAll(async () => {
    await bench.mustRun(bench.founder, 'NewContract', {
      ApplicationId: 1,
      Value: source,
      Conditions: 'true',
    });
  });

  it('reads fuel rates and recognises honor node keys', async () => {
    expect((await bench.mustRun(bench.founder, 'PlatformProbe', { Mode: 'fuel' })).result).toBe('1000000/');
    const nodeKey = node.app.get(NodeIdentity).keys.node.keyId;
    expect(
      (await bench.mustRun(bench.founder, 'PlatformProbe', { Mode: 'honor', Key: String(nodeKey) })).result,
    ).toBe('true');
    expect(
      (
        await bench.mustRun(bench.founder, 'PlatformProbe', {
          Mode: 'honor',
          Key: String(bench.founder.keyId),
        })
      ).result,
    ).toBe('false');
  });

  it('changes a platform parameter only where access_exec allows, and undoes it', async () => {
    const refused = await bench.run(bench.founder, 'PlatformProbe', { Mode: 'param' });
    expect(refused.error?.message).toMatch(/^DBUpdatePlatformParam can only be called with condition: /);
    const before = await bench.snapshot(['1_platform_parameters']);
    await allow('db_update_platform_param', 'true');
    try {
      const changed = await bench.mustRun(bench.founder, 'PlatformProbe', { Mode: 'param' });
      const row = await bench.db.one(
        `SELECT "value" FROM "1_platform_parameters" WHERE "name" = 'max_tx_block'`,
      );
      expect(row).toEqual({ value: '4000' });
      await bench.undo(changed.txHash);
    } finally {
      await allow('db_update_platform_param', 'ContractAccess("@1UpdatePlatformParam")');
    }
    expect(await bench.snapshot(['1_platform_parameters'])).toEqual(before);
  });

  it('bans an honor node reported by a majority, and undoes it', async () => {
    const nodeKey = node.app.get(NodeIdentity).keys.node.keyId;
    const now = Math.floor(Date.now() / 1000);
    for (let block = 1; block <= 10; block++) {
      await bench.db.query(
        `INSERT INTO "1_bad_blocks" ("id", "producer_node_id", "block_id", "consumer_node_id", "block_time", "reason")
         VALUES ($1, $2, $3, 77, to_timestamp($4) AT TIME ZONE 'UTC', 'test')`,
        [block, nodeKey.toString(), block, now - 60],
      );
    }
    const before = await bench.snapshot(['1_platform_parameters', '1_node_ban_logs']);
    expect((await bench.run(bench.founder, 'PlatformProbe', { Mode: 'ban' })).error?.message).toMatch(
      /^UpdateNodesBan can only be called with condition: /,
    );
    await allow('update_nodes_ban', 'true');
    try {
      const banned = await bench.mustRun(bench.founder, 'PlatformProbe', { Mode: 'ban' });
      const honor = await bench.db.one<{ value: string }>(
        `SELECT "value" FROM "1_platform_parameters" WHERE "name" = 'honor_nodes'`,
      );
      const [entry] = JSON.parse(honor!.value) as { unban_time: string }[];
      expect(Number(entry.unban_time)).toBeGreaterThan(now + 86_000);
      expect(await bench.db.query(`SELECT "node_id" FROM "1_node_ban_logs"`)).toEqual([
        { node_id: nodeKey.toString() },
      ]);
      await bench.undo(banned.txHash);
    } finally {
      await allow('update_nodes_ban', 'ContractAccess("@1CheckNodesBan")');
    }
    const after = await bench.snapshot(['1_platform_parameters', '1_node_ban_logs']);
    expect(after).toEqual(before);
  });

  it('checks a row condition by id with ConditionById', async () => {
    const page = await bench.db.one<{ id: string }>(
      `SELECT "id" FROM "1_pages" WHERE "name" = 'default_page'`,
    );
    const id = Number(page!.id);
    expect(
      (await bench.run(bench.founder, 'PlatformProbe', { Mode: 'condition', Id: id, Conditions: 'true' })).ok,
    ).toBe(true);
    const nodeKey = node.app.get(NodeIdentity).keys.node.keyId;
    const stranger = await bench.run(bench.actor(nodeKey), 'PlatformProbe', {
      Mode: 'condition',
      Id: id,
      Conditions: 'true',
    });
    expect(stranger.error?.message).toBe('Access denied');
    const missing = await bench.run(bench.founder, 'PlatformProbe', {
      Mode: 'condition',
      Id: 9999,
      Conditions: 'true',
    });
    expect(missing.error).toMatchObject({ type: 'error', message: 'Item 9999 has not been found' });
    const invalid = await bench.run(bench.founder, 'PlatformProbe', {
      Mode: 'condition',
      Id: id,
      Conditions: 'Hack()',
    });
    expect(invalid.ok).toBe(false);
  });
});

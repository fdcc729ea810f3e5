import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildContractCall } from '../../src/sdk';
import { capturedLog } from '../support/log';
import { useTestNode, type TestNode } from '../support/node';

/**
 * A block is made in memory first (rows kept between blocks, writes queued and written in bulk) or
 * statement by statement with a savepoint per transaction (BLOCK_WRITE_BEHIND=false). The same scenario
 * runs on both, and every outcome must be the same: what each transaction read and answered, its error,
 * and what the database holds after — also when a queued write fails at the flush, when someone changes
 * a row between blocks, and after a rollback.
 */
const outcomes: Record<string, unknown[]> = {};

const COLUMNS = JSON.stringify([
  { name: 'name', type: 'varchar', conditions: 'true' },
  { name: 'qty', type: 'number', conditions: 'true' },
  { name: 'price', type: 'money', conditions: 'true' },
]);
const PERMISSIONS = JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' });
const ADD_STOCK = `contract AddStock {
    data {
        Name string
        Qty string
    }
    action {
        $result = DBInsert("stock", {"name": $Name, "qty": $Qty})
    }
}`;
const ADJUST = `contract Adjust {
    data {
        Id int
        Qty int
        Price money
        Fail bool
    }
    action {
        var row map
        row = DBFind("stock").Columns("qty,price").WhereId($Id).Row()
        DBUpdate("stock", $Id, {"+qty": $Qty, "price": $Price})
        if $Fail {
            error "adjust refused"
        }
        $result = Sprintf("%s/%s", row["qty"], row["price"])
    }
}`;

describe.each([
  ['in memory', 'true'],
  ['statement by statement', 'false'],
])('a block made %s', (mode, writeBehind) => {
  const { lines: logLines, destination: logDestination } = capturedLog();
  const running = useTestNode({
    env: { BLOCK_SLOT_MS: '200', BLOCK_WRITE_BEHIND: writeBehind, LOG_LEVEL: 'warn' },
    logDestination,
  });
  let node: TestNode;
  let db: DatabaseService;
  let founder: IbaxClient;
  const seen: unknown[] = (outcomes[mode] = []);

  async function call(contract: string, params: Record<string, string>) {
    const answer = await founder.call(node.founderKey, contract, params);
    return { blockid: answer.status.blockid, result: answer.status.result, errmsg: answer.status.errmsg };
  }

  async function stock() {
    return db.one<{ qty: string; price: string }>(
      `SELECT "qty"::text AS "qty", "price"::text AS "price" FROM "1_stock" WHERE "id" = 1`,
    );
  }

  /** Several transactions sent together, so that they land in one block. */
  async function together(calls: [string, Record<string, string>][]) {
    const txs = [];
    for (const [i, [name, params]] of calls.entries()) {
      const contract = await founder.contract(name);
      txs.push(
        buildContractCall(founder.signer, node.founderKey, contract, params, {
          networkId: node.config.networkId,
          time: BigInt(Math.floor(Date.now() / 1000) - 10 + i),
        }).bytes,
      );
    }
    const hashes = await founder.sendTransactions(txs);
    const statuses = await founder.waitForTransactions(hashes);
    return hashes.map((hash) => statuses[hash]);
  }

  beforeAll(async () => {
    node = running.node;
    db = node.app.get(DatabaseService);
    founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
    await founder.login(node.founderKey);
    for (const [contract, params] of [
      ['NewTable', { ApplicationId: '1', Name: 'stock', Columns: COLUMNS, Permissions: PERMISSIONS }],
      ['NewContract', { ApplicationId: '1', Value: ADD_STOCK, Conditions: 'true' }],
      ['NewContract', { ApplicationId: '1', Value: ADJUST, Conditions: 'true' }],
    ] as const) {
      expect((await call(contract, params)).errmsg).toBeUndefined();
    }
    expect((await call('AddStock', { Name: 'bolt', Qty: '10' })).result).toBe('1');
  });

  it('reads, updates and takes back a failed transaction inside one block', async () => {
    const statuses = await together([
      ['Adjust', { Id: '1', Qty: '1', Price: '5', Fail: 'false' }],
      ['Adjust', { Id: '1', Qty: '2', Price: '6', Fail: 'true' }],
      ['Adjust', { Id: '1', Qty: '3', Price: '7', Fail: 'false' }],
    ]);
    const [first, failed, third] = statuses;
    expect(first.blockid).toBe(third.blockid);
    expect(failed.errmsg).toEqual({ type: 'error', error: 'adjust refused' });
    // Same-second envelopes run in hash order: whichever ran first read the row as it was.
    const firstRanFirst = first.result === '10/0';
    expect(firstRanFirst ? first.result : third.result).toBe('10/0');
    expect(firstRanFirst ? third.result : first.result).toBe(firstRanFirst ? '11/5' : '13/7');
    expect(await stock()).toEqual({ qty: '14', price: firstRanFirst ? '7' : '5' });
    seen.push([failed.errmsg, [first.result, third.result].sort()]);
  });

  it('gives a transaction whose insert the database refuses the database error, and keeps the others', async () => {
    const before = await stock();
    const statuses = await together([
      ['Adjust', { Id: '1', Qty: '1', Price: '8', Fail: 'false' }],
      ['AddStock', { Name: 'nut', Qty: 'many' }],
      ['Adjust', { Id: '1', Qty: '1', Price: '8', Fail: 'false' }],
    ]);
    const [first, refused, third] = statuses;
    expect(refused.errmsg).toEqual({
      type: 'panic',
      error: 'inserting into stock: invalid input syntax for type bigint: "many"',
    });
    expect(first.errmsg).toBeUndefined();
    expect(third.errmsg).toBeUndefined();
    expect([first.result, third.result].sort()).toEqual([
      `${before!.qty}/${before!.price}`,
      `${Number(before!.qty) + 1}/8`,
    ]);
    expect(await stock()).toEqual({ qty: String(Number(before!.qty) + 2), price: '8' });
    const remade = logLines.some((line) => line.msg?.includes('made again statement by statement'));
    expect(remade).toBe(mode === 'in memory');
    seen.push(statuses.map((status) => status.errmsg ?? status.result).sort());
  });

  it('sees a row changed between blocks by someone else', async () => {
    await db.query(`UPDATE "1_stock" SET "qty" = 500, "price" = 3 WHERE "id" = 1`);
    const adjusted = await call('Adjust', { Id: '1', Qty: '1', Price: '4', Fail: 'false' });
    expect(adjusted).toMatchObject({ result: '500/3' });
    expect(await stock()).toEqual({ qty: '501', price: '4' });
    seen.push(adjusted.result);
  });

  it('sees the rows a rollback restored', async () => {
    const adjusted = await call('Adjust', { Id: '1', Qty: '10', Price: '9', Fail: 'false' });
    expect(adjusted.result).toBe('501/4');
    // Back to before its block. A block of the platform's delayed contracts (CheckNodesBan, every 10) may
    // follow it, also between reading the height and the rollback: then the next round takes the rest.
    for (;;) {
      const height = Number(await node.client.rpc('ibax.maxBlockId'));
      if (height < Number(adjusted.blockid)) break;
      const count = height - Number(adjusted.blockid) + 1;
      const undo = await node.client.rpc('admin.rollbackBlocks', [count, true]);
      expect(undo).toMatchObject({ rolled_back: count });
    }
    expect(await stock()).toEqual({ qty: '501', price: '4' });
    const again = await call('Adjust', { Id: '1', Qty: '1', Price: '2', Fail: 'false' });
    expect(again.result).toBe('501/4');
    expect(await stock()).toEqual({ qty: '502', price: '2' });
    seen.push(again.result);
  });

  it('refuses a value the column cannot hold with the database error', async () => {
    // 10^29 + 10^29 needs 30 digits; one more digit than numeric(30) holds.
    const big = '9'.repeat(30);
    const set = await call('Adjust', { Id: '1', Qty: '0', Price: big, Fail: 'false' });
    expect(set.errmsg).toBeUndefined();
    const overflow = await call('Adjust', { Id: '1', Qty: '9223372036854775807', Price: '1', Fail: 'false' });
    expect(overflow.errmsg).toEqual({ type: 'panic', error: 'updating stock: bigint out of range' });
    expect(await stock()).toEqual({ qty: '502', price: big });
    seen.push(overflow.errmsg);
  });
});

describe('both ways of making a block', () => {
  it('give the same outcomes', () => {
    expect(outcomes['in memory']).toHaveLength(5);
    expect(outcomes['in memory']).toEqual(outcomes['statement by statement']);
  });
});

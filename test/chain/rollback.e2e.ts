import { beforeAll, expect, it } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { DatabaseService } from '../../src/database/database.service';
import { IbaxClient, buildCoinTransfer } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';
import { until } from '../support/wire';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let db: DatabaseService;
let founder: IbaxClient;

/** Tables whose rows are the chain's state; the statuses and the mempool are reported separately. */
const NOT_STATE = new Set([
  'transactions_status',
  'transactions',
  'queue_tx',
  'migrations',
  'migration_history',
]);

/** Waits (a few seconds at most) until the node's final block is at least `id`. */
function finalReaches(id: number): Promise<void> {
  return until(
    `block ${id} is final`,
    async () => (await node.client.rpc<number>('ibax.finalizedBlockId')) >= id,
    10_000,
  );
}

/** Every row of every state table, as text, in a stable order. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = current_schema() AND "table_type" = 'BASE TABLE'`,
  );
  const state: Record<string, string[]> = {};
  for (const { table_name: table } of tables.sort((a, b) => a.table_name.localeCompare(b.table_name))) {
    if (NOT_STATE.has(table)) continue;
    const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS "row" FROM "${table}" t`);
    state[table] = rows.map((row) => row.row).sort();
  }
  return state;
}

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  // State the rolled-back blocks will change: a table with a row, coins on the founder's account.
  await founder.call(node.founderKey, 'NewTable', {
    ApplicationId: '1',
    Name: 'ledger',
    Columns: JSON.stringify([{ name: 'note', type: 'varchar', conditions: 'true' }]),
    Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
  });
  const self = buildCoinTransfer(
    founder.signer,
    node.founderKey,
    { transferSelf: { value: '1000000', source: 'UTXO', target: 'Account' } },
    { networkId: node.config.networkId },
  );
  await founder.waitForTransactions(await founder.sendTransactions([self.bytes]));
});

it('takes the last 3 blocks back to the exact previous state, and production goes on', async () => {
  const before = await snapshot();
  const height = await node.client.rpc('ibax.maxBlockId');
  const keys = node.app.get(NodeIdentity).keys;

  const contract = await founder.call(node.founderKey, 'NewContract', {
    ApplicationId: '1',
    Value:
      'contract AddNote {\n data {\n Note string\n }\n action {\n $result = DBInsert("ledger", {"note": $Note})\n }\n}',
    Conditions: 'true',
  });
  const note = await founder.call(node.founderKey, 'AddNote', { Note: 'kept?' });
  const column = await founder.buildCall(node.founderKey, 'NewColumn', {
    TableName: 'ledger',
    Name: 'amount',
    Type: 'number',
    Permissions: 'true',
  });
  const utxo = buildCoinTransfer(
    founder.signer,
    node.founderKey,
    { utxo: { toId: keys.node.keyId, value: '777', comment: '' } },
    { networkId: node.config.networkId },
  );
  // A schema change and a coin transfer in one block: the third.
  const [columnHash, utxoHash] = await founder.sendTransactions([column.bytes, utxo.bytes]);
  const third = await founder.waitForTransactions([columnHash, utxoHash]);
  for (const step of [contract.status, note.status, third[columnHash], third[utxoHash]]) {
    expect(step.errmsg).toBeUndefined();
  }
  expect(third[columnHash].blockid).toBe(third[utxoHash].blockid);
  const after = await node.client.rpc('ibax.maxBlockId');
  expect(after).toBe(height + 3);
  expect((await founder.get('/api/v2/contract/AddNote')).status).toBe(200);

  // On a node alone every block becomes final once written (the finality service follows the chain's events,
  // so a moment after the block): taking one back is the operator's explicit decision.
  await finalReaches(height + 3);
  expect(await node.client.rpc('ibax.finalizedBlockId')).toBe(height + 3);
  expect(await node.client.rpc('chain.finalizedBlockId')).toBe(height + 3);
  const refused = await node.client.rpcRaw({
    jsonrpc: '2.0',
    id: 1,
    method: 'admin.rollbackBlocks',
    params: [3],
  });
  expect(refused.body.error).toEqual({
    code: -32000,
    message: `cannot roll back 3 blocks: block ${height + 3} is final (voted for by a majority of the honor nodes); force to take it back`,
  });
  expect(await node.client.rpc('ibax.maxBlockId')).toBe(height + 3);
  const undo = await node.client.rpc('admin.rollbackBlocks', [3, true]);
  expect(await node.client.rpc('ibax.finalizedBlockId')).toBe(height);
  expect(undo).toEqual({ rolled_back: 3, max_block_id: height });
  expect(await snapshot()).toEqual(before);
  expect((await founder.get('/api/v2/contract/AddNote')).status).toBe(404);
  const statuses = await founder.txStatus([note.hash, utxoHash]);
  expect(statuses[note.hash]).toEqual({
    blockid: '',
    errmsg: { type: 'txError', error: 'The transaction was rolled back with its block' },
    result: '',
    penalty: 0,
  });

  const next = await founder.call(node.founderKey, 'NewParameter', {
    Name: 'after_rollback',
    Value: '1',
    Conditions: 'true',
  });
  expect(next.status.blockid).toBe(String(height + 1));
  await finalReaches(height + 1);
  expect(await node.client.rpc('ibax.finalizedBlockId')).toBe(height + 1);
  const previous = await node.client.get(`/api/v2/block/${height}`);
  const detailed = await node.client.rpc('ibax.detailedBlock', [String(height + 1)]);
  expect(detailed.header.block_id).toBe(height + 1);
  expect(Buffer.from(previous.body.hash, 'base64').toString('hex')).toHaveLength(64);
});

it('refuses to roll back the genesis block or a count that is not positive', async () => {
  const height = await node.client.rpc('ibax.maxBlockId');
  const tooMany = await node.client.rpcRaw({
    jsonrpc: '2.0',
    id: 1,
    method: 'admin.rollbackBlocks',
    params: [height, true],
  });
  expect(tooMany.body.error.code).toBe(-32000);
  expect(tooMany.body.error.message).toMatch(/^cannot roll back \d+ blocks/);
  const zero = await node.client.rpcRaw({
    jsonrpc: '2.0',
    id: 1,
    method: 'admin.rollbackBlocks',
    params: [0],
  });
  expect(zero.body.error).toEqual({ code: -32602, message: 'params 0 invalid' });
  expect(await node.client.rpc('ibax.maxBlockId')).toBe(height);
});

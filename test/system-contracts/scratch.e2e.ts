import { afterAll, beforeAll, it } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { ContractBench } from '../support/contracts';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from '../support/node';

let db: TestDatabase;
let node: TestNode;
let bench: ContractBench;
beforeAll(async () => {
  db = await createTestDatabase();
  node = await startNode({ databaseUrl: db.url });
  bench = new ContractBench(node);
});
afterAll(async () => {
  await node?.stop(true);
  await db?.drop();
});
it('explores', async () => {
  const t = await bench.db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`);
  console.log(JSON.stringify(t.map((r: any) => r.table_name)));
  for (const table of ['1_keys', '1_members', '1_parameters', '1_app_params', '1_roles', '1_roles_participants', '1_sections', '1_ecosystems', '1_applications', '1_menu', '1_pages', '1_snippets', '1_languages', '1_binaries', '1_history']) {
    const rows = await bench.db.query(`SELECT (SELECT jsonb_object_agg(key, value) FROM jsonb_each_text(to_jsonb(t))) AS row FROM "${table}" t ORDER BY id`);
    console.log(table, JSON.stringify(rows.map((r: any) => r.row)).slice(0, 3000));
  }
  for (const table of ['1_time_zones', '1_platform_parameters', '1_contracts', '1_tables']) {
    console.log(table, (await bench.db.query(`SELECT count(*) FROM "${table}"`))[0]);
  }
  console.log('founder', bench.founder, 'node', node.app.get(NodeIdentity).keys.node.keyId);
  const honor = await bench.db.query(`SELECT value FROM "1_platform_parameters" WHERE name LIKE 'honor_nodes' OR name LIKE 'access_exec%'`);
  console.log(JSON.stringify(honor));
  const started = Date.now();
  const snap = await bench.snapshot(t.map((r: any) => r.table_name));
  console.log('snapshot ms', Date.now() - started, JSON.stringify(snap).length);
});

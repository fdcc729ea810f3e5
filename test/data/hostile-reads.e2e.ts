import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseService } from '../../src/database/database.service';
import type { HttpAnswer } from '../../src/sdk';
import { hostileJson, hostileText, percentEncode } from '../support/hostile';
import { useTestNode, type TestNode } from '../support/node';
import { ECO1_ITEMS, buildScenario, type Scenario } from './scenario';

/**
 * The data reads under hostile where, order, column and table inputs, generated (seeded: FUZZ_SEED
 * replays a run). Each answer is a documented refusal or a right answer: never a 5xx, never a row of
 * another ecosystem or a value the reader may not see, and nothing the inputs spell as SQL ever runs (the
 * tables and their rows, the `vault` canary included, are exactly as before).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const ORACLE_RUNS = 500;
const HOSTILE_RUNS = 900;

const running = useTestNode({ env: { BLOCK_SLOT_MS: '200' } });
let node: TestNode;
let s: Scenario;
let db: DatabaseService;
let worldBefore: Record<string, unknown>;
let sent = 0;

/** Values only the second ecosystem has, and values only MainCondition may read (for the stranger). */
const ECO2_VALUES = new Set(['eco2-alpha', 'eco2-beta', 'eco2-silver', 's-alpha', 's-beta', 'red', 'blue']);
const HIDDEN_VALUES = new Set(['gold', 's-anvil', 's-anvil-2', 's-feather', 's-clock']);
const REST_ERRORS = new Set(['E_SERVER', 'E_TABLENOTFOUND', 'E_NOTFOUND', 'E_ECOSYSTEM']);
/** -32000 domain errors, -32012 not found, -32602 invalid params, -32700 a body nested too deep. */
const RPC_ERRORS = new Set([-32000, -32012, -32602, -32700]);

/** Every table of the schema with its row count, and every row of the user tables and the canary. */
async function world(): Promise<Record<string, unknown>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = current_schema() ORDER BY 1`,
  );
  const counts: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    if (table === 'rollback_tx' || table.startsWith('typeorm')) continue;
    const row = await db.one<{ count: string }>(`SELECT count(*)::text AS "count" FROM "${table}"`);
    counts[table] = row!.count;
  }
  const rows: Record<string, unknown> = {};
  for (const table of ['1_items', `${s.eco2Id}_items`, '1_vault', `${s.eco2Id}_vault`]) {
    rows[table] = await db.query(`SELECT to_jsonb(t)::text AS "row" FROM "${table}" t ORDER BY "id"`);
  }
  return { counts, rows };
}

beforeAll(async () => {
  node = running.node;
  db = node.app.get(DatabaseService);
  s = await buildScenario(node);
  worldBefore = await world();
  console.log(`hostile reads: seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
}, 120_000);

type Who = 'founder' | 'stranger';

/** Row objects of a list or row answer (REST body or JSON-RPC result). */
function rowsOf(body: unknown): Record<string, unknown>[] {
  if (!body || typeof body !== 'object') return [];
  const { list, value } = body as { list?: unknown; value?: unknown };
  const rows = Array.isArray(list) ? list : value && typeof value === 'object' ? [value] : [];
  return rows.filter((row): row is Record<string, unknown> => !!row && typeof row === 'object');
}

/** What a reader of ecosystem 1 may be shown: its own rows, and for the stranger nothing hidden. */
function expectNothingForeign(body: unknown, who: Who, label: string): void {
  for (const row of rowsOf(body)) {
    if ('ecosystem' in row) expect(row.ecosystem, `${label}: a row of another ecosystem`).toBe('1');
    for (const value of Object.values(row)) {
      expect(ECO2_VALUES.has(String(value)), `${label}: shows ${String(value)}`).toBe(false);
      if (who === 'stranger') expect(HIDDEN_VALUES.has(String(value)), `${label}: shows ${String(value)}`).toBe(false);
    }
  }
}

/** Refusals: E_SERVER (400, and 413/431 for what the HTTP limits refuse), E_TABLENOTFOUND and E_NOTFOUND (404), E_ECOSYSTEM. */
function checkRest(answer: HttpAnswer, who: Who, fullLabel: string): void {
  sent++;
  const label = fullLabel.slice(0, 400);
  expect(answer.status, `${label} → ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status === 200) {
    expectNothingForeign(answer.body, who, label);
    return;
  }
  expect([400, 404, 413, 431], `${label} → ${answer.status} ${answer.text.slice(0, 300)}`).toContain(answer.status);
  expect(REST_ERRORS.has(answer.body?.error), `${label} → ${answer.text.slice(0, 300)}`).toBe(true);
}

function checkRpc(answer: HttpAnswer, who: Who, fullLabel: string): void {
  sent++;
  const label = fullLabel.slice(0, 400);
  expect(answer.status, label).toBe(200);
  const envelope = answer.body as { result?: unknown; error?: { code: number; message: string } };
  if (envelope.error) {
    expect(RPC_ERRORS.has(envelope.error.code), `${label} → ${JSON.stringify(envelope.error)}`).toBe(true);
    return;
  }
  expectNothingForeign(envelope.result, who, label);
}

const clientOf = (who: Who) => (who === 'founder' ? s.eco1 : s.stranger);
const rpcCall = (who: Who, method: string, params: unknown) =>
  clientOf(who).rpcRaw({ jsonrpc: '2.0', id: 1, method, params });

// ---------------------------------------------------------------------------------------------------
// Generators

const TABLE_NAMES = [
  'items',
  'ITEMS',
  '@1items',
  '1_items',
  'vault',
  'keys',
  '@1keys',
  'members',
  'parameters',
  'ecosystems',
  'platform_parameters',
  'rollback_tx',
  'block_chain',
  'transactions',
  'information_schema.tables',
  'pg_catalog.pg_tables',
  'pg_shadow',
  '"1_items"',
  'items"; DROP TABLE "1_vault"; --',
  "items' OR '1'='1",
  'items/*',
  'items--',
  'items;',
  'items\u0000',
  'ıtems',
  'ＩＴＥＭＳ',
  ' items',
  '@0items',
  '@-1items',
  '@99999999999999999999999items',
  '@1',
  '@',
  '_items',
  'a'.repeat(70),
];
const tableName = (eco2: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...TABLE_NAMES, `@${eco2}items`, `${eco2}_items`, `@${eco2}keys`, `${eco2}_vault`) },
    { weight: 1, arbitrary: hostileText },
  );

const COLUMN_NAMES = [
  'name',
  'NAME',
  'id',
  'weight',
  'secret',
  'ecosystem',
  'data',
  'data->color',
  'data->size->w',
  "data->'x'",
  'data->>color',
  'data->a;--',
  'data->',
  '->',
  'name->x',
  '*',
  '"name"',
  'name"--',
  'pg_sleep(5)',
  '(SELECT 1)',
  '1',
  'name AS x',
  'name;DROP TABLE "1_vault"',
  'id,id,id',
];
const columnName = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...COLUMN_NAMES) }, { weight: 1, arbitrary: hostileText });
const columnsText = fc.array(columnName, { maxLength: 6 }).map((names) => names.join(','));

const OPERATORS = ['$eq', '$neq', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$like', '$ilike', '$begin', '$ibegin', '$end', '$iend', '$and', '$or', '$isnull', '$regex', '$where', '$EQ', ' $eq ', '$', '$$', '$exists'];
const whereKey = fc.oneof(
  { weight: 3, arbitrary: columnName },
  { weight: 2, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: hostileText },
);
const whereValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    fc.constantFrom('$isnull', "'", "x' OR '1'='1", '1; DROP TABLE "1_vault"; --', 'anvil', '%', '_', '\\'),
    fc.integer().map(String),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(whereKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const whereObject = fc.dictionary(whereKey, whereValue, { maxKeys: 4 });

/** Where-maps that cost: deep nesting, huge lists, many keys. */
const heavyWhere = fc.oneof(
  fc.integer({ min: 20, max: 300 }).map((depth) => {
    let where: unknown = { name: 'anvil' };
    for (let i = 0; i < depth; i++) where = { $or: [where] };
    return where;
  }),
  fc.integer({ min: 20, max: 300 }).map((depth) => {
    let value: unknown = 'anvil';
    for (let i = 0; i < depth; i++) value = [value];
    return { name: value };
  }),
  fc.integer({ min: 500, max: 5000 }).map((n) => ({ name: { $in: Array.from({ length: n }, (_, i) => `v${i}`) } })),
  fc.integer({ min: 50, max: 3000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
);

/** The object syntax as a client writes it: JSON, the lenient form, or anything at all. */
const whereText = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(whereObject, heavyWhere).map((where) => JSON.stringify(where)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '{}',
      ' {}',
      '{',
      '}',
      '{,}',
      '{"name":}',
      '{"name":"anvil",}',
      '{"name":"anvil"} OR 1=1',
      '{name: anvil}',
      '{"name": "x\\"}',
      '{"name":["a",,"b"]}',
      '{"name":{"$in":"x\') OR (\'1\'=\'1"}}',
      '{"name":{"$nin":"1) OR 1=1 --"}}',
      '{"name":"anvil"; DROP TABLE "1_vault"}',
      '{"$or":[{"name":"anvil"},{"1":"1"}]}',
      '{"data->\'a\'":"x"}',
      '{"data->a\') OR 1=1 --":"x"}',
      '[{"name":"anvil"}]',
      'null',
      '"name"',
    ),
  },
  { weight: 1, arbitrary: hostileText },
);

const orderText = fc.oneof(
  fc.constant(''),
  fc.oneof(fc.constantFrom(...COLUMN_NAMES), hostileText).map((name) => JSON.stringify(name)),
  fc.dictionary(columnName, fc.oneof(fc.constantFrom(1, -1, '-1', 'desc', 'asc; DROP TABLE x'), hostileText), { maxKeys: 3 }).map((o) => JSON.stringify(o)),
  fc.array(fc.oneof(columnName, fc.dictionary(columnName, fc.constantFrom(1, -1), { maxKeys: 2 })), { maxLength: 4 }).map((o) => JSON.stringify(o)),
  fc.constantFrom('name desc', 'name desc; DROP TABLE "1_vault"', 'id ASC NULLS FIRST', '1', 'random()', 'name,(SELECT 1)'),
  hostileText,
);

const segment = (text: string) => percentEncode(Buffer.from(text, 'utf8')) || '%20';
const numberish = fc.oneof(fc.constantFrom('1', '2', '0', '-1', '99999999999999999999', '1.5', '1e3', '0x1', "1' OR '1'='1"), hostileText);

// ---------------------------------------------------------------------------------------------------

interface OracleCase {
  json: unknown;
  test: (name: string) => boolean;
}

const oracleValue = fc.oneof(
  fc.constantFrom('anvil', 'feather', "o'clock", 'an', 'ck', "o'", "'", 'e', '', '%', '_', '\\', '%e%', 'a_vil', 'ANVIL'),
  hostileText,
);
const oracleLeaf: fc.Arbitrary<OracleCase> = fc.oneof(
  oracleValue.map((v) => ({ json: { name: v }, test: (n: string) => n === v })),
  oracleValue.map((v) => ({ json: { name: { $eq: v } }, test: (n: string) => n === v })),
  oracleValue.map((v) => ({ json: { name: { $neq: v } }, test: (n: string) => n !== v })),
  oracleValue.map((v) => ({ json: { name: { $like: v } }, test: (n: string) => n.includes(v) })),
  oracleValue.map((v) => ({ json: { name: { $begin: v } }, test: (n: string) => n.startsWith(v) })),
  oracleValue.map((v) => ({ json: { name: { $end: v } }, test: (n: string) => n.endsWith(v) })),
  fc.array(oracleValue, { maxLength: 5 }).map((vs) => ({ json: { name: { $in: vs } }, test: (n: string) => vs.includes(n) })),
  fc.array(oracleValue, { maxLength: 5 }).map((vs) => ({ json: { name: { $nin: vs } }, test: (n: string) => !vs.includes(n) })),
  fc.constantFrom(1, 5, 70, 71).map((w) => ({ json: { weight: { $gte: String(w) } }, test: (n: string) => weightOf(n) >= w })),
);
const oracleWhere: fc.Arbitrary<OracleCase> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    oracleLeaf,
    fc.array(tie('node') as fc.Arbitrary<OracleCase>, { minLength: 1, maxLength: 3 }).map((cs) => ({
      json: { $and: cs.map((c) => c.json) },
      test: (n: string) => cs.every((c) => c.test(n)),
    })),
    fc.array(tie('node') as fc.Arbitrary<OracleCase>, { minLength: 1, maxLength: 3 }).map((cs) => ({
      json: { $or: cs.map((c) => c.json) },
      test: (n: string) => cs.some((c) => c.test(n)),
    })),
  ),
})).node as fc.Arbitrary<OracleCase>;

const WEIGHTS: Record<string, number> = { anvil: 71, feather: 1, "o'clock": 5 };
const weightOf = (name: string) => WEIGHTS[name];

/** Every text of a where-map, as the database receives it (lone surrogates become U+FFFD on the way). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

const wellFormed = (text: string) => (text as string & { toWellFormed(): string }).toWellFormed();

function normalized(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(normalized);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), normalized(v)]));
  return value;
}

describe('hostile reads', () => {
  it(`answers generated where-maps exactly as they mean (${ORACLE_RUNS} runs)`, async () => {
    const names = ECO1_ITEMS.map((item) => item.Name);
    await fc.assert(
      fc.asyncProperty(oracleWhere, fc.boolean(), async (where, viaRest) => {
        const json = normalized(where.json);
        const test = (n: string) => where.test(n);
        const values = texts(json);
        const expected = names.filter((name) => test(name));
        // The object syntax has no escapes: a value with a double quote goes by JSON-RPC.
        const restFits = viaRest && values.every((v) => !v.includes('"'));
        let answer: HttpAnswer;
        let result: { count: number; list: { name: string }[] | null } | undefined;
        if (restFits) {
          answer = await s.eco1.postForm('/api/v2/listWhere/items', {
            where: lenient(json),
            columns: 'name',
          });
          checkRest(answer, 'founder', `listWhere ${lenient(json)}`);
          if (answer.status === 200) result = answer.body;
        } else {
          answer = await rpcCall('founder', 'ibax.getList', [{ name: 'items', columns: 'name', where: json }]);
          checkRpc(answer, 'founder', `getList ${JSON.stringify(json)}`);
          result = answer.body.result;
        }
        if (values.some((v) => v.includes('\u0000'))) return; // PostgreSQL refuses NUL in text: a refusal is right
        expect(result, `${JSON.stringify(json)} → ${answer.text.slice(0, 300)}`).toBeDefined();
        expect(
          { count: Number(result!.count), names: (result!.list ?? []).map((row) => row.name) },
          JSON.stringify(json),
        ).toEqual({ count: expected.length, names: expected });
      }),
      { seed: SEED, numRuns: ORACLE_RUNS, endOnFailure: true },
    );
  }, 300_000);

  it(`refuses or answers rightly ${HOSTILE_RUNS} hostile table, column, order and where inputs`, async () => {
    const eco2 = s.eco2Id;
    const request = fc.oneof(
      fc.record({ kind: fc.constant('listWhere' as const), table: tableName(eco2), where: whereText, order: orderText, columns: columnsText, who: fc.constantFrom<Who>('founder', 'stranger'), path: fc.constantFrom('listWhere', 'nodelistWhere') }),
      fc.record({ kind: fc.constant('list' as const), table: tableName(eco2), columns: columnsText, who: fc.constantFrom<Who>('founder', 'stranger') }),
      fc.record({ kind: fc.constant('sum' as const), table: tableName(eco2), column: columnName, where: whereText, who: fc.constantFrom<Who>('founder', 'stranger') }),
      fc.record({ kind: fc.constant('row' as const), table: tableName(eco2), column: fc.option(columnName), id: numberish, columns: columnsText, who: fc.constantFrom<Who>('founder', 'stranger') }),
      fc.record({ kind: fc.constant('meta' as const), table: tableName(eco2), id: numberish, who: fc.constantFrom<Who>('founder', 'stranger') }),
      fc.record({
        kind: fc.constant('rpc' as const),
        table: tableName(eco2),
        where: fc.oneof(whereObject, heavyWhere, hostileJson, whereText),
        order: fc.oneof(hostileJson, orderText),
        columns: fc.oneof(columnsText, hostileJson),
        who: fc.constantFrom<Who>('founder', 'stranger'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const client = clientOf(r.who);
        const table = segment(r.table);
        switch (r.kind) {
          case 'listWhere': {
            const fields = { where: r.where, order: r.order, columns: r.columns };
            checkRest(await client.postForm(`/api/v2/${r.path}/${table}`, fields), r.who, `${r.path} ${JSON.stringify(r)}`);
            break;
          }
          case 'list':
            checkRest(await client.get(`/api/v2/list/${table}?columns=${segment(r.columns)}`), r.who, `list ${JSON.stringify(r)}`);
            break;
          case 'sum':
            checkRest(await client.postForm(`/api/v2/sumWhere/${table}`, { column: r.column, where: r.where }), r.who, `sumWhere ${JSON.stringify(r)}`);
            break;
          case 'row': {
            const path = r.column === null ? `${table}/${segment(r.id)}` : `${table}/${segment(r.column)}/${segment(r.id)}`;
            checkRest(await client.get(`/api/v2/row/${path}?columns=${segment(r.columns)}`), r.who, `row ${JSON.stringify(r)}`);
            checkRpc(await rpcCall(r.who, 'ibax.getRow', [r.table, /^-?\d{1,18}$/.test(r.id) ? Number(r.id) : 1, r.columns, r.column ?? '']), r.who, `getRow ${JSON.stringify(r)}`);
            break;
          }
          case 'meta':
            checkRest(await client.get(`/api/v2/table/${table}`), r.who, `table ${JSON.stringify(r)}`);
            checkRest(await client.get(`/api/v2/history/${table}/${segment(r.id)}`), r.who, `history ${JSON.stringify(r)}`);
            checkRpc(await rpcCall(r.who, 'ibax.history', [r.table, 1]), r.who, `history ${JSON.stringify(r)}`);
            break;
          case 'rpc':
            checkRpc(
              await rpcCall(r.who, 'ibax.getList', [{ name: r.table, where: r.where, order: r.order, columns: r.columns }]),
              r.who,
              `getList ${JSON.stringify(r).slice(0, 500)}`,
            );
            break;
        }
      }),
      { seed: SEED, numRuns: HOSTILE_RUNS, endOnFailure: true },
    );
  }, 600_000);

  it('ran no injected SQL: every table and every row of the user tables and the canary are as before', async () => {
    expect(sent).toBeGreaterThanOrEqual(ORACLE_RUNS + HOSTILE_RUNS);
    expect(await world()).toEqual(worldBefore);
    // The canary is still there for those who may read it, and still hidden from those who may not.
    expect((await s.eco1.get('/api/v2/list/vault')).body).toEqual({ count: 1, list: [{ id: '1', label: 'gold' }] });
    expect((await s.stranger.get('/api/v2/list/vault')).body.error).toBe('E_SERVER');
  });
});

/** The object syntax of a where-map whose texts hold no double quote: every scalar quoted as it is. */
function lenient(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return `[${value.map(lenient).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${lenient(key)}:${lenient(item)}`)
      .join(',')}}`;
  }
  return String(value);
}

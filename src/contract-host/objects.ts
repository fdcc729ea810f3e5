import { ecosystemSeedRows } from '../chain/seed/ecosystem-seed';
import { insertRows } from '../chain/seed/row-writer';
import {
  CompileError,
  panic,
  resolveContractKey,
  type BuiltinContext,
  type BuiltinDef,
  type Value,
} from '../vm';
import { intArg, nextRowId, textArg } from './args';
import { rowKeyOf } from './journal';
import { requireExecAccess } from './privileged';
import { ecosystemOf, hostOf, type HostState } from './state';

function namesOf(ctx: BuiltinContext, source: string): string[] {
  try {
    return ctx.vm.sourceNames(source);
  } catch (error) {
    throw panic(error instanceof CompileError ? error.message : String(error));
  }
}

/** The first top-level name of a source, or "" when it declares none (NewContract reports that itself). */
function contractName(ctx: BuiltinContext, source: Value): Value {
  return namesOf(ctx, textArg(source, 'source'))[0] ?? '';
}

function validateEditContractNewValue(ctx: BuiltinContext, newSource: Value, oldSource: Value): Value {
  const before = textArg(oldSource, 'old source');
  const after = textArg(newSource, 'new source');
  if (namesOf(ctx, after).length !== namesOf(ctx, before).length) {
    throw panic('contract cannot be removed or inserted');
  }
  if (!ctx.vm.sameNames(before, after)) throw panic('contracts or functions names cannot be changed');
  return null;
}

function register(
  host: HostState,
  source: string,
  ecosystem: bigint,
  meta: Parameters<HostState['registerContract']>[2],
) {
  try {
    host.registerContract(source, ecosystem, meta);
  } catch (error) {
    throw panic(error instanceof CompileError ? error.message : (error as Error).message);
  }
}

/**
 * CreateContract(name, source, conditions, tokenEcosystem, appId) → the new `1_contracts` row's id, as the
 * reference returns it: clients open the contract by that id (Weaver's editor asks `row/contracts/<id>`).
 * The contract id that transactions name is 5000 + this id (`GET /contract/{name}` shows both).
 */
async function createContract(
  ctx: BuiltinContext,
  name: Value,
  source: Value,
  conditions: Value,
  tokenEcosystem: Value = 1n,
  appId: Value = 1n,
): Promise<Value> {
  await requireExecAccess(ctx, 'CreateContract');
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const contract = textArg(name, 'name');
  const key = resolveContractKey(contract, Number(ecosystem));
  if (ctx.vm.registry.has(key)) throw panic(`contract ${key} already exists`);
  const id = await nextRowId(host.sql, '1_contracts');
  const tokenId = intArg(tokenEcosystem, 'token ecosystem') || 1n;
  const app = intArg(appId, 'application id');
  register(host, textArg(source, 'source'), ecosystem, {
    tableId: Number(id),
    walletId: 0n,
    tokenId,
    conditions: textArg(conditions, 'conditions'),
    appId: app,
  });
  await host.sql.query(
    `INSERT INTO "1_contracts" ("id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id")
     VALUES ($1, $2, $3, $4, 0, $5, $6, $7)`,
    [id.toString(), ecosystem.toString(), contract, source, tokenId.toString(), conditions, app.toString()],
  );
  await host.journal.inserted('1_contracts', rowKeyOf('1_contracts', id, ecosystem));
  return id;
}

/** A `1_contracts` row as text, the way the contract host and the contracts service read it. */
export interface ContractRow {
  id: string;
  ecosystem: string;
  name: string;
  value: string;
  wallet_id: string;
  token_id: string;
  conditions: string;
  app_id: string;
}

type EditableColumns = Omit<ContractRow, 'id' | 'ecosystem'>;

async function contractRow(host: HostState, id: bigint, ecosystem: bigint): Promise<EditableColumns> {
  const row = await host.sql.one<EditableColumns>(
    `SELECT "name", "value", "wallet_id", "token_id", "conditions", "app_id" FROM "1_contracts" WHERE "id" = $1 AND "ecosystem" = $2`,
    [id.toString(), ecosystem.toString()],
  );
  if (!row) throw panic(`Contract ${id} has not been found`);
  return row;
}

async function updateContractRow(
  host: HostState,
  id: bigint,
  before: EditableColumns,
  changes: Partial<Record<keyof EditableColumns, string>>,
) {
  const names = Object.keys(changes) as (keyof EditableColumns)[];
  if (names.length === 0) return;
  const params: unknown[] = [id.toString()];
  const sets = names.map((column) => {
    params.push(changes[column]);
    return `"${column}" = $${params.length}`;
  });
  await host.sql.query(`UPDATE "1_contracts" SET ${sets.join(', ')} WHERE "id" = $1`, params);
  await host.journal.updated(
    '1_contracts',
    id.toString(),
    Object.fromEntries(names.map((column) => [column, before[column]])),
  );
}

/** UpdateContract(id, source, conditions, walletId, tokenId): id is the contracts-table row id. */
async function updateContract(
  ctx: BuiltinContext,
  idArg: Value,
  source: Value,
  conditions: Value,
  walletId: Value = null,
  tokenId: Value = null,
): Promise<Value> {
  await requireExecAccess(ctx, 'UpdateContract');
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const id = intArg(idArg, 'id');
  const before = await contractRow(host, id, ecosystem);
  const newSource = textArg(source, 'source') || before.value;
  if (!ctx.vm.sameNames(before.value, newSource))
    throw panic('contracts or functions names cannot be changed');
  const changes: Partial<Record<keyof EditableColumns, string>> = {};
  if (newSource !== before.value) changes.value = newSource;
  const newConditions = textArg(conditions, 'conditions');
  if (newConditions && newConditions !== before.conditions) changes.conditions = newConditions;
  if (walletId !== null && intArg(walletId, 'wallet id').toString() !== before.wallet_id) {
    changes.wallet_id = intArg(walletId, 'wallet id').toString();
  }
  if (
    tokenId !== null &&
    intArg(tokenId, 'token id') > 0n &&
    intArg(tokenId, 'token id').toString() !== before.token_id
  ) {
    changes.token_id = intArg(tokenId, 'token id').toString();
  }
  const after = { ...before, ...changes };
  register(host, after.value, ecosystem, {
    tableId: Number(id),
    walletId: BigInt(after.wallet_id),
    tokenId: BigInt(after.token_id),
    conditions: after.conditions,
    appId: BigInt(after.app_id),
  });
  await updateContractRow(host, id, before, changes);
  return null;
}

async function bindWallet(
  ctx: BuiltinContext,
  idArg: Value,
  ecosystemArg: Value,
  bind: boolean,
): Promise<Value> {
  await requireExecAccess(ctx, bind ? 'BndWallet' : 'UnbndWallet');
  const host = hostOf(ctx);
  const ecosystem = ecosystemArg === null ? ecosystemOf(ctx) : intArg(ecosystemArg, 'ecosystem');
  const id = intArg(idArg, 'id');
  const before = await contractRow(host, id, ecosystem);
  const walletId = bind ? host.caller.keyId : 0n;
  await updateContractRow(host, id, before, { wallet_id: walletId.toString() });
  const key = resolveContractKey(before.name, Number(ecosystem));
  if (ctx.vm.registry.has(key)) ctx.vm.registry.updateMeta(key, { walletId });
  return null;
}

async function createLanguage(
  ctx: BuiltinContext,
  name: Value,
  trans: Value,
  appId: Value = 1n,
): Promise<Value> {
  await requireExecAccess(ctx, 'CreateLanguage');
  const host = hostOf(ctx);
  const ecosystem = ecosystemOf(ctx);
  const label = textArg(name, 'name');
  validateTranslations(textArg(trans, 'translations'));
  const exists = await host.sql.one('SELECT 1 FROM "1_languages" WHERE "ecosystem" = $1 AND "name" = $2', [
    ecosystem.toString(),
    label,
  ]);
  if (exists) throw panic(`Language resource ${label} already exists`);
  const id = await nextRowId(host.sql, '1_languages');
  await host.sql.query(
    `INSERT INTO "1_languages" ("id", "ecosystem", "name", "res", "conditions", "app_id") VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      id.toString(),
      ecosystem.toString(),
      label,
      trans,
      'ContractConditions("DeveloperCondition")',
      intArg(appId, 'application id').toString(),
    ],
  );
  await host.journal.inserted('1_languages', id.toString());
  return id;
}

function validateTranslations(json: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw panic('translations must be a JSON object of language → text');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw panic('translations must be a JSON object of language → text');
  }
  for (const [code, value] of Object.entries(parsed)) {
    if (!/^[a-zA-Z]{2}(-[a-zA-Z]{2})?$/.test(code) || typeof value !== 'string') {
      throw panic(`translation ${code} is not a language code with a text`);
    }
  }
}

async function editLanguage(ctx: BuiltinContext, idArg: Value, name: Value, trans: Value): Promise<Value> {
  await requireExecAccess(ctx, 'EditLanguage');
  const host = hostOf(ctx);
  const id = intArg(idArg, 'id');
  validateTranslations(textArg(trans, 'translations'));
  const before = await host.sql.one<{ name: string; res: string }>(
    'SELECT "name", "res" FROM "1_languages" WHERE "id" = $1 AND "ecosystem" = $2',
    [id.toString(), ecosystemOf(ctx).toString()],
  );
  if (!before) throw panic(`Language resource ${id} has not been found`);
  const newName = textArg(name, 'name') || before.name;
  await host.sql.query('UPDATE "1_languages" SET "name" = $1, "res" = $2 WHERE "id" = $3', [
    newName,
    trans,
    id.toString(),
  ]);
  await host.journal.updated('1_languages', id.toString(), { name: before.name, res: before.res });
  return null;
}

async function editEcosysName(ctx: BuiltinContext, idArg: Value, name: Value): Promise<Value> {
  await requireExecAccess(ctx, 'EditEcosysName');
  const host = hostOf(ctx);
  const id = intArg(idArg, 'ecosystem id');
  const newName = textArg(name, 'name').trim();
  if (!newName) throw panic('the ecosystem name cannot be empty');
  const before = await host.sql.one<{ name: string }>('SELECT "name" FROM "1_ecosystems" WHERE "id" = $1', [
    id.toString(),
  ]);
  if (!before) throw panic(`Ecosystem ${id} does not exist`);
  await host.sql.query('UPDATE "1_ecosystems" SET "name" = $1 WHERE "id" = $2', [newName, id.toString()]);
  await host.journal.updated('1_ecosystems', id.toString(), { name: before.name });
  return null;
}

/**
 * CreateEcosystem(founderKeyId, name) → the new ecosystem's id, with the rows every ecosystem starts with
 * (formats.md §6.2) and its own MainCondition and DeveloperCondition.
 */
async function createEcosystem(ctx: BuiltinContext, founderArg: Value, name: Value): Promise<Value> {
  await requireExecAccess(ctx, 'CreateEcosystem');
  const host = hostOf(ctx);
  const founderKeyId = intArg(founderArg, 'founder key id');
  const ecosystemName = textArg(name, 'name').trim();
  if (!ecosystemName) throw panic('the ecosystem name cannot be empty');
  const founder = await host.sql.one<{ pub: unknown; account: string }>(
    'SELECT "pub", "account" FROM "1_keys" WHERE "id" = $1 AND "ecosystem" = 1',
    [founderKeyId.toString()],
  );
  if (!founder) throw panic(`key ${founderKeyId} is not registered`);
  const ecosystem = await nextRowId(host.sql, '1_ecosystems');
  await host.sql.query(
    `INSERT INTO "1_ecosystems" ("id", "name", "info", "digits", "control_mode") VALUES ($1, $2, '{}', 0, 1)`,
    [ecosystem.toString(), ecosystemName],
  );
  await host.journal.inserted('1_ecosystems', ecosystem.toString());

  const nextIds = new Map<string, bigint>();
  const allocate = async (table: string) => nextIds.set(table, (await nextRowId(host.sql, table)) - 1n);
  for (const table of [
    '1_parameters',
    '1_members',
    '1_sections',
    '1_menu',
    '1_pages',
    '1_roles',
    '1_roles_participants',
    '1_app_params',
    '1_contracts',
  ]) {
    await allocate(table);
  }
  const take = (table: string) => {
    const next = (nextIds.get(table) ?? 0n) + 1n;
    nextIds.set(table, next);
    return next;
  };
  const rows = ecosystemSeedRows({
    ecosystemId: ecosystem,
    founderKeyId,
    address: (keyId) => host.crypto.address(keyId),
    nextId: take,
    time: new Date(Number(host.block.time) * 1000),
  });
  rows.push({
    table: '1_keys',
    values: { id: founderKeyId, ecosystem, pub: founder.pub, account: founder.account.trim() },
  });
  await insertRows(host.sql, rows);
  for (const row of rows) {
    await host.journal.inserted(row.table, rowKeyOf(row.table, row.values.id as bigint, ecosystem));
  }
  for (const contract of host.ecosystemContracts()) {
    const id = take('1_contracts');
    register(host, contract.source, ecosystem, {
      tableId: Number(id),
      walletId: 0n,
      tokenId: 1n,
      conditions: contract.conditions,
      appId: contract.appId,
    });
    await host.sql.query(
      `INSERT INTO "1_contracts" ("id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id")
       VALUES ($1, $2, $3, $4, 0, 1, $5, $6)`,
      [
        id.toString(),
        ecosystem.toString(),
        contract.name,
        contract.source,
        contract.conditions,
        contract.appId.toString(),
      ],
    );
    await host.journal.inserted('1_contracts', id.toString());
  }
  return ecosystem;
}

export const OBJECT_BUILTINS: BuiltinDef[] = [
  { name: 'ContractName', fn: contractName, params: 1, async: false },
  { name: 'ValidateEditContractNewValue', fn: validateEditContractNewValue, params: 2, async: false },
  { name: 'CreateContract', fn: createContract, params: [3, 5], writesDb: true, price: 100 },
  { name: 'UpdateContract', fn: updateContract, params: [3, 5], writesDb: true, price: 100 },
  {
    name: 'BndWallet',
    fn: (ctx, id, eco = null) => bindWallet(ctx, id, eco, true),
    params: [1, 2],
    writesDb: true,
  },
  {
    name: 'UnbndWallet',
    fn: (ctx, id, eco = null) => bindWallet(ctx, id, eco, false),
    params: [1, 2],
    writesDb: true,
  },
  { name: 'CreateLanguage', fn: createLanguage, params: [2, 3], writesDb: true },
  { name: 'EditLanguage', fn: editLanguage, params: 3, writesDb: true },
  { name: 'EditEcosysName', fn: editEcosysName, params: 2, writesDb: true },
  { name: 'CreateEcosystem', fn: createEcosystem, params: 2, writesDb: true, price: 100 },
];

import { panic, valueCost, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { intArg } from './args';
import { openTable } from './db';
import { previousValueExpression, rowKeyOf } from './journal';
import { allowed, columnReadCondition, requireAllowed, tablePermissions } from './permissions';
import { hostOf } from './state';
import type { ColumnInfo } from '../table-access/catalog';

/**
 * GetHistory, GetHistoryRow: the former versions of a row, rebuilt from the rollback journal (which keeps,
 * for every change, the previous text of the columns it changed); GetLogTxCount: how many transactions of
 * an ecosystem the chain holds; GetBlock: a block's id, time and producer.
 */

/** Journal records a history goes back over, newest first, as in the reference. */
const HISTORY_LIMIT = 250;

/** How the reference shows a NULL in a history: the text `NULL`. */
const NULL_TEXT = 'NULL';

interface JournalRecord {
  id: string;
  block_id: string;
  data: string;
}

/** The table and the columns of it the caller may read (the reference checked neither). */
async function readableTable(ctx: BuiltinContext, name: Value) {
  const { host, table, columns } = await openTable(ctx, name);
  const permissions = await tablePermissions(host, table);
  if (!permissions) return { host, table, columns: [...columns.values()] };
  if (permissions.read) await requireAllowed(ctx, permissions.read, 'table');
  const visible: ColumnInfo[] = [];
  for (const column of columns.values()) {
    const condition = columnReadCondition(permissions, column.name);
    if (!condition || (await allowed(ctx, condition))) visible.push(column);
  }
  return { host, table, columns: visible };
}

/** `YYYY-MM-DD HH:MM:SS` of a Unix time, in UTC (the reference used the node's zone). */
function blockTimeText(seconds: string | undefined): string {
  if (seconds === undefined) return '';
  return new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

function journalValues(data: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The row's former versions, newest first: each one is the row as it was before the next change, with the
 * journal record (`id`), block (`block_id`) and block time (`block_time`) of the change that made it. The
 * oldest version, when its making is older than the records read, is marked block 1. With `rollbackId`,
 * only the version that record made (or none).
 */
async function history(
  ctx: BuiltinContext,
  tableArg: Value,
  idArg: Value,
  rollbackId = 0n,
): Promise<Map<string, Value>[]> {
  const { host, table, columns } = await readableTable(ctx, tableArg);
  const id = intArg(idArg, 'id');
  const params: unknown[] = [id.toString()];
  let where = '"id" = $1';
  if (table.shared) {
    params.push(table.ecosystem.toString());
    where += ' AND "ecosystem" = $2';
  }
  const selected = columns.map((column) => `${previousValueExpression(column)} AS "${column.name}"`);
  const current = await host.sql.one<Record<string, string | null>>(
    `SELECT ${selected.join(', ')} FROM "${table.physical}" WHERE ${where}`,
    params,
  );
  if (!current) throw panic('record has not been found');
  const records = await host.sql.query<JournalRecord>(
    `SELECT "id"::text AS "id", "block_id"::text AS "block_id", "data" FROM "rollback_tx"
      WHERE "table_name" = $1 AND "table_id" = $2 ORDER BY "id" DESC LIMIT ${HISTORY_LIMIT}`,
    [table.physical, rowKeyOf(table.physical, id, table.ecosystem)],
  );
  const blockIds = [...new Set(records.map((record) => record.block_id))];
  const times = new Map(
    (
      await host.sql.query<{ id: string; time: string }>(
        `SELECT "id"::text AS "id", "time"::text AS "time" FROM "block_chain" WHERE "id" = ANY($1::bigint[])`,
        [blockIds],
      )
    ).map((block) => [block.id, block.time]),
  );

  const visible = new Set(columns.map((column) => column.name));
  let values = new Map<string, Value>(
    columns.map((column) => [column.name, current[column.name] ?? NULL_TEXT]),
  );
  const versions: Map<string, Value>[] = [];
  for (const record of records) {
    const newest = versions[versions.length - 1];
    if (newest) {
      newest.set('block_id', record.block_id);
      newest.set('id', record.id);
      newest.set('block_time', blockTimeText(times.get(record.block_id)));
      if (rollbackId > 0n && record.id === rollbackId.toString()) return [newest];
    }
    // An insert has no former version.
    if (record.data === '') continue;
    const version = new Map(values);
    for (const [column, previous] of Object.entries(journalValues(record.data))) {
      if (visible.has(column)) version.set(column, previous === null ? NULL_TEXT : String(previous));
    }
    // Each version holds strings the caller's values may hold already: counted, as the VM counts them.
    ctx.reserveMemory(valueCost(version));
    ctx.chargeWork(version.size);
    versions.push(version);
    values = version;
  }
  const oldest = versions[versions.length - 1];
  if (oldest && records[records.length - 1].data !== '') {
    oldest.set('block_id', '1');
    oldest.set('id', '');
    oldest.set('block_time', '');
  }
  return rollbackId > 0n ? [] : versions;
}

/** GetHistory(table, id) → array of maps, newest version first. */
function getHistory(ctx: BuiltinContext, table: Value, id: Value): Promise<Value> {
  return history(ctx, table, id);
}

/** GetHistoryRow(table, id, rollbackId) → the version that journal record made, or an empty map. */
async function getHistoryRow(
  ctx: BuiltinContext,
  table: Value,
  id: Value,
  rollbackId: Value,
): Promise<Value> {
  const wanted = intArg(rollbackId, 'rollback id');
  if (wanted <= 0n) return new Map<string, Value>();
  const [version] = await history(ctx, table, id, wanted);
  return version ?? new Map<string, Value>();
}

/** GetLogTxCount(ecosystem) → transactions of the ecosystem in the chain's blocks. */
async function getLogTxCount(ctx: BuiltinContext, ecosystemArg: Value): Promise<Value> {
  const row = await hostOf(ctx).sql.one<{ count: string }>(
    `SELECT count(*)::text AS "count" FROM "log_transactions" WHERE "ecosystem_id" = $1 AND "status" = 0`,
    [intArg(ecosystemArg, 'ecosystem').toString()],
  );
  return BigInt(row?.count ?? '0');
}

/** GetBlock(id) → {id, time, key_id} of a block of the chain (ints), or nil when there is none. */
async function getBlock(ctx: BuiltinContext, idArg: Value): Promise<Value> {
  const block = await hostOf(ctx).sql.one<{ id: string; time: string; key_id: string }>(
    `SELECT "id"::text AS "id", "time"::text AS "time", "key_id"::text AS "key_id" FROM "block_chain" WHERE "id" = $1`,
    [intArg(idArg, 'block id').toString()],
  );
  if (!block) return null;
  return new Map<string, Value>([
    ['id', BigInt(block.id)],
    ['time', BigInt(block.time)],
    ['key_id', BigInt(block.key_id)],
  ]);
}

export const HISTORY_BUILTINS: BuiltinDef[] = [
  { name: 'GetHistory', fn: getHistory, params: 2, reserves: true },
  { name: 'GetHistoryRow', fn: getHistoryRow, params: 3, reserves: true },
  { name: 'GetLogTxCount', fn: getLogTxCount, params: 1 },
  { name: 'GetBlock', fn: getBlock, params: 1 },
];

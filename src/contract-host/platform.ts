import { honorNodeProblems } from '../chain/honor-nodes';
import {
  parseHonorNodes,
  platformParameter,
  platformParameterRow,
} from '../chain/platform-parameters.service';
import { parsePublicKey } from '../crypto';
import { panic, type BuiltinContext, type BuiltinDef, type Value } from '../vm';
import { intArg, nextRowId, textArg } from './args';
import { validateConditionText } from './access';
import { requireExecAccess } from './privileged';
import { hostOf, type HostState } from './state';

interface HonorNode {
  public_key?: unknown;
  unban_time?: unknown;
  [field: string]: unknown;
}

async function honorNodes(host: HostState): Promise<{ id: string; value: string; nodes: HonorNode[] }> {
  const row = await platformParameterRow(host.sql, 'honor_nodes');
  if (!row) return { id: '', value: '', nodes: [] };
  let nodes: unknown;
  try {
    nodes = JSON.parse(row.value || '[]');
  } catch {
    nodes = [];
  }
  return { id: row.id, value: row.value, nodes: Array.isArray(nodes) ? (nodes as HonorNode[]) : [] };
}

function nodeKeyId(host: HostState, node: HonorNode): bigint | undefined {
  try {
    return host.crypto.keyId(parsePublicKey(String(node.public_key ?? '')));
  } catch {
    return undefined;
  }
}

/** SysFuel(ecosystem): the fuel rate of an ecosystem's token (platform parameter fuel_rate), "" if none. */
async function sysFuel(ctx: BuiltinContext, ecosystemArg: Value): Promise<Value> {
  const ecosystem = intArg(ecosystemArg, 'ecosystem').toString();
  const text = await platformParameter(hostOf(ctx).sql, 'fuel_rate');
  let rates: unknown;
  try {
    rates = JSON.parse(text || '[]');
  } catch {
    return '';
  }
  if (!Array.isArray(rates)) return '';
  const entry = rates.find((item) => Array.isArray(item) && String(item[0]) === ecosystem) as
    unknown[] | undefined;
  return entry ? String(entry[1] ?? '') : '';
}

/** IsHonorNodeKey(keyId): the key is the key of an honor node. */
async function isHonorNodeKey(ctx: BuiltinContext, keyIdArg: Value): Promise<Value> {
  const host = hostOf(ctx);
  const keyId = intArg(keyIdArg, 'key id');
  return (await honorNodes(host)).nodes.some((node) => nodeKeyId(host, node) === keyId);
}

/** DBUpdatePlatformParam(name, value, conditions): changes a platform parameter (UpdatePlatformParam only). */
async function dbUpdatePlatformParam(
  ctx: BuiltinContext,
  nameArg: Value,
  valueArg: Value,
  conditionsArg: Value = '',
): Promise<Value> {
  await requireExecAccess(ctx, 'DBUpdatePlatformParam');
  const host = hostOf(ctx);
  const name = textArg(nameArg, 'parameter name');
  const row = await platformParameterRow(host.sql, name);
  if (!row) throw panic(`Parameter ${name} has not been found`);
  const value = textArg(valueArg, 'value');
  // The list the nodes take turns by must stay one they can all read (formats.md §5.1).
  if (name === 'honor_nodes') {
    const nodes = parseHonorNodes(value);
    if (nodes.length === 0 && value.trim() !== '' && value.trim() !== '[]') {
      throw panic('honor_nodes must be a JSON list of nodes');
    }
    const [problem] = honorNodeProblems(nodes);
    if (problem) throw panic(`honor_nodes: ${problem}`);
  }
  const conditions = textArg(conditionsArg ?? '', 'conditions');
  const previous: Record<string, string> = { value: row.value };
  const params: unknown[] = [value, row.id];
  let sets = '"value" = $1';
  if (conditions) {
    validateConditionText(conditions);
    previous.conditions = row.conditions;
    params.push(conditions);
    sets += ', "conditions" = $3';
  }
  await host.sql.query(`UPDATE "1_platform_parameters" SET ${sets} WHERE "id" = $2`, params);
  await host.journal.updated('1_platform_parameters', row.id, previous);
  return null;
}

/**
 * UpdateNodesBan(time): bans an honor node that a majority of the other honor nodes reported, each with at
 * least `incorrect_blocks_per_day` bad blocks in the last 24 hours, for `node_ban_time` ms, logging it in
 * `1_node_ban_logs`; lifts bans that have run out. Only CheckNodesBan may call it.
 */
async function updateNodesBan(ctx: BuiltinContext, timeArg: Value): Promise<Value> {
  await requireExecAccess(ctx, 'UpdateNodesBan');
  const host = hostOf(ctx);
  const now = intArg(timeArg, 'time');
  const { id, value, nodes } = await honorNodes(host);
  if (nodes.length === 0) return null;
  const threshold = BigInt((await platformParameter(host.sql, 'incorrect_blocks_per_day')) || '10');
  const banMs = BigInt((await platformParameter(host.sql, 'node_ban_time')) || '86400000');
  const majority = BigInt(Math.floor(nodes.length / 2) + 1);
  let changed = false;
  for (const node of nodes) {
    const text = String(node.unban_time ?? '0');
    const unban = /^-?\d+$/.test(text) ? BigInt(text) : 0n;
    const banned = unban > now;
    if (unban > 0n && !banned) {
      node.unban_time = '0';
      changed = true;
    }
    const producer = nodeKeyId(host, node);
    if (producer === undefined || banned) continue;
    const row = await host.sql.one<{ consumers: string }>(
      `SELECT count(*) AS "consumers" FROM (
         SELECT "consumer_node_id" FROM "1_bad_blocks"
          WHERE "producer_node_id" = $1 AND "deleted" = 0 AND "block_time" > to_timestamp($2::bigint - 86400) AT TIME ZONE 'UTC'
          GROUP BY "consumer_node_id" HAVING count(DISTINCT "block_id") >= $3) AS reports`,
      [producer.toString(), now.toString(), threshold.toString()],
    );
    if (BigInt(row?.consumers ?? '0') < majority) continue;
    node.unban_time = (now + banMs / 1000n).toString();
    changed = true;
    const logId = await nextRowId(host.sql, '1_node_ban_logs');
    await host.sql.query(
      `INSERT INTO "1_node_ban_logs" ("id", "node_id", "banned_at", "ban_time", "reason")
       VALUES ($1, $2, to_timestamp($3::bigint) AT TIME ZONE 'UTC', $4, $5)`,
      [
        logId.toString(),
        producer.toString(),
        now.toString(),
        banMs.toString(),
        'bad blocks reported by a majority of honor nodes',
      ],
    );
    await host.journal.inserted('1_node_ban_logs', logId.toString());
  }
  if (changed && id) {
    await host.sql.query('UPDATE "1_platform_parameters" SET "value" = $1 WHERE "id" = $2', [
      JSON.stringify(nodes),
      id,
    ]);
    await host.journal.updated('1_platform_parameters', id, { value });
  }
  return null;
}

export const PLATFORM_BUILTINS: BuiltinDef[] = [
  { name: 'SysFuel', fn: sysFuel, params: 1 },
  { name: 'IsHonorNodeKey', fn: isHonorNodeKey, params: 1 },
  { name: 'DBUpdatePlatformParam', fn: dbUpdatePlatformParam, params: [2, 3], writesDb: true },
  { name: 'UpdateNodesBan', fn: updateNodesBan, params: 1, writesDb: true },
];

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { freePort, killChildNode, startChildNode, type ChildNode } from './child-node';
import { createTestDatabase, newDataDir, type TestDatabase } from './node';
import { until } from './wire';

export { until };

/**
 * Honor nodes on localhost for the network suites: each a real process on its own database (PostgreSQL
 * with TEST_DATABASE_URL, the embedded one otherwise). The first makes the genesis and lists the others in
 * honor_nodes; they take its genesis.
 */
export interface Member {
  index: number;
  port: number;
  url: string;
  dataDir: string;
  db: TestDatabase;
  env: Record<string, string>;
  child?: ChildNode;
  client: IbaxClient;
}

export async function startMember(member: Member): Promise<void> {
  member.child = await startChildNode({
    dataDir: member.dataDir,
    databaseUrl: member.db.url,
    port: member.port,
    env: member.env,
  });
}

export function rpc<T = any>(member: Member, method: string, params: unknown[] = []): Promise<T> {
  return member.client.rpc<T>(method, params);
}

export async function height(member: Member): Promise<number> {
  return Number((await member.client.get('/api/v2/maxblockid')).body.max_block_id);
}

/** The hashes of blocks 1…n as a node serves them. */
export async function blockHashes(member: Member, upTo: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let id = 1; id <= upTo; id++) {
    const answer = await member.client.get(`/api/v2/block/${id}`);
    expect(answer.status, `block ${id} on node ${member.index}`).toBe(200);
    hashes.push(answer.body.hash);
  }
  return hashes;
}

/** Waits until every node of `running` is at the same height with the same blocks; returns that height. */
export async function converged(running: Member[], timeoutMs = 60_000): Promise<number> {
  let top = 0;
  await until(
    'the nodes hold the same chain',
    async () => {
      const heights = await Promise.all(running.map(height));
      top = heights[0];
      if (!heights.every((h) => h === top)) return false;
      const last = await Promise.all(running.map((member) => member.client.get(`/api/v2/block/${top}`)));
      return last.every((answer) => answer.body.hash === last[0].body.hash);
    },
    timeoutMs,
  );
  const chains = await Promise.all(running.map((member) => blockHashes(member, top)));
  for (const chain of chains.slice(1)) expect(chain).toEqual(chains[0]);
  return top;
}

/** Reorganisations a node made, and how many of them took back one block at most (its /metrics). */
export async function reorgDepths(member: Member): Promise<{ count: number; shallow: number }> {
  const text = await (await fetch(`${member.url}/metrics`)).text();
  const count = Number(/^ibax_reorg_depth_blocks_count (\d+)$/m.exec(text)?.[1] ?? 0);
  const shallow = Number(/^ibax_reorg_depth_blocks_bucket\{le="1"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  return { count, shallow };
}

export interface HonorNetwork {
  members: Member[];
  /** The founder's private key (from the first node's data directory), logged in at every node. */
  founderKey: string;
  /** Stops every node and drops their databases; with NETWORK_TEST_LOG_LEVEL each log stays in its data dir. */
  stop(extra?: Member[]): Promise<void>;
}

/**
 * Starts `count` honor nodes with `slotMs` slots and waits until each lists the others with a position.
 * `env` is added to every node's environment.
 */
export async function startHonorNetwork(
  count: number,
  slotMs: number,
  env: Record<string, string> = {},
): Promise<HonorNetwork> {
  const members: Member[] = [];
  const ports = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  for (let i = 0; i < count; i++) {
    members.push({
      index: i,
      port: ports[i],
      url: urls[i],
      dataDir: newDataDir(),
      db: await createTestDatabase(),
      client: new IbaxClient(urls[i]),
      env: {
        API_ADDRESS: urls[i],
        TCP_ADDRESS: `127.0.0.1:${7078 + i}`,
        NETWORK_PEERS: urls.filter((_, j) => j !== i).join(','),
        GENESIS_PEER: i === 0 ? '' : urls[0],
        BLOCK_SLOT_MS: String(slotMs),
        NETWORK_TEST_SWITCHES: 'true',
        JSONRPC_NAMESPACES: 'ibax,chain,net,rpc,admin',
        BAN_BAD_TX: '0',
        LOG_LEVEL: process.env.NETWORK_TEST_LOG_LEVEL ?? 'error',
        ...env,
      },
    });
  }
  const stop = async (extra: Member[] = []) => {
    for (const member of [...members, ...extra]) {
      // NETWORK_TEST_LOG_LEVEL=info keeps each node's log in its data directory, to read what happened.
      if (process.env.NETWORK_TEST_LOG_LEVEL)
        writeFileSync(join(member.dataDir, 'node.log'), member.child?.output() ?? '');
      await killChildNode(member.child);
    }
    for (const member of [...members, ...extra]) await member.db.drop().catch(() => undefined);
  };
  try {
    await startMember(members[0]);
    await Promise.all(members.slice(1).map(startMember));
    const founderKey = readFileSync(join(members[0].dataDir, 'founder.key'), 'utf8').trim();
    // The first node lists the others in honor_nodes (a transaction each): then every node has its peers
    // with a position.
    await until(
      'every node is listed',
      async () => {
        for (const member of members) {
          const peers = await rpc<{ position: number | null }[]>(member, 'net.peers');
          if (peers.length !== count - 1 || peers.some((peer) => peer.position === null)) return false;
        }
        return true;
      },
      90_000,
    );
    for (const member of members) await member.client.login(founderKey);
    return { members, founderKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

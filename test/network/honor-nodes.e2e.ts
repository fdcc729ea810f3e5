import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHasher, keyIdFromPublicKey } from '../../src/crypto';
import { IbaxClient } from '../../src/sdk';
import { freePort, killChildNode } from '../support/child-node';
import {
  converged as convergedAmong,
  height,
  reorgDepths,
  rpc,
  startHonorNetwork,
  startMember as start,
  until,
  type HonorNetwork,
  type Member,
} from '../support/honor-network';
import { createTestDatabase, newDataDir } from '../support/node';
import { sleep } from '../support/wire';

/**
 * Three honor nodes on localhost, each a real process on its own database (PostgreSQL with
 * TEST_DATABASE_URL, the embedded one otherwise), one-second slots. The first makes the genesis and lists
 * the other two in honor_nodes; they take its genesis. Transactions may be sent to any node; blocks made
 * by one are checked and run by the others; a node that was down catches up; a split network converges
 * on one chain without losing a transaction; a node that makes a bad block is refused and banned.
 */

const SLOT_MS = 1000;
const COUNT = 3;

let network: HonorNetwork;
let members: Member[] = [];
/** Nodes not in honor_nodes, started by a test. */
const followers: Member[] = [];
let founderKey: string;

/** Waits until every running node holds the same chain; returns its height. */
const converged = (running: Member[] = members) => convergedAmong(running);

/** Sends one NewParameter call to `member`; returns its hash. */
async function send(member: Member, name: string): Promise<string> {
  const tx = await member.client.buildCall(founderKey, 'NewParameter', {
    Name: name,
    Value: name,
    Conditions: 'true',
  });
  const [hash] = await member.client.sendTransactions([tx.bytes]);
  return hash;
}

/** In how many blocks of `member`'s chain each hash is (through txinfo). */
async function blockOf(member: Member, hash: string): Promise<string> {
  const answer = await member.client.get(`/api/v2/txinfo/${hash}`);
  return String(answer.body.blockid);
}

beforeAll(async () => {
  network = await startHonorNetwork(COUNT, SLOT_MS);
  members = network.members;
  founderKey = network.founderKey;
}, 180_000);

afterAll(async () => {
  await network?.stop(followers);
});

describe('three honor nodes', () => {
  it('share one genesis and list each other in honor_nodes, each at its own position', async () => {
    const genesis = await Promise.all(members.map((member) => member.client.get('/api/v2/block/1')));
    for (const answer of genesis) expect(answer.body.hash).toBe(genesis[0].body.hash);
    const network = await members[1].client.get('/api/v2/network');
    expect(network.body.honor_nodes.map((node: { api_address: string }) => node.api_address).sort()).toEqual(
      members.map((member) => member.url).sort(),
    );
    const positions = await rpc<{ position: number; api_address: string; reachable: boolean }[]>(
      members[0],
      'net.peers',
    );
    expect(positions.every((peer) => peer.reachable)).toBe(true);
    expect(new Set(positions.map((peer) => peer.position)).size).toBe(COUNT - 1);
  });

  it('show the peers over JSON-RPC (net.peers) and in the CLI (ibax peers)', async () => {
    const answer = await fetch(members[0].url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'net.peers', params: [] }),
    });
    expect(answer.status).toBe(200);
    const { result } = (await answer.json()) as { result: Record<string, unknown>[] };
    expect(result).toHaveLength(COUNT - 1);
    for (const peer of result) {
      expect(Object.keys(peer)).toEqual([
        'position',
        'api_address',
        'public_key',
        'block_id',
        'final_block_id',
        'last_block_time',
        'reachable',
        'banned_until',
      ]);
      expect(peer).toMatchObject({ reachable: true, banned_until: '0' });
      expect(typeof peer.position).toBe('number');
      expect(peer.block_id).toMatch(/^[1-9]\d*$/);
      expect(peer.final_block_id).toMatch(/^[1-9]\d*$/);
      expect(peer.last_block_time).toMatch(/^\d{10}$/);
      expect(peer.public_key).toMatch(/^04[0-9a-f]{128}$/);
    }
    expect(result.map((peer) => peer.api_address).sort()).toEqual([members[1].url, members[2].url].sort());
    const printed = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['bin/ibax.cjs', 'peers', '--node', members[0].url],
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    const fromCli = JSON.parse(printed) as Record<string, unknown>[];
    expect(fromCli.map((peer) => peer.api_address).sort()).toEqual([members[1].url, members[2].url].sort());
    // A node-to-node route refuses a request no node signed, in the API's envelope.
    const unsigned = await fetch(`${members[0].url}/node/v1/status`);
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({
      error: 'E_SERVER',
      msg: 'the request is not signed by a node',
    });
  });

  it('register a new key that logs in at any node, wherever its block is made', async () => {
    const key = randomBytes(32).toString('hex');
    const atLast = new IbaxClient(members[2].url);
    // The login waits for the key's registration (NewUser, signed by node 2) to be in a block.
    const session = await atLast.login(key);
    for (const member of members) {
      await until(`node ${member.index} has the key`, async () => {
        const answer = await member.client.get(`/api/v2/row/keys/${session.keyId}`);
        return answer.status === 200 && String(answer.body.value?.id) === session.keyId;
      });
    }
  });

  it('take transactions sent to any node, each exactly once, and end with byte-identical chains', async () => {
    const hashes: string[] = [];
    for (let i = 0; i < 30; i++) hashes.push(await send(members[i % COUNT], `round_robin_${i}`));
    for (const [i, hash] of hashes.entries()) {
      const statuses = await members[i % COUNT].client.waitForTransactions([hash], { timeoutMs: 60_000 });
      expect(statuses[hash].errmsg, hash).toBeUndefined();
    }
    const top = await converged();
    // Every transaction is in one block, the same on every node.
    for (const hash of hashes) {
      const blocks = await Promise.all(members.map((member) => blockOf(member, hash)));
      expect(new Set(blocks).size, hash).toBe(1);
      expect(Number(blocks[0])).toBeGreaterThan(0);
      // Each node had the transaction before its block: passed on, it has a status everywhere.
      for (const member of members) {
        const status = (await member.client.txStatus([hash]))[hash];
        expect(status, `${hash} on node ${member.index}`).toMatchObject({ blockid: blocks[0] });
      }
    }
    // Blocks were made by more than one node: the slots rotate.
    const producers = new Set<number>();
    for (let id = 2; id <= top; id++) {
      producers.add(Number((await members[0].client.get(`/api/v2/block/${id}`)).body.node_position));
    }
    expect(producers.size).toBeGreaterThan(1);
    // The state the blocks made is the same everywhere.
    const parameters = await Promise.all(
      members.map((member) => member.client.get('/api/v2/ecosystemparams?ecosystem=1')),
    );
    for (const answer of parameters) expect(answer.body).toEqual(parameters[0].body);
    // txinfo counts the honor nodes' votes for a transaction's block: a majority at least (it is final;
    // a node that voted for another block at that height during a fork votes there no more).
    await until('the votes are counted', async () => {
      const info = await members[0].client.get(`/api/v2/txinfo/${hashes[hashes.length - 1]}`);
      return info.status === 200 && typeof info.body.confirm === 'number' && info.body.confirm >= 2;
    });
  }, 180_000);

  it('agree on final blocks: each node finalises the same blocks, and none is taken back without force', async () => {
    const lastTx = await send(members[0], 'finality_probe');
    const mined = await members[0].client.waitForTransactions([lastTx], { timeoutMs: 60_000 });
    const block = Number(mined[lastTx].blockid);
    for (const member of members) {
      await until(`node ${member.index} finalises block ${block}`, async () => {
        const final = await rpc<number>(member, 'ibax.finalizedBlockId');
        return typeof final === 'number' && final >= block;
      });
    }
    // The same final block on every node (the one with the lowest final height is compared).
    const finals = await Promise.all(members.map((member) => rpc<number>(member, 'chain.finalizedBlockId')));
    const common = Math.min(...finals);
    const hashesAt = await Promise.all(
      members.map(async (member) => (await member.client.get(`/api/v2/block/${common}`)).body.hash),
    );
    expect(new Set(hashesAt).size).toBe(1);
    // Each peer reports its final height (as of this node's last look at it).
    await until('the peers report their final heights', async () => {
      const peers = await rpc<{ final_block_id: string }[]>(members[0], 'net.peers');
      return peers.every((peer) => Number(peer.final_block_id) >= block);
    });
    // The metric follows.
    const metrics = await (await fetch(`${members[0].url}/metrics`)).text();
    expect(Number(/^ibax_finalized_block_id (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(block);
    expect(metrics).toMatch(/^ibax_reorgs_total \d+$/m);
  }, 120_000);

  it('hold under a burst: every accepted transaction mined once, no final block taken back, one chain', async () => {
    const depthsBefore = await Promise.all(members.map(reorgDepths));
    // Every node's final block, looked at while the burst runs: none may ever be taken back.
    const seenFinal: { id: number; hash: string }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const member of members) {
          const id = await rpc<number>(member, 'ibax.finalizedBlockId').catch(() => 0);
          const block =
            id > 1 ? await member.client.get(`/api/v2/block/${id}`).catch(() => undefined) : undefined;
          if (block?.status === 200) seenFinal.push({ id, hash: block.body.hash });
        }
        await sleep(300);
      }
    })();
    const built: { member: Member; bytes: Uint8Array }[] = [];
    for (let i = 0; i < 240; i++) {
      const member = members[i % COUNT];
      const tx = await member.client.buildCall(founderKey, 'NewParameter', {
        Name: `burst_${i}`,
        Value: String(i),
        Conditions: 'true',
      });
      built.push({ member, bytes: tx.bytes });
    }
    // All at once, in batches of 20 to the three nodes: a refusal for a full queue is allowed, a loss is not.
    const accepted: { member: Member; hash: string }[] = [];
    await Promise.all(
      Array.from({ length: built.length / 20 }, async (_, batch) => {
        const part = built.slice(batch * 20, batch * 20 + 20);
        try {
          const hashes = await part[0].member.client.sendTransactions(part.map((tx) => tx.bytes));
          for (const hash of hashes) accepted.push({ member: part[0].member, hash });
        } catch (error) {
          expect(String(error)).toMatch(/busy/i);
        }
      }),
    );
    expect(accepted.length).toBeGreaterThan(0);
    for (const { member, hash } of accepted) {
      const status = (await member.client.waitForTransactions([hash], { timeoutMs: 120_000 }))[hash];
      expect(status.errmsg, hash).toBeUndefined();
    }
    await converged();
    sampling = false;
    await sampler;
    // Mined exactly once: one block, the same on every node.
    for (const { hash } of accepted) {
      const blocks = await Promise.all(members.map((member) => blockOf(member, hash)));
      expect(new Set(blocks).size, hash).toBe(1);
      expect(Number(blocks[0]), hash).toBeGreaterThan(0);
    }
    // What any node once held final is still there, on every node.
    expect(seenFinal.length).toBeGreaterThan(0);
    for (const { id, hash } of seenFinal) {
      for (const member of members) {
        expect((await member.client.get(`/api/v2/block/${id}`)).body.hash, `block ${id}`).toBe(hash);
      }
    }
    // No node took back more than one block at a time.
    const depthsAfter = await Promise.all(members.map(reorgDepths));
    depthsAfter.forEach((after, i) => {
      expect(after.count - depthsBefore[i].count, `node ${i}: reorgs deeper than a block`).toBe(
        after.shallow - depthsBefore[i].shallow,
      );
    });
  }, 240_000);

  it('go on without a node that was killed, and the node catches up when it is back', async () => {
    const [first, second, third] = members;
    third.child!.process.kill('SIGKILL');
    await third.child!.exited;
    const hashes: string[] = [];
    for (let i = 0; i < 6; i++) hashes.push(await send(members[i % 2], `while_down_${i}`));
    for (const [i, hash] of hashes.entries()) {
      const statuses = await members[i % 2].client.waitForTransactions([hash], { timeoutMs: 60_000 });
      expect(statuses[hash].errmsg, hash).toBeUndefined();
    }
    await sleep(10 * SLOT_MS);
    const heightWithout = await converged([first, second]);
    await start(third);
    await until('the restarted node catches up', async () => (await height(third)) >= heightWithout);
    await converged();
    for (const hash of hashes) expect(Number(await blockOf(third, hash))).toBeGreaterThan(0);
  }, 180_000);

  it('split into 2 + 1 and healed, converge on one chain with every accepted transaction in it', async () => {
    const [first, second, third] = members;
    await rpc(third, 'admin.isolatePeers', [[first.url, second.url]]);
    await rpc(first, 'admin.isolatePeers', [[third.url]]);
    await rpc(second, 'admin.isolatePeers', [[third.url]]);
    const majority: string[] = [];
    const minority: string[] = [];
    for (let i = 0; i < 4; i++) {
      majority.push(await send(first, `split_majority_${i}`));
      minority.push(await send(third, `split_minority_${i}`));
    }
    // The alone node makes blocks in its own slots: a fork.
    await first.client.waitForTransactions(majority, { timeoutMs: 60_000 });
    await third.client.waitForTransactions(minority, { timeoutMs: 60_000 });
    const minorityFinal = await rpc<number>(third, 'ibax.finalizedBlockId');
    // The two together are a majority: their blocks become final; the one alone finalises nothing.
    const majorityBlock = Number((await first.client.txStatus([majority[3]]))[majority[3]].blockid);
    await until('the majority finalises its blocks', async () => {
      return (await rpc<number>(first, 'ibax.finalizedBlockId')) >= majorityBlock;
    });
    const majorityFinal = await rpc<number>(first, 'ibax.finalizedBlockId');
    const majorityFinalHash = (await first.client.get(`/api/v2/block/${majorityFinal}`)).body.hash;
    await sleep(6 * SLOT_MS);
    expect(await rpc<number>(third, 'ibax.finalizedBlockId')).toBe(minorityFinal);
    for (const member of [first, second, third]) await rpc(member, 'admin.isolatePeers', [[]]);
    await converged();
    // Healed: the majority's final blocks stayed, on every node, and the minority's branch gave way.
    for (const member of members) {
      expect((await member.client.get(`/api/v2/block/${majorityFinal}`)).body.hash).toBe(majorityFinalHash);
    }
    const reorgs = await (await fetch(`${third.url}/metrics`)).text();
    expect(Number(/^ibax_reorgs_total (\d+)$/m.exec(reorgs)?.[1])).toBeGreaterThanOrEqual(1);
    // The alone node's transactions were queued again when it left its fork, and reached the chain.
    await until('every transaction of the split is in the chain', async () => {
      for (const hash of [...majority, ...minority]) {
        const blocks = await Promise.all(members.map((member) => blockOf(member, hash)));
        if (blocks.some((block) => block === '0' || block !== blocks[0])) return false;
      }
      return true;
    });
    await converged();
  }, 180_000);

  it('have a follower (not in honor_nodes) catch up from zero, serve the same reads and pass sendTx on', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const follower: Member = {
      index: COUNT,
      port,
      url,
      dataDir: newDataDir(),
      db: await createTestDatabase(),
      client: new IbaxClient(url),
      env: {
        ...members[1].env,
        API_ADDRESS: url,
        TCP_ADDRESS: `127.0.0.1:${7078 + COUNT}`,
        NETWORK_PEERS: members.map((member) => member.url).join(','),
        GENESIS_PEER: members[0].url,
      },
    };
    followers.push(follower);
    const top = await height(members[0]);
    await start(follower);
    await until('the follower catches up', async () => (await height(follower)) >= top);
    // Not an honor node: not listed, no founder key of its own, no block of its making.
    expect(existsSync(join(follower.dataDir, 'founder.key'))).toBe(false);
    const listed = (await members[0].client.get('/api/v2/network')).body.honor_nodes as {
      api_address: string;
    }[];
    expect(listed.map((node) => node.api_address).sort()).toEqual(members.map((member) => member.url).sort());

    // A transaction sent to the follower reaches the honor nodes, lands once, and the follower shows it.
    await follower.client.login(founderKey);
    const hash = await send(follower, 'via_follower');
    const statuses = await follower.client.waitForTransactions([hash], { timeoutMs: 60_000 });
    expect(statuses[hash].errmsg).toBeUndefined();
    const everyone = [...members, follower];
    await converged(everyone);
    const blocks = await Promise.all(everyone.map((member) => blockOf(member, hash)));
    expect(new Set(blocks).size).toBe(1);
    const parameters = await Promise.all(
      everyone.map((member) => member.client.get('/api/v2/ecosystemparams?ecosystem=1')),
    );
    for (const answer of parameters) expect(answer.body).toEqual(parameters[0].body);
    await killChildNode(follower.child);
  }, 180_000);

  it('refuse a bad block and ban the node that made it', async () => {
    const [first, second, third] = members;
    await rpc(second, 'admin.produceBadBlock');
    // Sent to the faulty node: it makes a block with them in its own slot (or another node does first).
    // A node judges the blocks it takes: the one (or both) of the others that tried the bad block bans it.
    const banned = async (judge: Member) =>
      (await rpc<{ api_address: string; banned_until: string }[]>(judge, 'net.peers')).some(
        (peer) => peer.api_address === second.url && peer.banned_until !== '0',
      );
    let judge: Member | undefined;
    await until('the faulty node is banned by another', async () => {
      await send(second, `bad_block_${Date.now()}`);
      await sleep(SLOT_MS);
      for (const candidate of [first, third]) if (await banned(candidate)) judge = candidate;
      return judge !== undefined;
    });
    // The others go on with one chain of their own.
    await send(first, 'after_the_bad_block');
    await converged([first, third]);
    // The others reported the block on chain (NewBadBlock): rows of 1_bad_blocks naming its producer.
    const faultyKey = (await first.client.get('/api/v2/network')).body.honor_nodes.find(
      (node: { api_address: string }) => node.api_address === second.url,
    ).public_key as string;
    const faultyKeyId = keyIdFromPublicKey(Buffer.from(faultyKey.slice(2), 'hex'), createHasher('KECCAK256'));
    await until('the bad block is reported on chain', async () => {
      const list = await first.client.get('/api/v2/list/bad_blocks');
      return list.status === 200 && Number(list.body.count) >= 1;
    });
    const reports = (await first.client.get('/api/v2/list/bad_blocks')).body.list as Record<string, string>[];
    const reporters = new Set(reports.map((row) => row.consumer_node_id));
    expect(reports.every((row) => row.producer_node_id === faultyKeyId.toString())).toBe(true);
    expect(reporters.size).toBeGreaterThanOrEqual(1);
    expect(reports[0].reason).toMatch(/rollbacks hash/);
    let metrics = '';
    await until('the peer series show the ban', async () => {
      metrics = await fetch(`${judge!.url}/metrics`).then((answer) => answer.text());
      return /^ibax_peers\{state="banned"\} 1$/m.test(metrics);
    });
    expect(metrics).toMatch(/^ibax_bad_blocks_total [1-9]/m);
    expect(metrics).toMatch(/^ibax_blocks_received_total [1-9]/m);
    expect(metrics).toMatch(/^ibax_block_propagation_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^ibax_peers\{state="reachable"\} 1$/m);
    expect(metrics).toMatch(/^ibax_peer_block_height\{position="\d"\} [1-9]\d*$/m);
  }, 180_000);
});

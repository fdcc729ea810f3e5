import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ChainEvents, type ChainChange } from '../chain/chain-events';
import { ChainLock } from '../chain/chain-lock';
import { mp } from '../chain/codec';
import {
  activeHonorNodes,
  bareKey,
  honorNodeProblems,
  positionOf,
  SLOT_PARAMETERS,
  slotLengthMs,
} from '../chain/honor-nodes';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { PlatformParametersService, type HonorNode } from '../chain/platform-parameters.service';
import { BlockProducer, type Tip } from '../chain/producer/block-producer.service';
import { BlockReceiver, RefusedBlock, type AppliedBlock } from '../chain/producer/block-receiver';
import { ChainRollback } from '../chain/producer/rollback.service';
import { ownContractCall } from '../chain/tx-builder';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { publicKeyHex04 } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { TxService } from '../tx/tx.service';
import { CONTRACT_ID_OFFSET } from '../vm';
import { MAX_TXS_PER_REQUEST } from './network.dto';
import { signRequest } from './node-auth';
import { PeerClient, type BlockAnnouncement, type PeerStatus } from './peer-client';

/** Blocks asked for in one request while catching up. */
const BLOCKS_PER_REQUEST = 10;
/** Bytes of transactions in one request to a peer (base64 makes them a third larger). */
const PASS_ON_BYTES = 2 * 1024 * 1024;
/** Announcements remembered for measuring propagation. */
const ANNOUNCEMENTS_KEPT = 256;
/** Blocks back from the tip whose confirmations are counted. */
const CONFIRMATION_DEPTH = 10;

/** What this node knows of another honor node. */
export interface Peer {
  url: string;
  client: PeerClient;
  /** Bare hex (no 04), once it answered. */
  key?: string;
  status?: PeerStatus;
  reachable: boolean;
  /** Its last answer, ms. */
  seenAtMs?: number;
  /** Banned here (a bad block) until then, ms. */
  bannedUntilMs: number;
  /** Tests only: no request goes to it and none from it is taken. */
  isolated: boolean;
}

/** A peer as `net.peers` and the CLI show it. */
export interface PeerView {
  position: number | null;
  api_address: string;
  public_key: string;
  block_id: string;
  last_block_time: string;
  reachable: boolean;
  banned_until: string;
}

/**
 * The honor-node network (formats.md §5, our own protocol over HTTP): this node tells its peers of each
 * block it makes and passes on the transactions its clients send; it looks at its peers every slot and
 * takes the blocks of a longer chain (a node that was down catches up; a node on a shorter fork rolls back
 * at most `rollback_blocks` and takes the longer chain, its own transactions going back to the queue);
 * it counts how many peers hold each of its last blocks (confirmations) and bans a peer that sent a bad
 * block for `local_node_ban_time`. The node that made the genesis lists the peers it is configured with
 * in `honor_nodes` by a transaction, once they answer.
 */
@Injectable()
export class NetworkService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Network');
  private readonly peers = new Map<string, Peer>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private syncing?: Promise<void>;
  private membershipTx?: string;
  private membershipRetryAtMs = 0;
  /** Peer keys banned here until then (ms), by bare hex key. */
  private readonly bans = new Map<string, number>();
  private readonly isolatedKeys = new Set<string>();
  /** Announced blocks not yet taken here: hash (hex) → commit time on their producer, ms. */
  private readonly committedAt = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
    private readonly parameters: PlatformParametersService,
    private readonly producer: BlockProducer,
    private readonly receiver: BlockReceiver,
    private readonly rollback: ChainRollback,
    private readonly events: ChainEvents,
    private readonly lock: ChainLock,
    private readonly txs: TxService,
    private readonly contracts: ContractsService,
    private readonly metrics: PrometheusMetrics,
  ) {
    for (const url of config.network.peers) this.addPeer(url);
  }

  /** Whether this node takes part in a network (it has or may get peers). */
  get enabled(): boolean {
    return this.config.blockProducer && this.config.nodeMode !== 'clb';
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.events.subscribe((change) => this.onChainChange(change));
    this.txs.onAccepted((stored) => this.passOn(stored));
    this.schedule(0);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** This node's own key, bare hex. */
  get ownKey(): string {
    return bareKey(publicKeyHex04(this.identity.keys.node.publicKey));
  }

  signer = (method: string, pathAndQuery: string, body: Uint8Array) =>
    signRequest(this.crypto.signer, this.crypto.hasher, this.identity.keys.node, method, pathAndQuery, body);

  private addPeer(url: string): Peer {
    const normalized = url.replace(/\/+$/, '');
    let peer = this.peers.get(normalized);
    if (!peer) {
      peer = {
        url: normalized,
        client: new PeerClient(normalized, this.signer),
        reachable: false,
        bannedUntilMs: 0,
        isolated: false,
      };
      this.peers.set(normalized, peer);
    }
    return peer;
  }

  /**
   * Whether a signed request from `key` is taken. Reads of the chain and passed-on transactions are taken
   * from any node (a follower's too): the blocks are public through the API anyway, and a transaction is
   * admitted as a client's would be. News of a block only from an honor node or a configured peer (a node
   * is a peer before the network lists it). Never from a node banned here or cut off by a test.
   */
  async accepts(key: string, from: 'any node' | 'honor node'): Promise<boolean> {
    if (this.isolatedKeys.has(key) || this.bannedUntil(key) > Date.now()) return false;
    if (from === 'any node') return true;
    if ([...this.peers.values()].some((peer) => peer.key === key)) return true;
    return positionOf(await this.parameters.honorNodes(), key) >= 0;
  }

  private bannedUntil(key: string): number {
    return this.bans.get(key) ?? 0;
  }

  // ---------------------------------------------------------------- the look at the peers, every slot

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.round(), delayMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      await this.refreshPeers();
      // Processes sharing one database: only the one that makes blocks writes received ones.
      if (this.producer.isProducer) {
        await this.syncWithBest();
        await this.countConfirmations();
        await this.listPeersOnChain();
      }
    } catch (error) {
      this.logger.warn(`network round failed: ${(error as Error).message}`);
    }
    this.schedule(await this.roundDelay());
  }

  /** Half a slot, between a quarter of a second and two seconds. */
  private async roundDelay(): Promise<number> {
    const values = await this.parameters.values(SLOT_PARAMETERS).catch(() => new Map<string, string>());
    return Math.min(2_000, Math.max(250, slotLengthMs(values, this.config.blockSlotMs) / 2));
  }

  /** Asks every peer (configured, or listed in honor_nodes) for its status. */
  private async refreshPeers(): Promise<void> {
    const listed = await this.parameters.honorNodes();
    for (const node of listed) {
      if (bareKey(node.public_key) !== this.ownKey && node.api_address) this.addPeer(node.api_address);
    }
    await Promise.all(
      [...this.peers.values()].map(async (peer) => {
        if (peer.isolated) {
          peer.reachable = false;
          return;
        }
        try {
          peer.status = await peer.client.status();
          peer.key = bareKey(peer.status.public_key);
          peer.reachable = true;
          peer.seenAtMs = Date.now();
        } catch {
          peer.reachable = false;
        }
      }),
    );
    // A peer whose address turned out to be this node's own (a shared list) is no peer.
    for (const [url, peer] of this.peers) if (peer.key === this.ownKey) this.peers.delete(url);
    this.metrics.peersSeen(
      (await this.views()).map((view) => ({
        position: view.position,
        height: BigInt(view.block_id),
        reachable: view.reachable,
        banned: view.banned_until !== '0',
      })),
    );
  }

  /** The peers that may be trusted with a sync now: reachable, not banned, not cut off. */
  private usablePeers(): Peer[] {
    return [...this.peers.values()].filter(
      (peer) =>
        peer.reachable &&
        !peer.isolated &&
        peer.key !== undefined &&
        this.bannedUntil(peer.key) <= Date.now(),
    );
  }

  private async syncWithBest(): Promise<void> {
    const tip = await this.producer.tip(this.db, false);
    const better = this.usablePeers()
      .filter((peer) => isBetterChain(peer.status!, tip))
      .sort((a, b) =>
        isBetterChain(a.status!, { id: BigInt(b.status!.block_id), hash: b.status!.hash }) ? -1 : 1,
      );
    if (better.length === 0) return;
    // Making a block on a tip a peer has already passed would only make a fork.
    await this.lock.whileBehind(async () => {
      for (const peer of better) {
        await this.syncWith(peer);
        if (!isBetterChain(peer.status!, await this.producer.tip(this.db, false))) break;
      }
    });
  }

  /** One sync at a time: a second caller waits for the one under way and then looks again. */
  private syncWith(peer: Peer): Promise<void> {
    const run = async () => {
      try {
        await this.takeChainOf(peer);
      } catch (error) {
        if (error instanceof RefusedBlock && error.bad) await this.banLocally(peer, error);
        else this.logger.debug(`sync with ${peer.url}: ${(error as Error).message}`);
      }
    };
    const next = (this.syncing ?? Promise.resolve()).then(run);
    this.syncing = next.finally(() => {
      if (this.syncing === next) this.syncing = undefined;
    });
    return next;
  }

  /**
   * Takes the peer's chain when it is longer: from the last block both hold (walking back at most
   * `rollback_blocks`), its blocks checked and run one by one. Leaving blocks of ours (a fork) and taking
   * the peer's happen under one hold of the chain lock, so no block of ours is made in between.
   */
  private async takeChainOf(peer: Peer): Promise<void> {
    const status = await peer.client.status();
    peer.status = status;
    const peerHeight = BigInt(status.block_id);
    const tip = await this.producer.tip(this.db, false);
    if (!isBetterChain(status, tip)) return;
    const common = await this.lastCommonBlock(peer, tip);
    if (common === undefined) return;
    if (common < tip.id) {
      const depth = Number(tip.id - common);
      // Enough of the peer's blocks to be as long as ours (and better) before ours are taken back.
      const last = peerHeight < tip.id + 1n ? peerHeight : tip.id + 1n;
      const blocks = await this.fetchBlocks(peer, common + 1n, last);
      if (!blocks) return;
      let requeued: Buffer[] = [];
      try {
        await this.lock.run(async () => {
          requeued = (await this.rollback.rollbackHeld(depth, { requeue: true })).requeued;
          for (const block of blocks) this.measure(await this.receiver.applyHeld(block, this.checkTx));
        });
        this.logger.log(
          `left ${depth} blocks of a shorter fork for the chain of ${peer.url}; ${requeued.length} transactions queued again`,
        );
      } finally {
        // Also when a block of the peer's turned out bad: what was queued again must reach a producer.
        if (requeued.length > 0) this.passOn(requeued);
      }
    }
    for (let from = (await this.producer.tip(this.db, false)).id + 1n; from <= peerHeight;) {
      const to =
        from + BigInt(BLOCKS_PER_REQUEST) - 1n < peerHeight
          ? from + BigInt(BLOCKS_PER_REQUEST) - 1n
          : peerHeight;
      const blocks = await this.fetchBlocks(peer, from, to);
      if (!blocks || blocks.length === 0) return;
      for (const block of blocks) this.measure(await this.receiver.apply(block, this.checkTx));
      from += BigInt(blocks.length);
    }
  }

  private checkTx = (txs: readonly Uint8Array[], blockTimeMs: number) =>
    this.txs.checkInBlock(txs, blockTimeMs);

  /** The highest block id whose hash the peer and this node share, looked for back to `rollback_blocks`. */
  private async lastCommonBlock(peer: Peer, tip: Tip): Promise<bigint | undefined> {
    const limit = BigInt(Number((await this.parameters.get('rollback_blocks')) ?? 60) || 60);
    const from = tip.id - limit > 1n ? tip.id - limit : 1n;
    const theirs = new Map(
      (await peer.client.hashes(from, Number(tip.id - from + 1n))).map((entry) => [entry.id, entry.hash]),
    );
    const ours = await this.db.query<{ id: string; hash: unknown }>(
      `SELECT "b"."id"::text AS "id", "b"."hash" FROM "block_chain" AS "b"
        WHERE "b"."id" BETWEEN $1 AND $2 ORDER BY "b"."id" DESC`,
      [from.toString(), tip.id.toString()],
    );
    for (const row of ours) {
      if (theirs.get(row.id) === asBuffer(row.hash).toString('hex')) return BigInt(row.id);
    }
    this.logger.warn(`${peer.url} shares none of the last ${limit} blocks: its chain is not taken`);
    return undefined;
  }

  private async fetchBlocks(peer: Peer, from: bigint, to: bigint): Promise<Buffer[] | undefined> {
    const blocks: Buffer[] = [];
    while (from + BigInt(blocks.length) <= to) {
      const next = from + BigInt(blocks.length);
      const count = Math.min(BLOCKS_PER_REQUEST, Number(to - next + 1n));
      const batch = await peer.client.blocks(next, count);
      if (batch.length === 0) return undefined;
      blocks.push(...batch.slice(0, count));
    }
    return blocks;
  }

  /**
   * A peer that sent a bad block is not listened to for `local_node_ban_time` seconds, and the block is
   * reported on chain (NewBadBlock, in this node's name): CheckNodesBan bans a node for everyone once a
   * majority of the nodes reported it often enough (formats.md §5.5).
   */
  private async banLocally(peer: Peer, refused: RefusedBlock): Promise<void> {
    if (!peer.key) return;
    const value = Number((await this.parameters.get('local_node_ban_time')) ?? 60);
    const seconds = value > 0 ? value : 60;
    this.bans.set(peer.key, Date.now() + seconds * 1000);
    this.metrics.badBlockRefused();
    this.logger.warn(`banned ${peer.url} for ${seconds} s: ${refused.message}`);
    // Reports count only from honor nodes (CheckNodesBan); a follower keeps its ban to itself.
    if (refused.block && this.producer.isHonorNode) {
      await this.reportBadBlock(peer.key, refused.block, refused.message);
    }
  }

  private async reportBadBlock(producerKey: string, block: { id: bigint; time: bigint }, reason: string) {
    const tableId = this.contracts.vm.getContract('@1NewBadBlock', 1)?.meta.tableId;
    if (!tableId) return;
    const node = this.identity.keys.node;
    const signed = ownContractCall(this.crypto.signer, node, {
      contractId: tableId + CONTRACT_ID_OFFSET,
      networkId: this.config.networkId,
      params: mp.map([
        ['ProducerNodeID', mp.int64(this.crypto.keyId(Buffer.from(producerKey, 'hex')))],
        ['ConsumerNodeID', mp.int64(node.keyId)],
        ['BlockID', mp.int64(block.id)],
        ['Timestamp', mp.int64(block.time)],
        ['Reason', mp.str(reason.slice(0, 255))],
      ]),
    });
    try {
      this.passOn(await this.txs.receive([signed.bytes], 'self'));
    } catch (error) {
      this.logger.warn(`cannot report bad block ${block.id}: ${(error as Error).message}`);
    }
  }

  // ---------------------------------------------------------------- news: blocks made here, transactions

  private onChainChange(change: ChainChange): void {
    if (change.kind !== 'block' || !change.produced) return;
    const announcement: BlockAnnouncement = {
      block_id: change.height.toString(),
      hash: change.produced.hash.toString('hex'),
      txs: change.produced.txHashes.map((hash) => hash.toString('hex')),
      committed_at_ms: change.produced.committedAtMs,
    };
    for (const peer of this.peers.values()) {
      if (peer.isolated) continue;
      peer.client.announce(announcement).catch((error: Error) => {
        peer.reachable = false;
        this.logger.debug(`announce to ${peer.url}: ${error.message}`);
      });
    }
  }

  /** Transactions this node queued for its clients go to every peer: a client may send to any node. */
  private passOn(stored: Buffer[]): void {
    // In requests a peer takes: at most its count per request, and well under its body limit.
    const batches: Buffer[][] = [];
    let batch: Buffer[] = [];
    let bytes = 0;
    for (const tx of stored) {
      if (batch.length === MAX_TXS_PER_REQUEST || (batch.length > 0 && bytes + tx.length > PASS_ON_BYTES)) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(tx);
      bytes += tx.length;
    }
    if (batch.length > 0) batches.push(batch);
    for (const peer of this.peers.values()) {
      if (peer.isolated) continue;
      void (async () => {
        for (const part of batches) await peer.client.sendTxs(part);
      })().catch((error: Error) => this.logger.debug(`transactions to ${peer.url}: ${error.message}`));
    }
  }

  /** A peer made a block: take it (and any missing before it) at once rather than at the next look. */
  async announced(key: string, announcement: BlockAnnouncement): Promise<void> {
    const peer = [...this.peers.values()].find((candidate) => candidate.key === key);
    if (!peer || peer.isolated || !this.enabled || !this.producer.isProducer) return;
    this.committedAt.set(announcement.hash, announcement.committed_at_ms);
    // Only the last few are kept: a block is taken within seconds of its announcement, or not at all.
    for (const hash of this.committedAt.keys()) {
      if (this.committedAt.size <= ANNOUNCEMENTS_KEPT) break;
      this.committedAt.delete(hash);
    }
    const before = await this.producer.tip(this.db, false);
    if (!isBetterChain({ block_id: announcement.block_id, hash: announcement.hash }, before)) return;
    await this.lock.whileBehind(() => this.syncWith(peer));
  }

  /** A block taken here that its producer announced: the time from its commit there to its commit here. */
  private measure(applied: AppliedBlock): void {
    const hash = applied.hash.toString('hex');
    const committedAtMs = this.committedAt.get(hash);
    if (committedAtMs === undefined) return;
    this.committedAt.delete(hash);
    this.metrics.blockPropagated(Math.max(0, Date.now() - committedAtMs) / 1000);
  }

  /** Transactions a peer passed on: admitted and queued here like a client's, not passed on again. */
  async received(txs: readonly Buffer[]): Promise<number> {
    return (await this.txs.receive(txs)).length;
  }

  // ---------------------------------------------------------------- confirmations

  /** How many peers hold each of the last blocks, as `confirmations` rows (shown as `confirm` by txinfo). */
  private async countConfirmations(): Promise<void> {
    const peers = this.usablePeers();
    if (peers.length === 0) return;
    const tip = await this.producer.tip(this.db, false);
    const from =
      tip.id - BigInt(CONFIRMATION_DEPTH) + 1n > 1n ? tip.id - BigInt(CONFIRMATION_DEPTH) + 1n : 1n;
    const answers = await Promise.all(
      peers.map((peer) =>
        peer.client
          .hashes(from, Number(tip.id - from + 1n))
          .then((hashes) => new Map(hashes.map((entry) => [entry.id, entry.hash])))
          .catch(() => undefined),
      ),
    );
    const ours = await this.db.query<{ id: string; hash: unknown }>(
      `SELECT "id"::text AS "id", "hash" FROM "block_chain" WHERE "id" BETWEEN $1 AND $2`,
      [from.toString(), tip.id.toString()],
    );
    const ids: string[] = [];
    const good: number[] = [];
    const bad: number[] = [];
    for (const row of ours) {
      const hash = asBuffer(row.hash).toString('hex');
      ids.push(row.id);
      good.push(answers.filter((answer) => answer?.get(row.id) === hash).length);
      // An unanswered peer counts as a mismatch, as in the reference.
      bad.push(answers.filter((answer) => answer?.get(row.id) !== hash).length);
    }
    if (ids.length === 0) return;
    await this.db.query(
      `INSERT INTO "confirmations" ("block_id", "good", "bad", "time")
       SELECT "v"."id", "v"."good", "v"."bad", $4 FROM unnest($1::bigint[], $2::int[], $3::int[]) AS "v"("id", "good", "bad")
       ON CONFLICT ("block_id") DO UPDATE SET "good" = EXCLUDED."good", "bad" = EXCLUDED."bad", "time" = EXCLUDED."time"`,
      [ids, good, bad, Math.floor(Date.now() / 1000)],
    );
  }

  // ---------------------------------------------------------------- membership

  /**
   * The node that made the genesis (no GENESIS_PEER) lists its configured peers in `honor_nodes` once
   * they answer, by an UpdatePlatformParam transaction in the founder's name: one at a time, appended,
   * never removed (taking a node out is an operator's decision).
   */
  private async listPeersOnChain(): Promise<void> {
    if (this.config.network.genesisPeer || this.config.network.peers.length === 0) return;
    if (this.membershipTx) {
      const status = (await this.txs.status([this.membershipTx]))[this.membershipTx];
      if (status && !status.blockid && !status.errmsg) return;
      // A listing that failed is not sent again at once: a failing key gets banned.
      if (status?.errmsg) this.membershipRetryAtMs = Date.now() + 30_000;
      this.membershipTx = undefined;
    }
    if (Date.now() < this.membershipRetryAtMs) return;
    const listed = await this.parameters.honorNodes();
    const keys = new Set(listed.map((node) => bareKey(node.public_key)));
    const joining = [...this.peers.values()].filter(
      (peer) =>
        peer.status && peer.key && !keys.has(peer.key) && this.config.network.peers.includes(peer.url),
    );
    if (joining.length === 0) return;
    const nodes: HonorNode[] = [
      ...listed,
      ...joining.map((peer) => ({
        tcp_address: peer.status!.tcp_address,
        api_address: peer.status!.api_address,
        public_key: peer.status!.public_key,
        unban_time: '0',
        stopped: false,
      })),
    ];
    const problems = honorNodeProblems(nodes);
    if (problems.length > 0) {
      this.logger.warn(`cannot list the peers in honor_nodes: ${problems.join('; ')}`);
      return;
    }
    const tableId = this.contracts.vm.getContract('@1UpdatePlatformParam', 1)?.meta.tableId;
    if (!tableId) return;
    const signed = ownContractCall(this.crypto.signer, this.identity.founder, {
      contractId: tableId + CONTRACT_ID_OFFSET,
      networkId: this.config.networkId,
      params: mp.map([
        ['Name', mp.str('honor_nodes')],
        ['Value', mp.str(JSON.stringify(nodes))],
      ]),
    });
    const queued = await this.txs.receive([signed.bytes], 'self');
    this.membershipTx = Buffer.from(signed.hash).toString('hex');
    this.passOn(queued);
    this.logger.log(`listing ${joining.map((peer) => peer.url).join(', ')} in honor_nodes`);
  }

  // ---------------------------------------------------------------- what operators and tests see

  async views(): Promise<PeerView[]> {
    const listed = await this.parameters.honorNodes();
    const active = activeHonorNodes(listed, BigInt(Math.floor(Date.now() / 1000)));
    return [...this.peers.values()].map((peer) => {
      const position = peer.key ? positionOf(active, peer.key) : -1;
      const banned = peer.key ? this.bannedUntil(peer.key) : 0;
      return {
        position: position >= 0 ? position : null,
        api_address: peer.url,
        public_key: peer.status?.public_key ?? '',
        block_id: peer.status?.block_id ?? '0',
        last_block_time: peer.status?.time ?? '0',
        reachable: peer.reachable,
        banned_until: banned > Date.now() ? String(Math.floor(banned / 1000)) : '0',
      };
    });
  }

  /** Tests only: cut this node off from the peers at `urls` (both ways); an empty list heals. */
  isolate(urls: readonly string[]): string[] {
    const cut = new Set(urls.map((url) => url.replace(/\/+$/, '')));
    this.isolatedKeys.clear();
    for (const peer of this.peers.values()) {
      peer.isolated = cut.has(peer.url);
      if (peer.isolated && peer.key) this.isolatedKeys.add(peer.key);
    }
    return [...this.peers.values()].filter((peer) => peer.isolated).map((peer) => peer.url);
  }
}

/**
 * The fork choice every node makes the same way: the longer chain, and of two as long, the one whose last
 * block has the lower hash. Two nodes that made a block each at one height thus both keep the same one.
 */
export function isBetterChain(
  theirs: { block_id: string; hash: string },
  ours: { id: bigint; hash: Buffer | string },
): boolean {
  const height = BigInt(theirs.block_id);
  if (height !== ours.id) return height > ours.id;
  const ourHash = typeof ours.hash === 'string' ? ours.hash : ours.hash.toString('hex');
  return theirs.hash.toLowerCase() < ourHash.toLowerCase();
}

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ChainEvents, type ChainChange } from '../chain/chain-events';
import { ChainLock } from '../chain/chain-lock';
import { Finality, type NetworkAction, type SignedVote } from '../chain/finality.service';
import { hexOf, mp, parseBlock } from '../chain/codec';
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
import { BlockProducer } from '../producer/block-producer.service';
import { BlockReceiver, RefusedBlock, type AppliedBlock } from '../producer/block-receiver';
import { ChainRollback } from '../producer/rollback.service';
import { ownContractCall } from '../chain/tx-builder';
import { APP_CONFIG, type AppConfig } from '../config';
import { ContractsService } from '../contracts/contracts.service';
import { publicKeyHex04 } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { TxService } from '../tx/tx.service';
import { CONTRACT_ID_OFFSET } from '../vm';
import type { PeerView } from './network.answers';
import { MAX_HASHES_PER_REQUEST, MAX_TXS_PER_REQUEST } from './network.dto';
import { signRequest } from './node-auth';
import { PeerClient, type BlockAnnouncement, type PeerStatus } from './peer-client';

/** Blocks asked for in one request while catching up. */
const BLOCKS_PER_REQUEST = 10;
/** Bytes of transactions in one request to a peer (base64 makes them a third larger). */
const PASS_ON_BYTES = 2 * 1024 * 1024;
/** Announcements remembered for measuring propagation. */
const ANNOUNCEMENTS_KEPT = 256;

const BLOCKS = new EntityTable(BlockEntity);
/** The hashes of the blocks held above $1 up to $2. */
const HELD_HASHES = `SELECT ${BLOCKS.select('id', 'hash')} FROM ${BLOCKS.name}
  WHERE ${BLOCKS.column('id')} > $1 AND ${BLOCKS.column('id')} <= $2 ORDER BY ${BLOCKS.column('id')}`;

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

/**
 * The honor-node network (formats.md §5, our own protocol over HTTP): this node tells its peers of each
 * block it makes and passes on the transactions its clients send and the votes it casts; every half slot
 * it asks its peers for their status, the votes it lacks and the chains it does not know, and hands them to
 * the consensus core (through Finality). It carries out what the core decides and needs peers for: looking
 * at once for a block the core heard of and lacks, taking the chain the fork choice picks (its own blocks
 * above the last common one taken back, never below the final block, their transactions queued again),
 * and banning. A peer that sent a bad block is banned for `local_node_ban_time`. The node that made the
 * genesis lists the peers it is configured with in `honor_nodes` by a transaction, one at a time, once
 * they answer.
 */
@Injectable()
export class NetworkService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Network');
  private readonly peers = new Map<string, Peer>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private syncing?: Promise<void>;
  /** The chains (by their last block) a switch is asked or under way for. */
  private readonly following = new Set<string>();
  private membershipTx?: string;
  private membershipRetryAtMs = 0;
  /** Peer keys banned here until then (ms), by bare hex key. */
  private readonly bans = new Map<string, number>();
  private readonly isolatedKeys = new Set<string>();
  /** Announced blocks not yet taken here: hash (hex) → commit time on their producer, ms. */
  private readonly committedAt = new Map<string, number>();
  /** The chain requests under way, by peer. */
  private readonly learning = new Map<Peer, Promise<void>>();

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
    private readonly finality: Finality,
  ) {
    for (const url of config.network.peers) this.addPeer(url);
  }

  /** Whether this node takes part in a network (it has or may get peers). */
  get enabled(): boolean {
    return this.finality.enabled;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.finality.onActions((votes, actions) => this.carryOut(votes, actions));
    this.events.subscribe((change) => this.onChainChange(change));
    this.events.onTransactionsAccepted((stored) => this.passOn(stored));
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
        await this.pullVotes();
        await this.learnPeersChains();
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

  /**
   * Tells the core of every chain a peer holds that it does not know yet (the peer's blocks above this
   * node's highest final block), so that its fork choice sees them; then follows the core's pick.
   */
  private async learnPeersChains(): Promise<void> {
    const floor = BigInt(this.finality.rollbackFloor);
    await Promise.all(
      this.usablePeers().map((peer) => {
        const status = peer.status!;
        if (BigInt(status.block_id) <= floor || this.finality.knows(status.hash)) return;
        return this.learnChainOf(
          peer,
          Math.min(MAX_HASHES_PER_REQUEST, Number(BigInt(status.block_id) - floor + 1n)),
        );
      }),
    );
    this.carryOut([], this.finality.pendingSwitch());
  }

  /**
   * The peer's chain above this node's highest final block, handed to the core. One request per peer at a
   * time: the votes of one round can name several blocks this node lacks, all on the same chain.
   */
  private learnChainOf(peer: Peer, count: number): Promise<void> {
    const under = this.learning.get(peer);
    if (under) return under;
    const run = (async () => {
      try {
        const entries = await peer.client.hashes(BigInt(this.finality.rollbackFloor), count);
        await this.finality.learnChain(entries, peer.key!);
      } catch (error) {
        this.logger.debug(`chain of ${peer.url}: ${(error as Error).message}`);
      } finally {
        this.learning.delete(peer);
      }
    })();
    this.learning.set(peer, run);
    return run;
  }

  /**
   * The core lacks a block it heard of (a vote names it, or a chain rests on it): the chains of the peers
   * are asked for it now rather than at the next round, the peer the core heard it from first. If none
   * holds it, the core is told, so that it asks again when the block is named again. Processes sharing
   * one database: only the one that makes blocks takes chains, as in the round.
   */
  private async fetchFor(action: Extract<NetworkAction, { kind: 'fetch' }>): Promise<void> {
    if (!this.producer.isProducer) return this.finality.fetchFailed(action.hash);
    const first = this.holderOf(action.source, action.hash);
    const others = this.usablePeers().filter((peer) => peer !== first);
    for (const peer of first ? [first, ...others] : others) {
      await this.learnChainOf(peer, MAX_HASHES_PER_REQUEST);
      if (this.finality.knows(action.hash)) return;
    }
    await this.finality.fetchFailed(action.hash);
  }

  /** Every honor node's votes this node may lack, from each peer: lost messages and a restart cost nothing. */
  private async pullVotes(): Promise<void> {
    const from = BigInt(this.finality.finalHeight + 1);
    await Promise.all(
      this.usablePeers().map(async (peer) => {
        try {
          await this.finality.receive(await peer.client.votes(from), peer.key!);
        } catch (error) {
          this.logger.debug(`votes of ${peer.url}: ${(error as Error).message}`);
        }
      }),
    );
  }

  /**
   * What the consensus core asked of the network: this node's votes sent, a chain followed, a missing block
   * looked for, a peer banned.
   */
  private carryOut(ownVotes: SignedVote[], actions: NetworkAction[]): void {
    if (ownVotes.length > 0) {
      for (const peer of this.peers.values()) {
        if (peer.isolated) continue;
        peer.client.sendVotes(ownVotes).catch((error: Error) => {
          this.logger.debug(`votes to ${peer.url}: ${(error as Error).message}`);
        });
      }
    }
    for (const action of actions) {
      if (action.kind === 'switch') void this.follow(action);
      else if (action.kind === 'ban') {
        void this.ban(action.key).then((seconds) =>
          this.logger.warn(
            `banned ${action.voter ? 'honor node' : 'peer'} ${action.key.slice(0, 16)} for ${seconds} s: ${action.reason}`,
          ),
        );
      } else void this.fetchFor(action);
    }
  }

  /** One switch at a time: a second caller waits for the one under way, which may have made it moot. */
  private follow(action: Extract<NetworkAction, { kind: 'switch' }>): Promise<void> {
    const target = action.path[action.path.length - 1];
    // The core asks again after each event until the switch is made: one request per target is enough.
    if (target === undefined || this.following.has(target)) return Promise.resolve();
    this.following.add(target);
    const run = async () => {
      const peer = this.holderOf(action.source, target);
      try {
        if (!peer) throw new Error('no reachable peer holds it');
        await this.lock.whileBehind(() => this.switchTo(peer, action.commonHeight, action.path));
      } catch (error) {
        if (peer && error instanceof RefusedBlock && error.bad) await this.refusedFrom(peer, error);
        else this.logger.debug(`following ${target}: ${(error as Error).message}`);
        // The fork choice must not wait for a block this node cannot have: it is learned again from a
        // peer's chain once one serves it. A block that only met a moved chain here is tried again at the
        // core's next event.
        if (!(error instanceof RefusedBlock) || error.bad) await this.finality.unavailable(target);
      } finally {
        this.following.delete(target);
      }
    };
    const next = (this.syncing ?? Promise.resolve()).then(run);
    this.syncing = next.finally(() => {
      if (this.syncing === next) this.syncing = undefined;
    });
    return next;
  }

  /** The peer to take a chain from: the one the core heard it from, or any whose tip it is. */
  private holderOf(source: number | undefined, target: string): Peer | undefined {
    const peers = this.usablePeers();
    const key = source !== undefined && source >= 0 ? this.finality.voterKey(source) : undefined;
    return (
      peers.find((peer) => peer.key === key) ??
      peers.find((peer) => peer.status?.hash === target) ??
      peers.find((peer) => BigInt(peer.status!.block_id) > BigInt(this.finality.rollbackFloor))
    );
  }

  /**
   * Makes this node's chain end in `path`: blocks above `commonHeight` taken back (their transactions
   * queued again, never below the highest final block) and the peer's blocks checked and run. The blocks
   * are fetched first and must be the ones the core chose; leaving blocks of ours and taking the peer's
   * happen under one hold of the chain lock, so no block of ours is made in between.
   */
  private async switchTo(peer: Peer, chosenFrom: number, chosen: readonly string[]): Promise<void> {
    // The core may not have seen the latest blocks written here yet: the blocks of the path this node
    // already holds are skipped, so that nothing is taken back only to be taken again.
    const held = await this.db.query<Pick<BlockEntity, 'id' | 'hash'>>(HELD_HASHES, [
      chosenFrom,
      chosenFrom + chosen.length,
    ]);
    let skip = 0;
    while (skip < held.length && asBuffer(held[skip].hash).toString('hex') === chosen[skip]) skip++;
    const commonHeight = chosenFrom + skip;
    const path = chosen.slice(skip);
    if (path.length === 0) return;
    if (commonHeight < this.finality.rollbackFloor) {
      this.logger.warn(
        `${peer.url}'s chain would take back final block ${this.finality.rollbackFloor}: refused`,
      );
      return;
    }
    for (let from = 0; from < path.length;) {
      const count = Math.min(BLOCKS_PER_REQUEST, path.length - from);
      const blocks = await this.fetchBlocks(
        peer,
        BigInt(commonHeight + from + 1),
        BigInt(commonHeight + from + count),
      );
      if (!blocks) throw new Error(`${peer.url} no longer serves the blocks`);
      blocks.forEach((block, index) => {
        if (hexOf(parseBlock(block).header.blockHash) !== path[from + index]) {
          throw new Error(`${peer.url} holds another chain now`);
        }
      });
      let depth = 0;
      let requeued: Buffer[] = [];
      try {
        await this.lock.run(async () => {
          // The tip is read under the lock: a block this node made while the peer's were fetched is left
          // too, instead of the peer's first block being refused for not following it.
          if (from === 0) depth = Number((await this.producer.tip(this.db, false)).id) - commonHeight;
          if (depth > 0) requeued = (await this.rollback.rollbackHeld(depth, { requeue: true })).requeued;
          for (const block of blocks) this.measure(await this.receiver.applyHeld(block, this.checkTx));
        });
        if (depth > 0) {
          this.metrics.reorganized(depth);
          this.logger.log(
            `left ${depth} blocks of another branch for the chain of ${peer.url}; ${requeued.length} transactions queued again`,
          );
        }
      } finally {
        // Also when a block of the peer's turned out bad: what was queued again must reach a producer.
        if (requeued.length > 0) this.passOn(requeued);
      }
      from += blocks.length;
    }
  }

  private checkTx = (txs: readonly Uint8Array[], blockTimeMs: number) =>
    this.txs.checkInBlock(txs, blockTimeMs);

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

  /** Listens no more to `key` for `local_node_ban_time` seconds; returns them. */
  private async ban(key: string): Promise<number> {
    const value = Number((await this.parameters.get('local_node_ban_time')) ?? 60);
    const seconds = value > 0 ? value : 60;
    this.bans.set(key, Date.now() + seconds * 1000);
    return seconds;
  }

  /**
   * A peer sent a bad block. The consensus core decides whom that bans (the sender, and the producer once
   * its signature held; {@link carryOut} carries it out). A block its producer signed is reported on chain
   * (NewBadBlock, in this node's name): CheckNodesBan bans a node for everyone once a majority of the
   * nodes reported it often enough (formats.md §5.5).
   */
  private async refusedFrom(peer: Peer, refused: RefusedBlock): Promise<void> {
    if (!peer.key) return;
    this.metrics.badBlockRefused();
    this.logger.warn(`refused a block from ${peer.url}: ${refused.message}`);
    const signed = refused.block?.signed ? refused.block : undefined;
    await this.finality.refused({
      sourceKey: peer.key,
      reason: refused.message,
      block: signed && { hash: signed.hash, producer: signed.position },
    });
    // Reports count only from honor nodes (CheckNodesBan); a follower keeps its bans to itself.
    const producerKey = signed ? this.finality.voterKey(signed.position) : undefined;
    if (signed && producerKey && this.producer.isHonorNode) {
      await this.reportBadBlock(producerKey, signed, refused.message);
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
      prev_hash: change.produced.prevHash.toString('hex'),
      time: change.produced.time.toString(),
      position: change.produced.position.toString(),
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
    // Taken already (from a peer's chain, before the news came): its propagation is at most this long.
    if (this.finality.holds(announcement.block_id, announcement.hash)) {
      this.committedAt.delete(announcement.hash);
      this.metrics.blockPropagated(Math.max(0, Date.now() - announcement.committed_at_ms) / 1000);
      return;
    }
    // The block and its parent are what the core needs to place it; it then asks for a switch (a catch-up
    // when the block extends this node's tip) if the fork choice picks it.
    await this.finality.learnChain(
      [
        {
          id: String(BigInt(announcement.block_id) - 1n),
          hash: announcement.prev_hash,
          time: '0',
          position: '0',
        },
        {
          id: announcement.block_id,
          hash: announcement.hash,
          time: announcement.time,
          position: announcement.position,
        },
      ],
      key,
    );
    this.carryOut([], this.finality.pendingSwitch());
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
    // One node per change (Raft's single-server change): any majority of the honor nodes before it and any
    // majority after it share a node, so nodes still counting votes with the old list cannot finalise
    // a block that conflicts with one final under the new list.
    joining.splice(1);
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
        final_block_id: peer.status?.final_block_id ?? '0',
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

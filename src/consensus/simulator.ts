/**
 * Many ConsensusCore copies in one process on a virtual clock: a deterministic network simulator that
 * checks the core's safety and liveness under a WAN, lost and duplicated messages, partitions, crashes,
 * clock skew and faulty producers, with a modelled transaction load.
 *
 * Everything random comes from one seeded generator and the event queue is ordered by (time, sequence),
 * so a seed replays the same run exactly: a broken invariant is reported with the seed and the step at
 * which it broke, and `simulate({ ...options, seed })` reproduces it.
 */
import {
  type BlockHeader,
  type ConsensusAction,
  ConsensusCore,
  type Hash,
  type Vote,
  leaderOfSlot,
  voteCollectors,
} from './consensus-core';

// ------------------------------------------------------------------------------------------- options

export const FAULT_KINDS = [
  'loss',
  'duplication',
  'partition',
  'crash',
  'skew',
  'equivocate',
  'invalid',
  'withhold',
  'silent',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FAULT_DESCRIPTIONS: Record<FaultKind, string> = {
  loss: 'messages are lost (1 % by default)',
  duplication: 'messages arrive twice (1 % by default)',
  partition: 'the network splits in two for a while, then heals',
  crash: 'an honest node stops and restarts with only its applied chain, final block and own votes',
  skew: 'node clocks differ by up to ±250 ms',
  equivocate: 'a faulty producer makes two blocks in one slot, each sent to half of the nodes',
  invalid: 'a faulty producer makes blocks that fail to apply',
  withhold: 'a faulty producer announces its blocks but never serves them',
  silent: 'a faulty node never sends a vote',
};

/** The faults that live in a node for the whole run, one node each. */
const FAULTY_ROLES = ['equivocate', 'invalid', 'withhold', 'silent'] as const;
type Role = 'honest' | (typeof FAULTY_ROLES)[number];

export interface SimulationOptions {
  nodes: number;
  seed: number;
  slots: number;
  faults: readonly FaultKind[];
  forkChoice?: 'votes' | 'longest';
  /** Passed through to every core: the known-bad voting rule without its lock (test only). */
  unlockedVoting?: boolean;
  slotMs?: number;
  buildShare?: number;
  /** Base one-way latency of a link, chosen per link from this range by the seed. */
  latencyMs?: readonly [number, number];
  /** Each message's latency varies by up to this share of its link's base. */
  jitter?: number;
  lossRate?: number;
  duplicationRate?: number;
  maxSkewMs?: number;
  /** Client transactions offered per slot to random honest nodes. */
  txPerSlot?: number;
  /** Transactions a node holds admitted and not yet final on its chain. */
  queueBound?: number;
  maxTxPerBlock?: number;
  /** After the last fault heals, every honest node's final block must move within this many slots. */
  livenessSlots?: number;
  /** Once the network is whole, an accepted transaction must be final within this many slots. */
  txFinalitySlots?: number;
  /** Faults start and heal within this share of the run; the rest is quiet but for loss and duplication. */
  faultShare?: number;
  /** Each node re-sends its votes above its final block and its status every this many slots. */
  resendEverySlots?: number;
  /**
   * How blocks, votes and transactions spread: each node sends them to every other node itself
   * (`direct`, as the node does today), or to about `meshDegree` mesh peers that pass on what they had not
   * seen (`gossip`, as a gossipsub mesh does). Fetches are point to point either way.
   */
  propagation?: 'direct' | 'gossip';
  meshDegree?: number;
  /**
   * Where a vote goes: to every other node (`all`, as the node does today), or to the `collectors` leaders
   * after its block's slot (`collectors`: vote aggregation), each of which passes on every vote it gathered,
   * batched every `relayMs`: about N·collectors + collectors·(N − 1) messages a batch instead of N(N − 1)
   * a block, for one more hop.
   */
  voteRouting?: 'all' | 'collectors';
  collectors?: number;
  relayMs?: number;
  /** The status round goes to this many peers picked at random each time (0: to every other node). */
  statusPeers?: number;
}

type Settings = Required<Omit<SimulationOptions, 'faults' | 'unlockedVoting' | 'forkChoice'>> & {
  faults: ReadonlySet<FaultKind>;
  forkChoice: 'votes' | 'longest';
  unlockedVoting: boolean;
};

function settle(options: SimulationOptions): Settings {
  const faults = new Set(options.faults);
  const nodes = options.nodes;
  return {
    nodes,
    seed: options.seed,
    slots: options.slots,
    faults,
    forkChoice: options.forkChoice ?? 'votes',
    unlockedVoting: options.unlockedVoting ?? false,
    slotMs: options.slotMs ?? 1000,
    buildShare: options.buildShare ?? 0.5,
    latencyMs: options.latencyMs ?? [20, 300],
    jitter: options.jitter ?? 0.2,
    lossRate: options.lossRate ?? (faults.has('loss') ? 0.01 : 0),
    duplicationRate: options.duplicationRate ?? (faults.has('duplication') ? 0.01 : 0),
    maxSkewMs: options.maxSkewMs ?? (faults.has('skew') ? 250 : 0),
    txPerSlot: options.txPerSlot ?? 20,
    queueBound: options.queueBound ?? 400,
    maxTxPerBlock: options.maxTxPerBlock ?? 100,
    // A full rotation of leaders (a faulty one each may waste its slot) plus room for a vote round.
    livenessSlots: options.livenessSlots ?? 2 * nodes + 12,
    txFinalitySlots: options.txFinalitySlots ?? 3 * nodes + 20,
    faultShare: options.faultShare ?? 0.6,
    resendEverySlots: options.resendEverySlots ?? 1,
    propagation: options.propagation ?? 'direct',
    meshDegree: options.meshDegree ?? 8,
    voteRouting: options.voteRouting ?? 'all',
    collectors: options.collectors ?? 2,
    relayMs: options.relayMs ?? 100,
    statusPeers: options.statusPeers ?? 0,
  };
}

// ------------------------------------------------------------------------------------------ summary

export interface Violation {
  invariant:
    | 'conflicting final blocks'
    | 'final block rolled back'
    | 'transaction final twice'
    | 'finality stalled'
    | 'transaction not final'
    | 'queue over its bound'
    | 'honest node banned'
    | 'core error';
  detail: string;
  /** The event at which it broke (replay the seed to reach it). */
  step: number;
  atMs: number;
}

export interface SimulationSummary {
  seed: number;
  nodes: number;
  slots: number;
  faults: FaultKind[];
  ok: boolean;
  /** False when a silent voter is in the run (see `World.livenessChecked`): only safety was checked. */
  livenessChecked: boolean;
  violation?: Violation;
  steps: number;
  /** The highest height any honest node holds as final. */
  finalHeight: number;
  blocksMade: number;
  /** Slots from a block's slot to the moment each honest node holds it final. */
  finalityLagSlots: { p50: number; p99: number; max: number };
  reorgs: { count: number; maxDepth: number };
  messages: { total: number; byKind: Record<string, number>; perFinalBlock: number };
  /** Per restart: slots until the node's final block reached the network's at its restart. */
  catchUpSlots: number[];
  txs: { offered: number; accepted: number; refused: number; final: number };
  /** The final chain's hashes, digested: equal summaries mean equal runs. */
  fingerprint: string;
}

// ----------------------------------------------------------------------------------------- plumbing

/** mulberry32: small, fast, and good enough to pick latencies and faults. */
/**
 * A random mesh of about `degree` peers a node (each picks half of them; links go both ways), or every
 * other node when there are few.
 */
function meshOf(nodes: number, degree: number, random: () => number): number[][] {
  const peers = Array.from({ length: nodes }, () => new Set<number>());
  if (nodes - 1 <= degree) {
    for (let a = 0; a < nodes; a++) for (let b = 0; b < nodes; b++) if (a !== b) peers[a].add(b);
  } else {
    for (let a = 0; a < nodes; a++) {
      for (let picked = 0; picked < Math.ceil(degree / 2);) {
        const b = Math.floor(random() * nodes);
        if (b === a || peers[a].has(b)) continue;
        peers[a].add(b);
        peers[b].add(a);
        picked++;
      }
    }
  }
  return peers.map((set) => [...set].sort((a, b) => a - b));
}

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Scheduled {
  at: number;
  seq: number;
  run: () => void;
}

/** A binary heap by (time, sequence): ties run in the order they were scheduled. */
class EventQueue {
  private readonly heap: Scheduled[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, run: () => void): void {
    const heap = this.heap;
    heap.push({ at, seq: this.seq++, run });
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!earlier(heap[index], heap[parent])) break;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  pop(): Scheduled | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && earlier(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && earlier(heap[right], heap[smallest])) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest], heap[index]];
        index = smallest;
      }
    }
    return top;
  }
}

function earlier(a: Scheduled, b: Scheduled): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

class InvariantBroken extends Error {
  constructor(readonly violation: Violation) {
    super(`${violation.invariant}: ${violation.detail}`);
  }
}

// ------------------------------------------------------------------------------------------- model

interface SimBlock {
  header: BlockHeader;
  txs: number[];
  bytes: number;
  /** An invalid block fails to apply on an honest node. */
  valid: boolean;
}

type Message =
  | { kind: 'block'; block: SimBlock }
  | { kind: 'header'; header: BlockHeader }
  | { kind: 'votes'; votes: Vote[] }
  /** Votes sent to a collector, which passes them on ({@link SimulationOptions.voteRouting}). */
  | { kind: 'collect'; votes: Vote[] }
  | { kind: 'status'; tip: BlockHeader; final: BlockHeader; votes: Vote[] }
  | { kind: 'fetch'; hash: Hash; knownHeight: number }
  | { kind: 'fetched'; hash: Hash; block?: SimBlock; ancestors: BlockHeader[] }
  | { kind: 'txs'; txs: number[] };

const GENESIS: BlockHeader = { height: 0, hash: '0'.repeat(16), parent: '', slot: -1, producer: 0 };
const HEADER_BYTES = 200;
const TX_BYTES = 250;
const BYTES_PER_MS = 12_500; // 100 Mbit/s per link
const BUILD_MS_PER_TX = 1.3; // bench/catch-up.ts: ~750 tx/s admitted and run
const REPLAY_MS_PER_TX = 1.3;
const BLOCK_BASE_MS = 3;
const FETCH_TIMEOUT_MS = 1200;
const FETCH_AHEAD = 16;
const BAN_MS = 20_000;
const UNAVAILABLE_MS = 5_000;
const HEADER_TOLERANCE_MS = 600;
const ANCESTORS_PER_FETCH = 512;
const RESEND_HEIGHTS = 64;

class SimNode {
  up = true;
  incarnation = 0;
  core!: ConsensusCore;
  /** The applied chain by height from genesis (durable). */
  chain: Hash[] = [GENESIS.hash];
  /** Block bodies this node holds. */
  readonly store = new Set<Hash>([GENESIS.hash]);
  /** Durable, as the real node records its votes before sending them. */
  readonly ownVotes: Vote[] = [];
  /** Pending transactions in arrival order (durable, as the real queue is a table). */
  queue = new Set<number>();
  /** Admitted here and not yet final on this node's chain: what the queue bound counts. */
  readonly admitted = new Set<number>();
  readonly txHeight = new Map<number, number>();
  knownFinal: BlockHeader = GENESIS;
  lastFinalAdvanceMs = 0;
  busy: 'replay' | 'build' | undefined;
  readonly inflight = new Map<Hash, { asked: Set<number>; attempt: number }>();
  readonly banned = new Map<number, number>();
  readonly unavailableUntil = new Map<Hash, number>();
  readonly retries = new Set<Hash>();
  restartedAtMs?: number;
  catchUpTarget = 0;
  /** Gossip: what this node has already received or sent (ids of blocks, headers, votes, transactions). */
  readonly seen = new Set<string>();
  /** As a collector: votes gathered and not yet passed on (lost in a crash). */
  relayPending: Vote[] = [];
  /**
   * As a collector: the votes it passed on (`voter:hash`), by height; heights below its final block are
   * dropped. By hash too, so that a voter's second, conflicting vote at a height goes on like the first.
   */
  readonly relayed = new Map<number, Set<string>>();

  constructor(
    readonly id: number,
    readonly role: Role,
    readonly skewMs: number,
  ) {}

  get honest(): boolean {
    return this.role === 'honest';
  }
}

// ------------------------------------------------------------------------------------------- world

class World {
  readonly random: () => number;
  readonly queue = new EventQueue();
  readonly nodes: SimNode[] = [];
  readonly blocks = new Map<Hash, SimBlock>([
    [GENESIS.hash, { header: GENESIS, txs: [], bytes: 0, valid: true }],
  ]);
  readonly baseLatency: number[][] = [];
  /** Gossip: each node's mesh peers. */
  readonly mesh: number[][];
  now = 0;
  step = 0;
  /** The final chain as the honest nodes reported it, by height. */
  readonly finalChain: Hash[] = [GENESIS.hash];
  readonly finalTxs = new Set<number>();
  readonly accepted = new Map<number, number>();
  partition: number[] | undefined;
  crashed = 0;
  lastHealMs = 0;
  faultsEndMs: number;
  nextTx = 1;
  hashCounter = 0;
  blocksMade = 0;
  reorgCount = 0;
  reorgMaxDepth = 0;
  readonly lagSamples: number[] = [];
  readonly catchUps: number[] = [];
  readonly messagesByKind: Record<string, number> = {};
  offered = 0;
  acceptedCount = 0;
  refused = 0;

  constructor(readonly settings: Settings) {
    this.random = seededRandom(settings.seed);
    const { nodes, latencyMs } = settings;
    for (let a = 0; a < nodes; a++) {
      this.baseLatency.push([]);
      for (let b = 0; b < nodes; b++) {
        this.baseLatency[a].push(a < b ? latencyMs[0] + this.random() * (latencyMs[1] - latencyMs[0]) : 0);
      }
    }
    for (let a = 0; a < nodes; a++)
      for (let b = 0; b < a; b++) this.baseLatency[a][b] = this.baseLatency[b][a];
    const roles = this.pickRoles();
    for (let id = 0; id < nodes; id++) {
      const skew = settings.maxSkewMs > 0 ? (this.random() * 2 - 1) * settings.maxSkewMs : 0;
      const node = new SimNode(id, roles[id], skew);
      node.core = this.newCore(node, GENESIS, [], []);
      this.nodes.push(node);
    }
    this.faultsEndMs = Math.floor(settings.slots * settings.faultShare) * settings.slotMs;
    // From a random stream of its own, so that a seed's direct runs stay what they were.
    this.mesh =
      settings.propagation === 'gossip'
        ? meshOf(nodes, settings.meshDegree, seededRandom(settings.seed ^ 0x5eed))
        : [];
  }

  /** At most a third of the nodes (and one at least) are faulty, one fault kind each. */
  private pickRoles(): Role[] {
    const { nodes, faults } = this.settings;
    const kinds = FAULTY_ROLES.filter((kind) => faults.has(kind));
    const roles: Role[] = Array.from({ length: nodes }, () => 'honest');
    const count = Math.min(kinds.length, Math.max(1, Math.floor((nodes - 1) / 3)));
    const order = this.shuffled(Array.from({ length: nodes }, (_, id) => id));
    const chosenKinds = this.shuffled([...kinds]).slice(0, count);
    chosenKinds.forEach((kind, index) => (roles[order[index]] = kind));
    return roles;
  }

  /** `count` other nodes picked at random: a partial shuffle, one draw per pick. */
  somePeers(node: SimNode, count: number): number[] {
    const ids = this.nodes.map((peer) => peer.id).filter((id) => id !== node.id);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.random() * (ids.length - i));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    return ids.slice(0, count);
  }

  shuffled<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  newCore(node: SimNode, final: BlockHeader, applied: BlockHeader[], recorded: Vote[]): ConsensusCore {
    const { nodes, slotMs, buildShare, forkChoice, unlockedVoting } = this.settings;
    return new ConsensusCore(
      {
        self: node.id,
        voters: nodes,
        schedule: { startMs: 0, slotMs },
        buildShare,
        behindLimit: 3,
        forkChoice,
        ...(unlockedVoting ? { unlockedVoting: true } : {}),
      },
      final,
      applied,
      recorded,
    );
  }

  newHash(): Hash {
    this.hashCounter++;
    let hash = '';
    for (let i = 0; i < 4; i++)
      hash += Math.floor(this.random() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    return hash;
  }

  at(delayMs: number, run: () => void): void {
    this.queue.push(this.now + Math.max(0, delayMs), run);
  }

  /** A node's timer: dropped if the node crashed (or crashed and restarted) meanwhile. */
  timer(node: SimNode, delayMs: number, run: () => void): void {
    const incarnation = node.incarnation;
    this.at(delayMs, () => {
      if (node.up && node.incarnation === incarnation) run();
    });
  }

  fail(invariant: Violation['invariant'], detail: string): never {
    throw new InvariantBroken({ invariant, detail, step: this.step, atMs: this.now });
  }

  // ------------------------------------------------------------------------------------- network

  connected(a: number, b: number): boolean {
    return !this.partition || this.partition[a] === this.partition[b];
  }

  send(from: SimNode, to: number, message: Message): void {
    if (to === from.id) return;
    this.messagesByKind[message.kind] = (this.messagesByKind[message.kind] ?? 0) + 1;
    const { lossRate, duplicationRate, jitter } = this.settings;
    if (!this.connected(from.id, to) || this.random() < lossRate) return;
    const copies = this.random() < duplicationRate ? 2 : 1;
    for (let copy = 0; copy < copies; copy++) {
      const base = this.baseLatency[from.id][to];
      const bytes =
        message.kind === 'block'
          ? message.block.bytes
          : message.kind === 'fetched'
            ? fetchedBytes(message)
            : 100;
      const delay = base * (1 + (this.random() * 2 - 1) * jitter) + bytes / BYTES_PER_MS;
      this.at(delay, () => {
        const target = this.nodes[to];
        if (!target.up || !this.connected(from.id, to)) return;
        this.deliver(target, from.id, message);
      });
    }
  }

  broadcast(from: SimNode, message: Message): void {
    if (this.settings.propagation === 'direct') {
      for (let to = 0; to < this.nodes.length; to++) this.send(from, to, message);
      return;
    }
    this.unseen(from, message);
    for (const to of this.mesh[from.id]) this.send(from, to, message);
  }

  /** Gossip: the part of `message` that `node` had not seen, now marked seen; undefined when none. */
  private unseen(node: SimNode, message: Message): Message | undefined {
    const fresh = (id: string) => {
      if (node.seen.has(id)) return false;
      node.seen.add(id);
      return true;
    };
    switch (message.kind) {
      case 'votes': {
        const votes = message.votes.filter((vote) => fresh(`v${vote.voter}:${vote.height}:${vote.hash}`));
        return votes.length > 0 ? { kind: 'votes', votes } : undefined;
      }
      case 'txs': {
        const txs = message.txs.filter((tx) => fresh(`t${tx}`));
        return txs.length > 0 ? { kind: 'txs', txs } : undefined;
      }
      case 'header':
        return fresh(`h${message.header.hash}`) ? message : undefined;
      case 'block':
        return fresh(`b${message.block.header.hash}`) ? message : undefined;
      default:
        return message;
    }
  }

  /**
   * Gossip: what a mesh peer sent that this node had not seen goes on to its other mesh peers (at once, as
   * the model's validation takes no time). A status is a neighbour's alone; the votes in it that this node
   * had not seen go on as votes. Returns the part to deliver here, or undefined when nothing is new.
   */
  private passOn(node: SimNode, from: number, message: Message): Message | undefined {
    if (message.kind === 'fetch' || message.kind === 'fetched' || message.kind === 'collect') return message;
    if (message.kind === 'status') {
      const votes = this.unseen(node, { kind: 'votes', votes: message.votes });
      if (votes) for (const to of this.mesh[node.id]) if (to !== from) this.send(node, to, votes);
      return message;
    }
    const fresh = this.unseen(node, message);
    if (fresh) for (const to of this.mesh[node.id]) if (to !== from) this.send(node, to, fresh);
    return fresh;
  }

  deliver(node: SimNode, from: number, sent: Message): void {
    if ((node.banned.get(from) ?? -1) > this.now && sent.kind !== 'fetch') return;
    const message = this.settings.propagation === 'gossip' ? this.passOn(node, from, sent) : sent;
    if (!message) return;
    switch (message.kind) {
      case 'block':
        this.receiveBlock(node, message.block, from, []);
        break;
      case 'header':
        this.receiveHeaders(node, [message.header], from);
        break;
      case 'votes':
        this.carry(node, node.core.received(message.votes, from));
        break;
      case 'collect':
        this.carry(node, node.core.received(message.votes, from));
        this.gather(node, message.votes);
        break;
      case 'status':
        this.carry(node, node.core.received(message.votes, from));
        this.receiveHeaders(node, [message.final], from);
        this.receiveHeaders(node, [message.tip], from);
        break;
      case 'fetch':
        this.serveFetch(node, from, message.hash, message.knownHeight);
        break;
      case 'fetched':
        this.fetched(node, from, message);
        break;
      case 'txs':
        for (const tx of message.txs) this.admit(node, tx, false);
        break;
    }
  }

  // ------------------------------------------------------------------------------ vote aggregation

  /** A vote goes to its block's collectors (a collector gathers its own directly). */
  sendToCollectors(node: SimNode, vote: Vote): void {
    // From the block itself: the core may have let the header go already (the vote made it final).
    const slot = this.blocks.get(vote.hash)!.header.slot;
    for (const collector of voteCollectors(slot, this.settings.nodes, this.settings.collectors)) {
      if (collector === node.id) this.gather(node, [vote]);
      else this.send(node, collector, { kind: 'collect', votes: [vote] });
    }
  }

  /**
   * A collector takes votes to pass on: each vote once, at or above its final block's height, in one
   * batch every `relayMs` (a leader's back-to-back blocks and the votes that trickle in over the WAN share
   * one message to each peer). A silent node passes on nothing, as it votes for nothing.
   */
  gather(node: SimNode, votes: readonly Vote[]): void {
    if (node.role === 'silent') return;
    const core = node.core;
    const startsBatch = node.relayPending.length === 0;
    for (const vote of votes) {
      if (vote.height < core.final.height) continue;
      let passed = node.relayed.get(vote.height);
      if (!passed) node.relayed.set(vote.height, (passed = new Set()));
      const key = `${vote.voter}:${vote.hash}`;
      if (passed.has(key)) continue;
      passed.add(key);
      node.relayPending.push(vote);
    }
    if (startsBatch && node.relayPending.length > 0)
      this.timer(node, this.settings.relayMs, () => this.relay(node));
  }

  relay(node: SimNode): void {
    if (node.relayPending.length === 0) return;
    const batch = node.relayPending;
    node.relayPending = [];
    const final = node.core.final.height;
    for (const height of node.relayed.keys()) if (height < final) node.relayed.delete(height);
    this.broadcast(node, { kind: 'votes', votes: batch });
  }

  // -------------------------------------------------------------------------------------- driver

  localNow(node: SimNode): number {
    return this.now + node.skewMs;
  }

  carry(node: SimNode, actions: ConsensusAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'vote':
          if (node.role === 'silent') break;
          node.ownVotes.push(action.vote);
          if (this.settings.voteRouting === 'all')
            this.broadcast(node, { kind: 'votes', votes: [action.vote] });
          else this.sendToCollectors(node, action.vote);
          break;
        case 'final':
          this.becameFinal(node, action.header);
          break;
        case 'switch':
          if (node.honest && action.commonHeight < this.finalOnChainHeight(node)) {
            this.fail(
              'final block rolled back',
              `node ${node.id} was told to go back to ${action.commonHeight} below its final block ${node.knownFinal.height}`,
            );
          }
          break;
        case 'fetch':
          this.requestBlock(node, action.hash, action.source);
          break;
        case 'ban':
          // Every simulated peer is a voter: a refusal always names its source's position.
          if (action.peer === 'sender') throw new Error(`node ${node.id} banned a sender with no position`);
          if (this.nodes[action.peer].honest && node.honest) {
            this.fail('honest node banned', `node ${node.id} banned ${action.peer}: ${action.reason}`);
          }
          node.banned.set(action.peer, this.now + BAN_MS);
          break;
      }
    }
    this.advance(node);
  }

  /** The highest height of this node's chain that it has seen final. */
  finalOnChainHeight(node: SimNode): number {
    let height = Math.min(node.knownFinal.height, node.chain.length - 1);
    let hash = this.ancestorAt(node.knownFinal.hash, height);
    while (height > 0 && node.chain[height] !== hash) {
      height--;
      hash = this.ancestorAt(node.knownFinal.hash, height);
    }
    return height;
  }

  ancestorAt(hash: Hash, height: number): Hash | undefined {
    let block = this.blocks.get(hash);
    while (block && block.header.height > height) block = this.blocks.get(block.header.parent);
    return block?.header.height === height ? block.header.hash : undefined;
  }

  becameFinal(node: SimNode, header: BlockHeader): void {
    if (!node.honest || header.height <= node.knownFinal.height) return;
    const lowestNew = node.knownFinal.height + 1;
    node.knownFinal = header;
    node.lastFinalAdvanceMs = this.now;
    for (let hash: Hash | undefined = header.hash; hash !== undefined;) {
      const block: SimBlock = this.blocks.get(hash)!;
      const height = block.header.height;
      if (height < lowestNew) break;
      this.lagSamples.push((this.now - block.header.slot * this.settings.slotMs) / this.settings.slotMs);
      hash = block.header.parent;
    }
    this.recordFinal(header);
    for (let height = lowestNew; height <= header.height && height < node.chain.length; height++) {
      if (node.chain[height] !== this.finalChain[height]) break;
      for (const tx of this.blocks.get(node.chain[height])!.txs) node.admitted.delete(tx);
    }
    if (node.restartedAtMs !== undefined && header.height >= node.catchUpTarget) {
      this.catchUps.push((this.now - node.restartedAtMs) / this.settings.slotMs);
      node.restartedAtMs = undefined;
    }
  }

  /** The global ledger of final blocks: every honest node's final blocks must fit in one chain. */
  recordFinal(header: BlockHeader): void {
    const added: SimBlock[] = [];
    for (let block = this.blocks.get(header.hash); block; block = this.blocks.get(block.header.parent)) {
      const height = block.header.height;
      const known = this.finalChain[height];
      if (known === block.header.hash) break;
      if (known !== undefined) {
        this.fail(
          'conflicting final blocks',
          `height ${height}: ${known} and ${block.header.hash} (from ${header.hash} at ${header.height})`,
        );
      }
      added.push(block);
    }
    for (const block of added.reverse()) {
      this.finalChain[block.header.height] = block.header.hash;
      for (const tx of block.txs) {
        if (this.finalTxs.has(tx))
          this.fail('transaction final twice', `tx ${tx} again at ${block.header.height}`);
        this.finalTxs.add(tx);
      }
    }
  }

  /**
   * Moves the node's chain towards the fork choice's head one step at a time: take back what is not on
   * the way, then replay the next block of the path (fetching the ones it lacks), and look again.
   */
  advance(node: SimNode): void {
    if (!node.up || node.busy) return;
    const core = node.core;
    const head = core.head();
    if (head.hash === core.tip.hash) {
      this.tryProduce(node);
      return;
    }
    const path: BlockHeader[] = [];
    let at: BlockHeader | undefined = head;
    while (at && core.chainAt(at.height) !== at.hash) {
      path.push(at);
      at = core.header(at.parent);
    }
    if (!at) return;
    path.reverse(); // lowest first (pushed and turned round: unshift would cost the square of a deep switch)
    if (at.height < core.tip.height) this.rollBack(node, at.height);
    const next = path[0];
    if (!node.store.has(next.hash)) {
      for (const header of path.slice(0, FETCH_AHEAD)) {
        if (!node.store.has(header.hash)) this.requestBlock(node, header.hash, undefined);
      }
      return;
    }
    const block = this.blocks.get(next.hash)!;
    node.busy = 'replay';
    this.timer(node, BLOCK_BASE_MS + block.txs.length * REPLAY_MS_PER_TX, () => {
      node.busy = undefined;
      this.replayed(node, block);
    });
  }

  rollBack(node: SimNode, height: number): void {
    const depth = node.chain.length - 1 - height;
    if (node.honest) {
      const lowest = node.chain[height + 1];
      if (height < this.finalOnChainHeight(node)) {
        this.fail('final block rolled back', `node ${node.id} took back ${lowest} at ${height + 1}`);
      }
      this.reorgCount++;
      this.reorgMaxDepth = Math.max(this.reorgMaxDepth, depth);
    }
    const removed = node.chain.splice(height + 1);
    this.guard(() => node.core.rolledBack(height));
    for (const hash of removed) {
      for (const tx of this.blocks.get(hash)!.txs) {
        node.txHeight.delete(tx);
        // Whoever admitted it keeps it; others take it back while there is room.
        if (node.admitted.has(tx) || node.admitted.size < this.settings.queueBound) {
          node.admitted.add(tx);
          node.queue.add(tx);
        }
      }
    }
    this.checkQueue(node);
  }

  replayed(node: SimNode, block: SimBlock): void {
    const core = node.core;
    if (core.tip.hash !== block.header.parent) {
      this.advance(node);
      return;
    }
    const duplicate = block.txs.some((tx) => node.txHeight.has(tx));
    if (!block.valid || duplicate) {
      const reason = `block ${block.header.hash} ${duplicate ? 'holds a transaction already mined' : 'is invalid'}`;
      // Blocks go out from their producer only; whoever sent it, its producer made it.
      const { hash, producer } = block.header;
      this.carry(node, core.refused({ source: producer, reason, block: { hash, producer } }));
      return;
    }
    this.applyBlock(node, block);
  }

  applyBlock(node: SimNode, block: SimBlock): void {
    node.chain.push(block.header.hash);
    node.store.add(block.header.hash);
    for (const tx of block.txs) {
      node.txHeight.set(tx, block.header.height);
      node.queue.delete(tx);
    }
    if (
      block.header.height <= node.knownFinal.height &&
      this.finalChain[block.header.height] === block.header.hash
    ) {
      for (const tx of block.txs) node.admitted.delete(tx);
    }
    this.carry(
      node,
      this.guard(() => node.core.applied(block.header)),
    );
  }

  guard<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (error instanceof InvariantBroken) throw error;
      return this.fail('core error', error instanceof Error ? error.message : String(error));
    }
  }

  receiveHeaders(node: SimNode, headers: BlockHeader[], from: number): void {
    const fresh = headers.filter(
      (header) =>
        !this.onBad(node, header) &&
        !this.suppressed(node, header.hash) &&
        header.height > node.core.final.height &&
        node.core.header(header.hash) === undefined,
    );
    if (fresh.length === 0) return;
    for (const header of fresh) {
      const problem = node.core.headerProblem(header, this.localNow(node), HEADER_TOLERANCE_MS);
      if (problem?.kind === 'not-leader') {
        this.carry(node, node.core.refused({ source: from, reason: problem.reason }));
        return;
      }
      if (problem) return;
    }
    this.carry(node, node.core.learned(fresh, from));
  }

  suppressed(node: SimNode, hash: Hash): boolean {
    return node.core.isBad(hash) || (node.unavailableUntil.get(hash) ?? -1) > this.now;
  }

  /** A block on top of an invalid one is invalid too, as the real node rejects it: never fetched. */
  onBad(node: SimNode, header: BlockHeader): boolean {
    return node.core.isBad(header.hash, header.parent);
  }

  receiveBlock(node: SimNode, block: SimBlock, from: number, ancestors: BlockHeader[]): void {
    const hash = block.header.hash;
    for (const header of ancestors) this.onBad(node, header);
    if (this.onBad(node, block.header) || this.suppressed(node, hash)) return;
    if (node.store.has(hash) && node.core.header(hash)) return;
    const problem = node.core.headerProblem(block.header, this.localNow(node), HEADER_TOLERANCE_MS);
    if (problem && problem.kind !== 'below-final') {
      if (problem.kind === 'not-leader' || problem.kind === 'not-after-parent') {
        this.carry(node, node.core.refused({ source: from, reason: problem.reason }));
      }
      return;
    }
    node.store.add(hash);
    if (problem) return;
    const headers = [...ancestors.filter((header) => !this.suppressed(node, header.hash)), block.header];
    this.carry(node, node.core.learned(headers, from));
  }

  // -------------------------------------------------------------------------------------- fetches

  requestBlock(node: SimNode, hash: Hash, source: number | undefined): void {
    if (node.store.has(hash) && node.core.header(hash)) return;
    if (node.core.isBad(hash)) return;
    const until = node.unavailableUntil.get(hash) ?? -1;
    if (until > this.now) {
      // The core asked for it: it will not ask again by itself, so the driver asks once the pause ends.
      if (!node.retries.has(hash)) {
        node.retries.add(hash);
        this.timer(node, until - this.now, () => {
          node.retries.delete(hash);
          this.requestBlock(node, hash, source);
        });
      }
      return;
    }
    let entry = node.inflight.get(hash);
    if (entry) return;
    entry = { asked: new Set([node.id]), attempt: 0 };
    node.inflight.set(hash, entry);
    this.askNext(node, hash, source);
  }

  askNext(node: SimNode, hash: Hash, preferred: number | undefined): void {
    const entry = node.inflight.get(hash);
    if (!entry) return;
    const candidates = this.nodes
      .map((peer) => peer.id)
      .filter((id) => !entry.asked.has(id) && (node.banned.get(id) ?? -1) <= this.now);
    if (candidates.length === 0) {
      node.inflight.delete(hash);
      node.unavailableUntil.set(hash, this.now + UNAVAILABLE_MS);
      node.core.fetchFailed(hash);
      this.carry(node, node.core.unavailable(hash));
      return;
    }
    const peer =
      preferred !== undefined && candidates.includes(preferred)
        ? preferred
        : candidates[Math.floor(this.random() * candidates.length)];
    entry.asked.add(peer);
    const attempt = ++entry.attempt;
    this.send(node, peer, { kind: 'fetch', hash, knownHeight: node.core.final.height });
    this.timer(node, FETCH_TIMEOUT_MS, () => {
      if (node.inflight.get(hash)?.attempt === attempt) this.askNext(node, hash, undefined);
    });
  }

  serveFetch(node: SimNode, from: number, hash: Hash, knownHeight: number): void {
    const block = this.blocks.get(hash);
    const withheld = node.role === 'withhold' && block?.header.producer === node.id;
    if (!block || !node.store.has(hash) || withheld || node.core.isBad(hash)) {
      this.send(node, from, { kind: 'fetched', hash, ancestors: [] });
      return;
    }
    const ancestors: BlockHeader[] = [];
    for (
      let parent = this.blocks.get(block.header.parent);
      parent && ancestors.length < ANCESTORS_PER_FETCH;
    ) {
      if (parent.header.height <= knownHeight || !node.store.has(parent.header.hash)) break;
      ancestors.push(parent.header);
      parent = this.blocks.get(parent.header.parent);
    }
    this.send(node, from, { kind: 'fetched', hash, block, ancestors: ancestors.reverse() });
  }

  fetched(node: SimNode, from: number, message: Extract<Message, { kind: 'fetched' }>): void {
    const entry = node.inflight.get(message.hash);
    if (!message.block) {
      if (!entry) return;
      // Its own producer not serving a block it announced: withheld, no use asking the others.
      const header = node.core.header(message.hash);
      if (header?.producer === from) entry.asked = new Set(this.nodes.map((peer) => peer.id));
      this.askNext(node, message.hash, undefined);
      return;
    }
    node.inflight.delete(message.hash);
    this.receiveBlock(node, message.block, from, message.ancestors);
    this.advance(node);
  }

  // ------------------------------------------------------------------------------------- producer

  scheduleSlots(node: SimNode): void {
    const { slotMs, nodes, resendEverySlots } = this.settings;
    const slot = Math.max(0, Math.floor((this.localNow(node) - 0) / slotMs) + 1);
    const phase = (node.id / nodes) * slotMs * 0.5;
    for (let next = slot; next < this.settings.slots; next++) {
      const localStart = next * slotMs;
      if (leaderOfSlot(next, nodes) === node.id) {
        this.timer(node, localStart - this.localNow(node), () => this.tryProduce(node));
        // Looked at again once the wait for the previous slot's block is over, as the node's producer does.
        const waitEnds = node.core.previousBlockWaitEndsAt(next);
        this.timer(node, waitEnds - this.localNow(node), () => this.tryProduce(node));
      }
      if (next % resendEverySlots === 0) {
        this.timer(node, localStart + phase - this.localNow(node), () => this.sendStatus(node));
      }
    }
  }

  sendStatus(node: SimNode): void {
    const core = node.core;
    const final = core.final;
    const votes = core
      .votesSince(final.height)
      .filter((vote) => vote.height > final.height || vote.hash === final.hash)
      // The lowest heights above the final block are what moves it; a stalled run would otherwise send
      // an ever longer list every slot.
      .filter((vote) => vote.height <= final.height + RESEND_HEIGHTS)
      .filter((vote) => vote.voter !== node.id || node.role !== 'silent');
    // A withholder's tip is its own unserved block: it announces it again and again.
    const status: Message = { kind: 'status', tip: core.tip, final, votes };
    const { statusPeers, nodes } = this.settings;
    if (statusPeers > 0 && statusPeers < nodes - 1) {
      for (const to of this.somePeers(node, statusPeers)) this.send(node, to, status);
    } else this.broadcast(node, status);
    // Client transactions still waiting long after they were passed on (a partition may have kept them
    // from some peers) are passed on again, so that no single leader's turn is their only way in.
    const stale = this.now - 2 * this.settings.nodes * this.settings.slotMs;
    const waiting = [...node.queue].filter((tx) => (this.accepted.get(tx) ?? Infinity) < stale);
    if (waiting.length > 0) this.broadcast(node, { kind: 'txs', txs: waiting });
  }

  tryProduce(node: SimNode): void {
    if (!node.up || node.busy) return;
    const core = node.core;
    const plan = core.mayProduce(this.localNow(node));
    if (!plan) return;
    const txs = [...node.queue].filter((tx) => !node.txHeight.has(tx)).slice(0, this.settings.maxTxPerBlock);
    // Back-to-back blocks only while transactions wait; one block per slot otherwise.
    if (plan.parent.slot === plan.slot && txs.length === 0) return;
    node.busy = 'build';
    this.timer(node, BLOCK_BASE_MS + txs.length * BUILD_MS_PER_TX, () => {
      node.busy = undefined;
      if (core.tip.hash !== plan.parent.hash) {
        this.advance(node);
        return;
      }
      const header: BlockHeader = {
        height: plan.parent.height + 1,
        hash: this.newHash(),
        parent: plan.parent.hash,
        slot: plan.slot,
        producer: node.id,
      };
      const block: SimBlock = {
        header,
        txs,
        bytes: HEADER_BYTES + TX_BYTES * txs.length,
        valid: node.role !== 'invalid',
      };
      this.blocks.set(header.hash, block);
      this.blocksMade++;
      this.publish(node, block);
      this.applyBlock(node, block);
    });
  }

  publish(node: SimNode, block: SimBlock): void {
    if (node.role === 'withhold') {
      this.broadcast(node, { kind: 'header', header: block.header });
      return;
    }
    if (node.role !== 'equivocate') {
      this.broadcast(node, { kind: 'block', block });
      return;
    }
    const twinHeader = { ...block.header, hash: this.newHash() };
    const twin: SimBlock = { ...block, header: twinHeader, txs: [], bytes: HEADER_BYTES };
    this.blocks.set(twinHeader.hash, twin);
    this.blocksMade++;
    for (let to = 0; to < this.nodes.length; to++) {
      this.send(node, to, { kind: 'block', block: to % 2 === 0 ? block : twin });
    }
  }

  // ----------------------------------------------------------------------------------------- load

  offerLoad(slot: number): void {
    const { txPerSlot, slotMs } = this.settings;
    const batches = 4;
    for (let batch = 0; batch < batches; batch++) {
      const size = Math.floor(txPerSlot / batches) + (batch < txPerSlot % batches ? 1 : 0);
      if (size === 0) continue;
      const delay = slot * slotMs + this.random() * slotMs - this.now;
      this.at(delay, () => {
        const targets = this.nodes.filter((node) => node.honest && node.up);
        if (targets.length === 0) return;
        const node = targets[Math.floor(this.random() * targets.length)];
        const admitted: number[] = [];
        for (let i = 0; i < size; i++) {
          const tx = this.nextTx++;
          this.offered++;
          if (this.admit(node, tx, true)) {
            this.accepted.set(tx, this.now);
            this.acceptedCount++;
            admitted.push(tx);
          } else this.refused++;
        }
        if (admitted.length > 0) this.broadcast(node, { kind: 'txs', txs: admitted });
        this.tryProduce(node);
      });
    }
  }

  admit(node: SimNode, tx: number, fromClient: boolean): boolean {
    if (node.admitted.has(tx) || node.txHeight.has(tx) || this.finalTxs.has(tx)) return !fromClient;
    if (node.admitted.size >= this.settings.queueBound) return false;
    node.admitted.add(tx);
    node.queue.add(tx);
    this.checkQueue(node);
    return true;
  }

  checkQueue(node: SimNode): void {
    if (node.queue.size > this.settings.queueBound) {
      this.fail('queue over its bound', `node ${node.id} holds ${node.queue.size}`);
    }
  }

  // --------------------------------------------------------------------------------------- faults

  planFaults(): void {
    const { faults, slots, slotMs, nodes } = this.settings;
    const window = this.faultsEndMs;
    if (window <= 0) return;
    const honest = this.nodes.filter((node) => node.honest).map((node) => node.id);
    if (faults.has('partition')) {
      const count = 1 + Math.floor(this.random() * Math.max(1, slots / 150));
      for (let i = 0; i < count; i++) {
        const start = this.random() * window * 0.8;
        const length = Math.min(window - start, (3 + this.random() * 25) * slotMs);
        const sides = this.nodes.map(() => (this.random() < 0.5 ? 0 : 1));
        this.at(start, () => {
          if (this.partition) return;
          this.partition = sides;
          this.at(length, () => {
            this.partition = undefined;
            this.lastHealMs = this.now;
          });
        });
      }
    }
    if (faults.has('crash') && honest.length > 0) {
      const count = 1 + Math.floor(this.random() * Math.max(1, slots / 100));
      for (let i = 0; i < count; i++) {
        const start = this.random() * window * 0.8;
        const length = Math.min(window - start, (2 + this.random() * 20) * slotMs);
        const victim = this.nodes[honest[Math.floor(this.random() * honest.length)]];
        // Fewer than half of the voters down at once, so a quorum stays possible.
        this.at(start, () => {
          if (!victim.up || (this.crashed + 1) * 2 >= nodes) return;
          this.crash(victim);
          this.at(length, () => this.restart(victim));
        });
      }
    }
  }

  crash(node: SimNode): void {
    node.up = false;
    node.incarnation++;
    this.crashed++;
  }

  restart(node: SimNode): void {
    this.crashed--;
    this.lastHealMs = this.now;
    node.up = true;
    node.busy = undefined;
    node.inflight.clear();
    node.banned.clear();
    node.unavailableUntil.clear();
    node.retries.clear();
    node.relayPending = [];
    node.relayed.clear();
    const floor = this.finalOnChainHeight(node);
    const final = this.blocks.get(node.chain[floor])!.header;
    node.knownFinal = final;
    node.store.clear();
    for (const hash of node.chain) node.store.add(hash);
    const applied = node.chain.slice(floor + 1).map((hash) => this.blocks.get(hash)!.header);
    node.core = this.newCore(
      node,
      final,
      applied,
      node.ownVotes.filter((vote) => vote.height > floor),
    );
    node.lastFinalAdvanceMs = this.now;
    node.restartedAtMs = this.now;
    node.catchUpTarget = this.finalChain.length - 1;
    if (node.catchUpTarget <= final.height) node.restartedAtMs = undefined;
    this.scheduleSlots(node);
    this.sendStatus(node);
  }

  // ----------------------------------------------------------------------------------- invariants

  whole(): boolean {
    return !this.partition && this.crashed === 0;
  }

  /**
   * A voter that never votes can hold finality up for good under the majority quorum: when the others
   * split evenly at a height, each half's block may still win with the silent vote, so neither half may
   * vote past it (a quorum above two thirds would not stall). Liveness is checked only without one.
   */
  get livenessChecked(): boolean {
    return !this.nodes.some((node) => node.role === 'silent');
  }

  checkLiveness(): void {
    if (!this.whole() || !this.livenessChecked) return;
    const { livenessSlots, txFinalitySlots, slotMs } = this.settings;
    const limit = livenessSlots * slotMs;
    for (const node of this.nodes) {
      if (!node.honest) continue;
      const since = Math.max(node.lastFinalAdvanceMs, this.lastHealMs);
      if (this.now - since > limit) {
        this.fail(
          'finality stalled',
          `node ${node.id}: final block ${node.knownFinal.height} unchanged for ${((this.now - since) / slotMs).toFixed(0)} slots`,
        );
      }
    }
    const txLimit = txFinalitySlots * slotMs;
    for (const [tx, acceptedAt] of this.accepted) {
      if (this.finalTxs.has(tx)) {
        this.accepted.delete(tx);
        continue;
      }
      if (this.now - Math.max(acceptedAt, this.lastHealMs) > txLimit) {
        this.fail('transaction not final', `tx ${tx} accepted at ${acceptedAt} ms`);
      }
    }
  }

  // ------------------------------------------------------------------------------------------ run

  run(): SimulationSummary {
    const { slots, slotMs } = this.settings;
    let violation: Violation | undefined;
    try {
      for (const node of this.nodes) this.scheduleSlots(node);
      for (let slot = 0; slot < slots; slot++) {
        this.offerLoad(slot);
        this.at(slot * slotMs + slotMs - 1 - this.now, () => this.checkLiveness());
      }
      this.planFaults();
      const endMs = slots * slotMs;
      for (;;) {
        const event = this.queue.pop();
        if (!event || event.at > endMs) break;
        this.now = event.at;
        this.step++;
        event.run();
      }
    } catch (error) {
      if (!(error instanceof InvariantBroken)) throw error;
      violation = error.violation;
    }
    return this.summary(violation);
  }

  summary(violation: Violation | undefined): SimulationSummary {
    const lags = [...this.lagSamples].sort((a, b) => a - b);
    const total = Object.values(this.messagesByKind).reduce((sum, count) => sum + count, 0);
    const finalHeight = this.finalChain.length - 1;
    const byKind: Record<string, number> = {};
    for (const kind of Object.keys(this.messagesByKind).sort()) byKind[kind] = this.messagesByKind[kind];
    return {
      seed: this.settings.seed,
      nodes: this.settings.nodes,
      slots: this.settings.slots,
      faults: FAULT_KINDS.filter((kind) => this.settings.faults.has(kind)),
      ok: violation === undefined,
      livenessChecked: this.livenessChecked,
      ...(violation ? { violation } : {}),
      steps: this.step,
      finalHeight,
      blocksMade: this.blocksMade,
      finalityLagSlots: {
        p50: round(percentile(lags, 0.5)),
        p99: round(percentile(lags, 0.99)),
        max: round(lags[lags.length - 1] ?? 0),
      },
      reorgs: { count: this.reorgCount, maxDepth: this.reorgMaxDepth },
      messages: { total, byKind, perFinalBlock: round(total / Math.max(1, finalHeight)) },
      catchUpSlots: this.catchUps.map(round),
      txs: {
        offered: this.offered,
        accepted: this.acceptedCount,
        refused: this.refused,
        final: this.finalTxs.size,
      },
      fingerprint: digest(this.finalChain.join('')),
    };
  }
}

function fetchedBytes(message: Extract<Message, { kind: 'fetched' }>): number {
  return (message.block?.bytes ?? 100) + HEADER_BYTES * message.ancestors.length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** FNV-1a, 32 bits: enough to tell two runs' final chains apart. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Runs one simulation to its end or its first broken invariant. */
export function simulate(options: SimulationOptions): SimulationSummary {
  if (!Number.isInteger(options.nodes) || options.nodes < 1)
    throw new Error('nodes must be a positive integer');
  return new World(settle(options)).run();
}

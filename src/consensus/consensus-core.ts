/**
 * The decisions an honor node makes about the chain, without I/O: which block each node may vote for, what
 * is final, which chain to follow, whose slot it is, and whether to make a block now. A driver (the running
 * node's network service and producer, or the simulator in `sim/`) feeds it events — a block header learned,
 * a block applied here, a vote received, time passing — and carries out the actions it returns: record and
 * send a vote, switch to another chain, fetch a missing header, make a block, ban a peer.
 *
 * Finality (docs/architecture.md, "Finality and fork choice", has the safety and liveness argument):
 * - every honor node votes for the blocks it has applied, at most once per height;
 * - a block with votes of more than half of the voters (its producer's vote included) is a witness, and a
 *   witness and all its ancestors are final;
 * - a node never votes for a block that conflicts with a block it voted for before, unless the votes seen at
 *   that earlier height prove the earlier block can never gather a majority.
 * Two conflicting witnesses would need a voter in both majorities, which the last rule forbids: final
 * blocks never conflict.
 *
 * Fork choice: from the last final block, at each fork the branch holding the latest votes of more voters
 * (each voter counted once, by its highest vote), then the earlier slot, then the lower hash. A minority of
 * voters can never out-weigh a majority, and every node breaks ties alike.
 */

/** A block hash, lowercase hex. */
export type Hash = string;

export interface BlockHeader {
  height: number;
  hash: Hash;
  parent: Hash;
  /** The slot it was made in (its time on the slot clock). */
  slot: number;
  /** The position of its producer among the voters. */
  producer: number;
}

export interface Vote {
  voter: number;
  height: number;
  hash: Hash;
}

export interface SlotSchedule {
  /** The first block's time, ms. */
  startMs: number;
  slotMs: number;
}

export interface ConsensusOptions {
  /** This node's position among the voters, or -1 for a follower (it never votes or makes blocks). */
  self: number;
  /** The active honor nodes: every one votes, and they take the slots in turn. */
  voters: number;
  schedule: SlotSchedule;
  /** The share of its slot a leader may spend making blocks. */
  buildShare: number;
  /** A node this many blocks or more behind the best chain it knows makes no block. */
  behindLimit: number;
  /**
   * The fork choice. `votes` is the rule above; `longest` (the longer chain, then the lower hash) is the
   * earlier rule, kept so that a test can show the simulator catching what it gets wrong.
   */
  forkChoice?: 'votes' | 'longest';
  /**
   * Test only, known unsafe: drop the voting rule's lock (a node still votes once per height, but for
   * whatever its chain holds), so that a test can show the simulator catching conflicting final blocks.
   */
  unlockedVoting?: boolean;
}

export type ConsensusAction =
  /** Record this node's vote durably, then send it to every peer. */
  | { kind: 'vote'; vote: Vote }
  /** A block became final (and everything below it). */
  | { kind: 'final'; header: BlockHeader }
  /**
   * Follow another chain: take this node's blocks back to `commonHeight` (never below the final block) and
   * apply `path`, lowest first. `source` is a peer known to hold them.
   */
  | { kind: 'switch'; commonHeight: number; path: Hash[]; source?: number }
  /** A header referred to by a vote or a chain is unknown here: ask `source` for it. */
  | { kind: 'fetch'; hash: Hash; source: number }
  /**
   * `peer` sent or made something no honest node sends (two different votes at one height, a block that
   * fails its checks): stop listening to it for a while. `'sender'` is the peer that sent a refused block
   * when it is no voter (a follower passing blocks on), which has no position here.
   */
  | { kind: 'ban'; peer: number | 'sender'; reason: string };

/** Why {@link ConsensusCore.headerProblem} will not take a header. */
export interface HeaderProblem {
  kind: 'not-leader' | 'not-after-parent' | 'ahead' | 'below-final';
  reason: string;
}

/** What a driver found wrong with something a peer sent, for {@link ConsensusCore.refused}. */
export interface Refusal {
  /** The voter it came from, or -1 (a follower, or a peer this node cannot place). */
  source: number;
  reason: string;
  /**
   * The block, when its producer's signature over it held and the checks' verdict is final (not a local
   * failure that may pass another time): its producer made it and answers for it too.
   */
  block?: { hash: Hash; producer: number };
}

/**
 * The share of its slot a leader waits, at the start, for the previous slot's block when its chain does not
 * hold one yet. Under load a leader may still be writing its block as its slot ends: measured, one block in
 * the first 100 ms of the next slot; the next leader, not yet told of it, built beside it, and one of the
 * two was taken back with its transactions.
 */
export const PREVIOUS_BLOCK_GRACE_SHARE = 0.25;

/** How many blocks no peer served the core remembers ({@link ConsensusCore.unavailable}). */
const UNOBTAINABLE_KEPT = 256;

/** More than half. */
export function quorumOf(voters: number): number {
  return Math.floor(voters / 2) + 1;
}

export function slotAt(schedule: SlotSchedule, nowMs: number): number {
  return Math.floor((nowMs - schedule.startMs) / schedule.slotMs);
}

export function leaderOfSlot(slot: number, voters: number): number {
  return ((slot % voters) + voters) % voters;
}

/**
 * Vote aggregation's collectors: the voters that gather the votes for a block of `slot` and pass them on to
 * everyone, instead of every voter sending its vote to every other (N² messages a block). They are the
 * leaders of the `count` slots that follow, who need those votes first to pick the chain they build on;
 * more than one, so that one crashed or faulty collector loses no vote.
 */
export function voteCollectors(slot: number, voters: number, count: number): number[] {
  const collectors: number[] = [];
  for (let next = slot + 1; collectors.length < Math.min(count, voters); next++) {
    const leader = leaderOfSlot(next, voters);
    if (!collectors.includes(leader)) collectors.push(leader);
  }
  return collectors;
}

/** What a header is judged against ({@link headerProblemIn}). */
export interface HeaderContext {
  /** The voters and the slots of the header's time. */
  voters: number;
  schedule: SlotSchedule;
  /** Its parent, when known. */
  parent?: Pick<BlockHeader, 'height' | 'slot'>;
  /** The highest final block's height, when known. */
  finalHeight?: number;
}

/**
 * Whether a received header may be taken, apart from running its block: its producer led its slot, the
 * slot comes after its parent's and is not ahead of the clock (`nowMs` plus `toleranceMs`), and it is
 * above the final block. The first two are faults no honest node makes; the last two may be a clock or a
 * late message. The consensus core judges with what it holds; the node's block receiver with the voters
 * active at the block's time and its chain's tip, so that a node catching up takes blocks made before the
 * voters changed.
 */
export function headerProblemIn(
  header: BlockHeader,
  context: HeaderContext,
  nowMs: number,
  toleranceMs: number,
): HeaderProblem | undefined {
  const { voters, schedule, parent, finalHeight } = context;
  if (leaderOfSlot(header.slot, voters) !== header.producer) {
    return {
      kind: 'not-leader',
      reason: `node ${header.producer} is not the leader of slot ${header.slot}`,
    };
  }
  if (header.slot > slotAt(schedule, nowMs + toleranceMs))
    return { kind: 'ahead', reason: `slot ${header.slot} is ahead of our clock` };
  // A leader may make several blocks in its slot, one after another.
  if (parent && (parent.height + 1 !== header.height || parent.slot > header.slot)) {
    return {
      kind: 'not-after-parent',
      reason: `block ${header.height} does not follow its parent's height and slot`,
    };
  }
  if (finalHeight !== undefined && header.height <= finalHeight) {
    return { kind: 'below-final', reason: `block ${header.height} is below the final block` };
  }
  return undefined;
}

/** What {@link ConsensusCore.mayProduce} allows: a block on `parent` in `slot`, begun before `buildEndsAtMs`. */
export interface ProductionTurn {
  slot: number;
  parent: BlockHeader;
  /**
   * With other voters, the end of the slot's build share: the rest of the slot is for the block to reach
   * them and be run there before the next leader builds. A lone voter's never ends (back-to-back blocks).
   */
  buildEndsAtMs: number;
}

export class ConsensusCore {
  readonly quorum: number;
  private readonly headers = new Map<Hash, BlockHeader>();
  private readonly children = new Map<Hash, Set<Hash>>();
  /** Votes by height, then voter: the first one each voter sent for that height. */
  private readonly votes = new Map<number, Map<number, Hash>>();
  /** Each voter's vote at its highest height: the one the fork choice counts. */
  private readonly latest = new Map<number, { height: number; hash: Hash }>();
  /**
   * The same votes counted by height, then block: kept as votes come in, so that finality and the voting
   * rule need not count a height's votes again on every event (a stalled run holds thousands of heights).
   */
  private readonly tally = new Map<number, Map<Hash, number>>();
  /** The block with votes of a majority at each height that has one: all `settleFinality` need look at. */
  private readonly majorities = new Map<number, Hash>();
  /** This node's own votes by height (its entries in `votes`): the only ones the voting rule checks. */
  private readonly ownVotes = new Map<number, Hash>();
  /**
   * Every height from the final block's up to this one holds a vote of this node's: where
   * `voteWhereAllowed` starts looking (it may lag behind; it is moved up lazily).
   */
  private votedThrough = 0;
  /**
   * Bumped whenever something the fork choice reads changes (headers, the final block, a voter's latest
   * vote): `head()` is asked after every event, and most events (votes heard before, headers known) change
   * none of it, so its answer is kept until this moves.
   */
  private forkChoiceVersion = 0;
  private cachedHead: { version: number; head: BlockHeader } | undefined;
  /**
   * The fork choice's weights (how many voters' latest votes lie on or under each block above the final
   * one), kept up to date as a voter's latest vote moves and worked out again from scratch only after
   * headers or the final block change: a vote is an event a block, a header one per block.
   */
  private weights: Map<Hash, number> | undefined;
  /**
   * Blocks of this node's chain by height, from `chainBase` up: the highest final block this node holds
   * (the final block itself, unless the network finalised a branch this node has yet to switch to).
   */
  private chain: Hash[] = [];
  private chainBase: number;
  private finalHeader: BlockHeader;
  /** Who told this node of a header (to fetch its block or ancestors from). */
  private readonly heardFrom = new Map<Hash, number>();
  private readonly requested = new Set<Hash>();
  /**
   * Blocks that no peer served when asked ({@link fetchFailed}, {@link unavailable}), until one is
   * learned: a chain resting on one is still asked for when named again, but is no sign that this node is
   * behind. A producer that announces blocks and serves none would otherwise keep every leader from its
   * slot by announcing more. Bounded: the oldest entries go first.
   */
  private readonly unobtainable = new Set<Hash>();
  /**
   * This node's own votes for blocks that conflict with a final block: they can never win (two
   * conflicting witnesses would need a broken voting rule before), so they hold no lock. Without this a
   * node that voted along a branch that lost to a final block could never vote again.
   */
  private readonly abandoned = new Set<Hash>();
  /**
   * Blocks found bad here (and blocks learned on top of one): never fetched, taken or chosen again. Kept in
   * memory only: after a restart a bad block is refused again when met, and its makers banned again.
   */
  private readonly bad = new Set<Hash>();

  constructor(
    readonly options: ConsensusOptions,
    /** The last final block this node knows (the genesis block on a new chain). */
    final: BlockHeader,
    /** This node's applied chain above `final`, lowest first. */
    applied: readonly BlockHeader[] = [],
    /** Votes recorded before (this node's own, which it must never contradict). */
    recorded: readonly Vote[] = [],
  ) {
    this.quorum = quorumOf(options.voters);
    this.finalHeader = final;
    this.headers.set(final.hash, final);
    this.chain = [final.hash];
    this.chainBase = final.height;
    for (const header of applied) {
      this.addHeader(header);
      this.chain.push(header.hash);
    }
    for (const vote of recorded) this.recordVote(vote);
  }

  get final(): BlockHeader {
    return this.finalHeader;
  }

  get tip(): BlockHeader {
    return this.headers.get(this.chain[this.chain.length - 1])!;
  }

  header(hash: Hash): BlockHeader | undefined {
    return this.headers.get(hash);
  }

  /** The hash of this node's block at `height`, when it is at or above the final block it holds. */
  chainAt(height: number): Hash | undefined {
    return height < this.chainBase ? undefined : this.chain[height - this.chainBase];
  }

  /** The lowest height this node may take its chain back to: the highest final block it holds. */
  get rollbackFloor(): number {
    return this.chainBase;
  }

  /** The voters this node has a vote from at `height`, for `hash`. */
  votesFor(height: number, hash: Hash): number {
    return this.tally.get(height)?.get(hash) ?? 0;
  }

  /** Every recorded vote at or above `fromHeight`, this node's own first: what a peer may be missing. */
  votesSince(fromHeight: number, voter?: number): Vote[] {
    const found: Vote[] = [];
    for (const [height, byVoter] of this.votes) {
      if (height < fromHeight) continue;
      for (const [who, hash] of byVoter) {
        if (voter === undefined || who === voter) found.push({ voter: who, height, hash });
      }
    }
    return found.sort((a, b) => a.height - b.height || a.voter - b.voter);
  }

  // ------------------------------------------------------------------------------------------ events

  /**
   * Headers of a chain another node holds, lowest first, each the parent of the next (its first one's
   * parent must be known here, or it is asked for). Returns what to do about them.
   */
  learned(headers: readonly BlockHeader[], source: number): ConsensusAction[] {
    const actions: ConsensusAction[] = [];
    for (const header of headers) {
      if (header.height <= this.finalHeader.height || this.isBad(header.hash, header.parent)) continue;
      if (!this.headers.has(header.hash)) {
        this.addHeader(header);
        this.heardFrom.set(header.hash, source);
      }
      // Asked for and now here: a later need of it (after it is forgotten as unavailable) asks again.
      this.requested.delete(header.hash);
      this.unobtainable.delete(header.hash);
    }
    const first = headers.find((header) => header.height > this.finalHeader.height);
    if (first && !this.headers.has(first.parent) && first.height - 1 > this.finalHeader.height) {
      actions.push(...this.fetchOnce(first.parent, source));
    }
    actions.push(...this.decide());
    return actions;
  }

  /** This node applied `header` on its tip (made it, or ran a peer's block). */
  applied(header: BlockHeader): ConsensusAction[] {
    this.requested.delete(header.hash);
    if (header.parent !== this.tip.hash || header.height !== this.tip.height + 1) {
      throw new Error(`block ${header.height} does not follow the tip ${this.tip.height}`);
    }
    this.addHeader(header);
    this.chain.push(header.hash);
    // Back on the branch the network finalised: nothing below its final block may be taken back now.
    if (header.hash === this.finalHeader.hash) this.prune(true);
    return [...this.voteWhereAllowed(), ...this.decide()];
  }

  /** This node took its blocks back to `height` (a switch under way). */
  rolledBack(height: number): void {
    if (height < this.chainBase) {
      throw new Error(`block ${this.chainBase} is final: the chain cannot go back to ${height}`);
    }
    this.chain.length = height - this.chainBase + 1;
  }

  /**
   * The block `hash` cannot be had or is invalid: it and what was learned on top of it are forgotten (a
   * vote or a chain naming it again brings it back), so the fork choice does not wait for it.
   */
  unavailable(hash: Hash): ConsensusAction[] {
    this.forget(hash);
    this.noPeerServed(hash);
    return this.decide();
  }

  /**
   * A peer sent something that failed the driver's checks (a block that does not decode, is not signed by
   * its producer, is not its producer's to make, or does not run as it says): who is banned is decided
   * here. The source always is, voter or not; when the producer's signature held, the producer too, and
   * the block is bad for good — it and every block learned on top of it are forgotten and never taken again.
   */
  refused(refusal: Refusal): ConsensusAction[] {
    const { self } = this.options;
    const actions: ConsensusAction[] = [];
    const ban = (peer: number | 'sender') => {
      if (peer !== self && !actions.some((action) => action.kind === 'ban' && action.peer === peer)) {
        actions.push({ kind: 'ban', peer, reason: refusal.reason });
      }
    };
    ban(refusal.source >= 0 ? refusal.source : 'sender');
    if (refusal.block !== undefined) {
      if (refusal.block.producer >= 0) ban(refusal.block.producer);
      this.bad.add(refusal.block.hash);
      this.forget(refusal.block.hash);
    }
    actions.push(...this.decide());
    return actions;
  }

  /** Whether block `hash` was found bad here, or lies on one (`parent` given: it is marked bad too, then). */
  isBad(hash: Hash, parent?: Hash): boolean {
    if (parent !== undefined && this.bad.has(parent)) this.bad.add(hash);
    return this.bad.has(hash);
  }

  /** Drops `hash` and what was learned on top of it, unless it is on this node's chain or final. */
  private forget(hash: Hash): void {
    const header = this.headers.get(hash);
    if (!header || this.chainAt(header.height) === hash || header.height <= this.finalHeader.height) return;
    const queue = [hash];
    while (queue.length > 0) {
      const next = queue.pop()!;
      queue.push(...(this.children.get(next) ?? []));
      const gone = this.headers.get(next);
      if (gone) this.children.get(gone.parent)?.delete(next);
      this.headers.delete(next);
      this.forkChoiceChanged();
      this.children.delete(next);
      this.heardFrom.delete(next);
      this.requested.delete(next);
      if (this.bad.has(hash)) this.bad.add(next);
    }
  }

  /** Votes a peer sent (its own, or ones it passed on). */
  received(votes: readonly Vote[], source: number): ConsensusAction[] {
    const actions: ConsensusAction[] = [];
    // A peer's status re-sends the votes of many heights, sorted by height, nearly all of them known here
    // and for few blocks: the last height's votes and the last block found known are kept at hand (headers
    // do not change in this loop, and a missing one is asked for once anyway).
    const finalHeight = this.finalHeader.height;
    let height: number | undefined;
    let byVoter: Map<number, Hash> | undefined;
    let known: Hash | undefined;
    for (const vote of votes) {
      if (vote.height !== height) {
        height = vote.height;
        byVoter = this.votes.get(height);
      }
      const earlier = byVoter?.get(vote.voter);
      if (earlier !== undefined && earlier !== vote.hash) {
        actions.push({
          kind: 'ban',
          peer: vote.voter,
          reason: `two votes at height ${vote.height}`,
        });
        continue;
      }
      if (vote.height <= finalHeight) continue;
      if (earlier === undefined) {
        this.recordVote(vote);
        byVoter = this.votes.get(height);
      }
      if (vote.hash === known) continue;
      // Asked again on a repeated vote too: a fetch that failed (or a block forgotten as unavailable)
      // must not leave a block with a majority of votes unknown for good.
      if (this.headers.has(vote.hash)) known = vote.hash;
      else actions.push(...this.fetchOnce(vote.hash, source));
    }
    actions.push(...this.settleFinality(), ...this.voteWhereAllowed(), ...this.decide());
    return actions;
  }

  /**
   * Whether this node makes a block now, and on which: it is a voter, the slot is its own and its build
   * share is not over, its chain is the one the fork choice picks, no block of this slot is on it yet, the
   * previous slot's block is on it or {@link PREVIOUS_BLOCK_GRACE_SHARE} of the slot has passed, and no
   * chain it knows but cannot place yet (ancestors still unknown) is `behindLimit` blocks ahead of it.
   */
  mayProduce(nowMs: number): ProductionTurn | undefined {
    const { self, voters, schedule } = this.options;
    if (self < 0) return undefined;
    const slot = slotAt(schedule, nowMs);
    if (leaderOfSlot(slot, voters) !== self) return undefined;
    const buildEndsAtMs = this.buildEndsAt(slot);
    if (nowMs >= buildEndsAtMs) return undefined;
    const tip = this.tip;
    if (tip.slot > slot) return undefined;
    if (voters > 1 && tip.slot < slot - 1 && nowMs < this.previousBlockWaitEndsAt(slot)) return undefined;
    if (this.head().hash !== tip.hash) return undefined;
    if (this.highestKnown() - tip.height >= this.options.behindLimit) return undefined;
    return { slot, parent: tip, buildEndsAtMs };
  }

  /**
   * When the leader of `slot` stops waiting for the previous slot's block ({@link PREVIOUS_BLOCK_GRACE_SHARE}
   * into its slot): a producer that found no turn at the slot's start looks again then.
   */
  previousBlockWaitEndsAt(slot: number): number {
    const { schedule } = this.options;
    return schedule.startMs + (slot + PREVIOUS_BLOCK_GRACE_SHARE) * schedule.slotMs;
  }

  /** Whether `nowMs` is within this node's own slot and its build share (whatever its chain holds). */
  inOwnBuildShare(nowMs: number): boolean {
    const { self, voters, schedule } = this.options;
    const slot = slotAt(schedule, nowMs);
    return self >= 0 && leaderOfSlot(slot, voters) === self && nowMs < this.buildEndsAt(slot);
  }

  /**
   * When a producer that found no turn at `nowMs` looks again (besides when a block is applied here or
   * transactions come): within its own build share, when the wait for the previous slot's block ends if it
   * is waiting for it, else after `pollMs` (the chain may catch up); otherwise at its next slot.
   */
  nextLookAt(nowMs: number, pollMs: number): number {
    const next = this.nextOwnSlotStart(nowMs);
    if (!this.inOwnBuildShare(nowMs)) return next;
    const waitEnds = this.previousBlockWaitEndsAt(slotAt(this.options.schedule, nowMs));
    return Math.min(next, nowMs < waitEnds ? waitEnds : nowMs + pollMs);
  }

  /** When this node's next slot starts after `nowMs`; never for a follower. */
  nextOwnSlotStart(nowMs: number): number {
    const { self, voters, schedule } = this.options;
    if (self < 0) return Number.POSITIVE_INFINITY;
    let slot = slotAt(schedule, nowMs) + 1;
    while (leaderOfSlot(slot, voters) !== self) slot++;
    return schedule.startMs + slot * schedule.slotMs;
  }

  /**
   * Whether a block this node stamps with `timeMs` falls in its own slot, as its peers will check
   * ({@link headerProblem}): a block's time is whole seconds, and a tip stamped by a clock ahead of this
   * node's may push it past the slot.
   */
  stampsOwnSlot(timeMs: number): boolean {
    const { self, voters, schedule } = this.options;
    return self >= 0 && leaderOfSlot(slotAt(schedule, timeMs), voters) === self;
  }

  private buildEndsAt(slot: number): number {
    const { voters, schedule, buildShare } = this.options;
    if (voters === 1) return Number.POSITIVE_INFINITY;
    return schedule.startMs + (slot + buildShare) * schedule.slotMs;
  }

  /**
   * Whether a received header may be taken, apart from running its block ({@link headerProblemIn}, judged
   * by this core's voters and slots, its parent where the core knows it, and its final block).
   */
  headerProblem(header: BlockHeader, nowMs: number, toleranceMs: number): HeaderProblem | undefined {
    const { voters, schedule } = this.options;
    return headerProblemIn(
      header,
      { voters, schedule, parent: this.headers.get(header.parent), finalHeight: this.finalHeader.height },
      nowMs,
      toleranceMs,
    );
  }

  // ------------------------------------------------------------------------------------- decisions

  /** The block the fork choice picks: the tip of the chain this node should hold. */
  head(): BlockHeader {
    if (this.cachedHead?.version === this.forkChoiceVersion) return this.cachedHead.head;
    const head = this.options.forkChoice === 'longest' ? this.longestHead() : this.heaviestHead();
    this.cachedHead = { version: this.forkChoiceVersion, head };
    return head;
  }

  private heaviestHead(): BlockHeader {
    const weight = (this.weights ??= this.countWeights());
    let head = this.finalHeader;
    for (;;) {
      let best: BlockHeader | undefined;
      for (const child of this.children.get(head.hash) ?? []) {
        const candidate = this.headers.get(child)!;
        if (!best || this.heavier(candidate, best, weight)) best = candidate;
      }
      if (!best) return head;
      head = best;
    }
  }

  /** Each latest vote counts for its block and every known ancestor above the final block. */
  private countWeights(): Map<Hash, number> {
    const weight = new Map<Hash, number>();
    for (const vote of this.latest.values()) {
      for (let header = this.liveHeader(vote.hash); header; header = this.liveHeader(header.parent)) {
        weight.set(header.hash, (weight.get(header.hash) ?? 0) + 1);
      }
    }
    return weight;
  }

  /** A known header above the final block, or undefined: where a vote's count stops. */
  private liveHeader(hash: Hash): BlockHeader | undefined {
    const header = this.headers.get(hash);
    return header && header.height > this.finalHeader.height ? header : undefined;
  }

  /**
   * A voter's latest vote moved from `from` to `to`: its count leaves the blocks only `from` lies on and
   * joins those only `to` lies on. The two paths are walked down by height until they meet; from there on
   * they are one path, whose counts do not change (usually `to` is a child of `from`: one block changes).
   */
  private moveWeight(weight: Map<Hash, number>, from: Hash | undefined, to: Hash): void {
    let leaving = from === undefined ? undefined : this.liveHeader(from);
    let joining = this.liveHeader(to);
    while (leaving || joining) {
      if (leaving && joining && leaving.hash === joining.hash) return;
      if (joining && (!leaving || joining.height >= leaving.height)) {
        weight.set(joining.hash, (weight.get(joining.hash) ?? 0) + 1);
        joining = this.liveHeader(joining.parent);
      } else if (leaving) {
        weight.set(leaving.hash, (weight.get(leaving.hash) ?? 0) - 1);
        leaving = this.liveHeader(leaving.parent);
      }
    }
  }

  /** Headers or the final block changed: the fork choice is worked out again, its weights from scratch. */
  private forkChoiceChanged(): void {
    this.forkChoiceVersion++;
    this.weights = undefined;
  }

  private heavier(a: BlockHeader, b: BlockHeader, weight: Map<Hash, number>): boolean {
    const difference = (weight.get(a.hash) ?? 0) - (weight.get(b.hash) ?? 0);
    if (difference !== 0) return difference > 0;
    if (a.slot !== b.slot) return a.slot < b.slot;
    return a.hash < b.hash;
  }

  private longestHead(): BlockHeader {
    let head = this.finalHeader;
    for (const header of this.headers.values()) {
      if (!this.descendsFromFinal(header)) continue;
      if (header.height > head.height || (header.height === head.height && header.hash < head.hash)) {
        head = header;
      }
    }
    return head;
  }

  /** After any change: if the fork choice moved away from this node's tip, the switch to make. */
  private decide(): ConsensusAction[] {
    const head = this.head();
    if (head.hash === this.tip.hash) return [];
    const path: Hash[] = [];
    let at: BlockHeader | undefined = head;
    while (at && this.chainAt(at.height) !== at.hash) {
      path.push(at.hash);
      at = this.headers.get(at.parent);
    }
    if (!at) return [];
    // Gathered from the head down, then turned round (unshift on every step costs the square of a deep
    // switch's length, and a stalled run has switches hundreds of blocks deep).
    path.reverse();
    // The head extending this node's tip only by blocks it has not got yet is not a switch but a catch-up:
    // the same action, with nothing to take back.
    return [{ kind: 'switch', commonHeight: at.height, path, source: this.heardFrom.get(head.hash) }];
  }

  /** Votes for the blocks of this node's chain it has not voted at, where the voting rule allows. */
  private voteWhereAllowed(): ConsensusAction[] {
    if (this.options.self < 0) return [];
    // A chain off the final block's branch conflicts with it: the voting rule no longer sees the votes
    // at and below the final height, so a vote here could help a block conflicting with a final one.
    if (this.chainAt(this.finalHeader.height) !== this.finalHeader.hash) return [];
    const actions: ConsensusAction[] = [];
    let from = Math.max(this.votedThrough, this.finalHeader.height);
    while (this.ownVotes.has(from + 1)) from++;
    this.votedThrough = from;
    for (let height = from + 1; height <= this.tip.height; height++) {
      if (this.ownVotes.has(height)) continue;
      const hash = this.chainAt(height)!;
      // A block of this chain that the rule refuses has an earlier vote of this node's off this chain that
      // may still win, and every block above it on this chain conflicts with that vote too: stop here.
      // (Without this a node locked out of a long stalled chain would check every block of it each event.)
      if (!this.mayVote(this.headers.get(hash)!)) break;
      const vote = { voter: this.options.self, height, hash };
      this.recordVote(vote);
      actions.push({ kind: 'vote', vote });
    }
    return [...actions, ...(actions.length > 0 ? this.settleFinality() : [])];
  }

  /** The voting rule: no earlier vote of this node's that `block` conflicts with may still gather a majority. */
  private mayVote(block: BlockHeader): boolean {
    if (this.options.unlockedVoting) return true;
    for (const [height, mine] of this.ownVotes) {
      if (height <= this.finalHeader.height) continue;
      if (this.abandoned.has(mine) || !this.conflicts(block, height, mine)) continue;
      if (this.mayStillWin(height, mine)) return false;
    }
    return true;
  }

  /** Whether `hash` at `height` could still get votes of a majority, given the votes seen at that height. */
  private mayStillWin(height: number, hash: Hash): boolean {
    const others = (this.votes.get(height)?.size ?? 0) - this.votesFor(height, hash);
    return this.options.voters - others >= this.quorum;
  }

  /** Whether `block` and the block `hash` at `height` are on different branches. */
  private conflicts(block: BlockHeader, height: number, hash: Hash): boolean {
    if (height <= block.height) return this.ancestorAt(block.hash, height) !== hash;
    const ancestor = this.ancestorAt(hash, block.height);
    // An earlier vote whose header is gone (below the final block) cannot be checked: count it a conflict.
    return ancestor !== block.hash;
  }

  private ancestorAt(hash: Hash, height: number): Hash | undefined {
    let header = this.headers.get(hash);
    // On this node's chain the answer is at hand: the chain is a run of known headers, each the parent of
    // the next, so the walk below would end on the same block (and it may be thousands of blocks long).
    if (header && height >= this.chainBase && height <= header.height && this.chainAt(header.height) === hash)
      return this.chainAt(height);
    while (header && header.height > height) header = this.headers.get(header.parent);
    return header?.height === height ? header.hash : undefined;
  }

  /** Moves the final block up to the highest block with a majority of votes whose ancestry is known. */
  private settleFinality(): ConsensusAction[] {
    // The highest one: each voter has one vote per height, so a height has one majority at most.
    let witness: BlockHeader | undefined;
    for (const [height, hash] of this.majorities) {
      if (height <= this.finalHeader.height || (witness && height <= witness.height)) continue;
      const header = this.headers.get(hash);
      if (header && this.descendsFromFinal(header)) witness = header;
    }
    if (!witness) return [];
    const onChain = this.chainAt(witness.height) === witness.hash;
    this.finalHeader = witness;
    this.forkChoiceChanged();
    this.prune(onChain);
    return [{ kind: 'final', header: witness }];
  }

  private descendsFromFinal(header: BlockHeader): boolean {
    return this.ancestorAt(header.hash, this.finalHeader.height) === this.finalHeader.hash;
  }

  /**
   * Forgets what lies below the highest final block this node holds, or beside the chain from it. Kept:
   * everything descending from that block, which includes the final block's ancestry and this node's own
   * branch, so that a switch from one to the other can be worked out.
   */
  private prune(onChain: boolean): void {
    this.forkChoiceChanged();
    if (onChain) {
      this.chain = this.chain.slice(this.finalHeader.height - this.chainBase);
      this.chainBase = this.finalHeader.height;
    }
    const base = this.chain[0];
    const keep = new Set<Hash>([base]);
    const queue = [base];
    while (queue.length > 0) {
      for (const child of this.children.get(queue.pop()!) ?? []) {
        keep.add(child);
        queue.push(child);
      }
    }
    const own = this.options.self;
    for (const [hash, header] of this.headers) {
      if (keep.has(hash) || header.height <= this.finalHeader.height) continue;
      if (this.votes.get(header.height)?.get(own) === hash) this.abandoned.add(hash);
    }
    for (const hash of [...this.headers.keys()]) {
      if (keep.has(hash)) continue;
      this.headers.delete(hash);
      this.heardFrom.delete(hash);
    }
    // Also the child lists of parents never known here: a header learned before its parent, then pruned,
    // must not come back as a child when the parent is learned later.
    for (const parent of [...this.children.keys()]) if (!keep.has(parent)) this.children.delete(parent);
    for (const height of [...this.votes.keys()]) {
      if (height >= this.chainBase) continue;
      this.votes.delete(height);
      this.tally.delete(height);
      this.ownVotes.delete(height);
    }
    for (const height of [...this.majorities.keys()])
      if (height < this.chainBase) this.majorities.delete(height);
  }

  private addHeader(header: BlockHeader): void {
    let siblings = this.children.get(header.parent);
    if (this.headers.get(header.hash) === header && siblings?.has(header.hash)) return;
    this.forkChoiceChanged();
    this.headers.set(header.hash, header);
    if (!siblings) this.children.set(header.parent, (siblings = new Set()));
    siblings.add(header.hash);
  }

  private recordVote(vote: Vote): void {
    let byVoter = this.votes.get(vote.height);
    if (!byVoter) this.votes.set(vote.height, (byVoter = new Map()));
    const replaced = byVoter.get(vote.voter);
    byVoter.set(vote.voter, vote.hash);
    if (replaced !== undefined) this.count(vote.height, replaced, -1);
    this.count(vote.height, vote.hash, 1);
    if (vote.voter === this.options.self) this.ownVotes.set(vote.height, vote.hash);
    const latest = this.latest.get(vote.voter);
    if (!latest || latest.height < vote.height) {
      if (this.weights) this.moveWeight(this.weights, latest?.hash, vote.hash);
      this.latest.set(vote.voter, vote);
      this.forkChoiceVersion++;
    }
  }

  private count(height: number, hash: Hash, change: number): void {
    let byHash = this.tally.get(height);
    if (!byHash) this.tally.set(height, (byHash = new Map()));
    const count = (byHash.get(hash) ?? 0) + change;
    byHash.set(hash, count);
    if (count >= this.quorum) this.majorities.set(height, hash);
    else if (this.majorities.get(height) === hash) this.majorities.delete(height);
  }

  private fetchOnce(hash: Hash, source: number): ConsensusAction[] {
    if (this.requested.has(hash) || this.bad.has(hash)) return [];
    this.requested.add(hash);
    return [{ kind: 'fetch', hash, source }];
  }

  /**
   * No peer served a block this core asked for: it may be asked for again (of another source) when
   * something names it again, and a chain resting on it is no sign that this node is behind.
   */
  fetchFailed(hash: Hash): void {
    this.requested.delete(hash);
    this.noPeerServed(hash);
  }

  private noPeerServed(hash: Hash): void {
    this.unobtainable.add(hash);
    if (this.unobtainable.size > UNOBTAINABLE_KEPT) {
      this.unobtainable.delete(this.unobtainable.values().next().value as Hash);
    }
  }

  /**
   * The height of the highest chain this node knows of but cannot place yet (its ancestry is still being
   * fetched): a sign that this node is behind. Chains that reach the final block were weighed by the fork
   * choice already, chains beside the final block are dead, and chains on a block no peer served are no
   * sign of the others' progress: none of them keeps a leader from its slot.
   */
  private highestKnown(): number {
    let highest = this.tip.height;
    const final = this.finalHeader;
    for (const header of this.headers.values()) {
      if (header.height <= highest) continue;
      let lowest = header;
      for (let parent = this.headers.get(lowest.parent); parent && parent.height > final.height;) {
        lowest = parent;
        parent = this.headers.get(lowest.parent);
      }
      if (lowest.height > final.height + 1 && !this.unobtainable.has(lowest.parent)) highest = header.height;
    }
    return highest;
  }
}

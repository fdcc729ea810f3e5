import { describe, expect, it } from 'vitest';
import {
  type BlockHeader,
  type ConsensusAction,
  ConsensusCore,
  headerProblemIn,
  type Vote,
  voteCollectors,
} from './consensus-core';

const GENESIS: BlockHeader = { height: 0, hash: 'g', parent: '', slot: -1, producer: 0 };

function block(parent: BlockHeader, hash: string, slot: number, producer = slot % 5): BlockHeader {
  return { height: parent.height + 1, hash, parent: parent.hash, slot, producer };
}

function core(self: number, voters = 5): ConsensusCore {
  return new ConsensusCore(
    { self, voters, schedule: { startMs: 0, slotMs: 1000 }, buildShare: 0.5, behindLimit: 3 },
    GENESIS,
  );
}

function votes(actions: ConsensusAction[]): Vote[] {
  return actions.flatMap((action) => (action.kind === 'vote' ? [action.vote] : []));
}

function finals(actions: ConsensusAction[]): string[] {
  return actions.flatMap((action) => (action.kind === 'final' ? [action.header.hash] : []));
}

describe('ConsensusCore', () => {
  it('makes a block final with votes of more than half of the voters, not before', () => {
    const node = core(0);
    const a = block(GENESIS, 'a', 1);
    expect(votes(node.applied(a))).toEqual([{ voter: 0, height: 1, hash: 'a' }]);
    expect(finals(node.received([{ voter: 1, height: 1, hash: 'a' }], 1))).toEqual([]);
    expect(node.final.hash).toBe('g');
    expect(finals(node.received([{ voter: 2, height: 1, hash: 'a' }], 2))).toEqual(['a']);
    expect(node.final.hash).toBe('a');
  });

  it('keeps its vote locked while the earlier block may still win, and unlocks on a split', () => {
    const node = core(0);
    const a = block(GENESIS, 'a', 1);
    const b = block(GENESIS, 'b', 2);
    node.applied(a);
    node.learned([b], 2);
    // Two more for b: a may still win (0 + two unseen voters = 3), so no vote on b's branch.
    node.received(
      [
        { voter: 2, height: 1, hash: 'b' },
        { voter: 3, height: 1, hash: 'b' },
      ],
      2,
    );
    const switched = node.received([], 2).find((action) => action.kind === 'switch');
    expect(switched).toMatchObject({ commonHeight: 0, path: ['b'] });
    node.rolledBack(0);
    node.applied(b);
    const b2 = block(b, 'b2', 3);
    expect(votes(node.applied(b2))).toEqual([]);
    // Voter 4 for a third block: a has 1 vote and 3 against it of 5, it can no longer reach 3.
    const actions = node.received([{ voter: 4, height: 1, hash: 'c' }], 4);
    expect(votes(actions)).toEqual([{ voter: 0, height: 2, hash: 'b2' }]);
  });

  it('never chooses a minority branch over a majority one, longer or earlier as it may be', () => {
    const node = core(4);
    const minority = block(GENESIS, 'm', 1);
    const minority2 = block(minority, 'm2', 1);
    const minority3 = block(minority2, 'm3', 1);
    const majority = block(GENESIS, 'z', 2);
    node.learned([minority, minority2, minority3], 1);
    node.learned([majority], 2);
    node.received(
      [
        { voter: 1, height: 3, hash: 'm3' },
        { voter: 2, height: 1, hash: 'z' },
        { voter: 3, height: 1, hash: 'z' },
      ],
      2,
    );
    expect(node.head().hash).toBe('z');
  });

  it('does not vote while its chain is off the branch the network made final', () => {
    const node = core(0);
    const a = block(GENESIS, 'a', 1);
    const b = block(GENESIS, 'b', 2);
    node.applied(a);
    node.learned([b], 2);
    const actions = node.received(
      [
        { voter: 2, height: 1, hash: 'b' },
        { voter: 3, height: 1, hash: 'b' },
        { voter: 4, height: 1, hash: 'b' },
      ],
      2,
    );
    expect(finals(actions)).toEqual(['b']);
    // Still on a (above the final block's height nothing to vote yet); a child of a gets no vote.
    expect(votes(node.applied(block(a, 'a2', 3)))).toEqual([]);
  });

  it('gives a leader its own slot up to the build share, and says when its next slot starts', () => {
    // Five voters, 1 s slots from 0: node 2 leads slots 2, 7, 12 …
    const node = core(2);
    expect(node.mayProduce(1_999)).toBeUndefined();
    // Slot 1's block is not on its chain: it waits a quarter of the slot for it, then builds without it.
    expect(node.mayProduce(2_100)).toBeUndefined();
    expect(node.mayProduce(2_250)).toMatchObject({ slot: 2, parent: GENESIS, buildEndsAtMs: 2_500 });
    expect(node.inOwnBuildShare(2_499)).toBe(true);
    expect(node.mayProduce(2_500)).toBeUndefined();
    expect(node.inOwnBuildShare(2_500)).toBe(false);
    expect(node.nextOwnSlotStart(2_100)).toBe(7_000);
    // Looking again: when the wait for slot 1's block ends, then every poll within the share, then next slot.
    expect(node.nextLookAt(2_100, 100)).toBe(2_250);
    expect(node.nextLookAt(2_300, 100)).toBe(2_400);
    expect(node.nextLookAt(2_600, 100)).toBe(7_000);
    // A block's time is whole seconds: one stamped within slot 7 passes its peers' check, one in slot 8 not.
    expect(node.stampsOwnSlot(7_000)).toBe(true);
    expect(node.stampsOwnSlot(8_000)).toBe(false);
    // A follower leads nothing; a lone voter builds back to back with no share's end.
    expect(core(-1).mayProduce(2_100)).toBeUndefined();
    expect(core(-1).nextOwnSlotStart(2_100)).toBe(Number.POSITIVE_INFINITY);
    expect(core(-1).nextLookAt(2_100, 100)).toBe(Number.POSITIVE_INFINITY);
    expect(core(0, 1).mayProduce(2_900)).toMatchObject({ slot: 2, buildEndsAtMs: Number.POSITIVE_INFINITY });
    // With the previous slot's block on its chain, a leader builds at once.
    const next = core(3);
    next.applied(block(GENESIS, 'a', 2, 2));
    expect(next.mayProduce(3_010)).toMatchObject({ slot: 3, parent: { hash: 'a' } });
  });
  it('counts a chain it cannot place as a sign of being behind, unless it rests on a block no peer served', () => {
    // Node 3 leads slot 3. Node 1 announced blocks 2 to 4 of slot 1 on a block 1 it has not served.
    const node = core(3);
    const w1 = block(GENESIS, 'w1', 1);
    const w2 = block(w1, 'w2', 1);
    const w3 = block(w2, 'w3', 1);
    expect(node.learned([w2, w3], 1)).toContainEqual({ kind: 'fetch', hash: 'w1', source: 1 });
    // Still being fetched: this node may be three blocks behind, and makes none.
    expect(node.mayProduce(3_300)).toBeUndefined();
    // No peer served it (the network's fetch came to nothing): the announcements on it are no sign of the
    // others' progress. The running node reports that through fetchFailed, the simulator through both.
    node.fetchFailed('w1');
    node.learned([block(w3, 'w4', 1)], 1);
    expect(node.mayProduce(3_300)).toMatchObject({ slot: 3, parent: GENESIS });
    // Served after all: the chain is placed, and the fork choice follows it instead.
    expect(node.learned([w1], 1)).toContainEqual(
      expect.objectContaining({ kind: 'switch', commonHeight: 0 }),
    );
    expect(node.mayProduce(3_300)).toBeUndefined();
  });

  it("names a block's vote collectors: the leaders of the slots after it, each once", () => {
    expect(voteCollectors(3, 5, 2)).toEqual([4, 0]);
    expect(voteCollectors(4, 5, 3)).toEqual([0, 1, 2]);
    // Never more than the voters, and a lone voter collects its own votes.
    expect(voteCollectors(0, 2, 3)).toEqual([1, 0]);
    expect(voteCollectors(7, 1, 2)).toEqual([0]);
  });

  it('bans whoever sent a refused block, its producer too when it signed it, and never takes it again', () => {
    const node = core(0);
    const a = block(GENESIS, 'a', 1);
    const b = block(a, 'b', 2);
    node.learned([a, b], 3);
    const bans = (actions: ConsensusAction[]) =>
      actions.flatMap((action) => (action.kind === 'ban' ? [action.peer] : []));
    // Signed by its producer (node 1) and passed on by node 3: both answer for it.
    expect(
      bans(node.refused({ source: 3, reason: 'runs otherwise here', block: { hash: 'a', producer: 1 } })),
    ).toEqual([3, 1]);
    expect(node.header('a')).toBeUndefined();
    expect(node.header('b')).toBeUndefined();
    expect(node.isBad('b')).toBe(true);
    // Learned again, or on top of it, or voted for: never taken or fetched.
    const c = block(b, 'c', 3);
    const again = node.learned([a, b, c], 2);
    expect(node.header('c')).toBeUndefined();
    expect(again.filter((action) => action.kind === 'fetch')).toEqual([]);
    expect(
      node.received([{ voter: 2, height: 1, hash: 'a' }], 2).filter((action) => action.kind === 'fetch'),
    ).toEqual([]);
    // Not signed by its producer (or not decoded): only the sender; never this node itself.
    expect(bans(node.refused({ source: 4, reason: 'bad signature' }))).toEqual([4]);
    expect(bans(node.refused({ source: 0, reason: 'own' }))).toEqual([]);
    // A follower passing a bad block on has no position: it is banned as the sender.
    expect(bans(node.refused({ source: -1, reason: 'a follower' }))).toEqual(['sender']);
  });
});

describe('headerProblemIn: a header judged apart from running its block', () => {
  const context = { voters: 3, schedule: { startMs: 0, slotMs: 1000 } };
  const header = (slot: number, producer: number, height = 5): BlockHeader => ({
    height,
    hash: 'h',
    parent: 'p',
    slot,
    producer,
  });
  const kindOf = (problem: ReturnType<typeof headerProblemIn>) => problem?.kind;

  it('takes a header of its slot leader, up to the clock and its tolerance', () => {
    expect(headerProblemIn(header(7, 1), context, 7_000, 0)).toBeUndefined();
    expect(headerProblemIn(header(9, 0), context, 7_000, 2_000)).toBeUndefined();
  });

  it('names the fault: another node than the leader, a slot ahead, a parent not before it, a final height', () => {
    expect(kindOf(headerProblemIn(header(7, 2), context, 7_000, 0))).toBe('not-leader');
    expect(kindOf(headerProblemIn(header(10, 1), context, 7_000, 2_000))).toBe('ahead');
    const parent = { height: 4, slot: 8 };
    expect(kindOf(headerProblemIn(header(7, 1), { ...context, parent }, 7_000, 0))).toBe('not-after-parent');
    expect(
      kindOf(headerProblemIn(header(7, 1, 6), { ...context, parent: { height: 4, slot: 6 } }, 7_000, 0)),
    ).toBe('not-after-parent');
    expect(kindOf(headerProblemIn(header(7, 1), { ...context, finalHeight: 5 }, 7_000, 0))).toBe(
      'below-final',
    );
    // A leader may make several blocks in its slot.
    expect(
      headerProblemIn(header(7, 1), { ...context, parent: { height: 4, slot: 7 }, finalHeight: 4 }, 7_000, 0),
    ).toBeUndefined();
  });
});

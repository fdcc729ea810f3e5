import { describe, expect, it } from 'vitest';
import { activeHonorNodes, agreedSlotMs, honorNodeProblems, positionOf, slotAt } from './honor-nodes';
import { parseHonorNodes, type HonorNode } from './platform-parameters.service';
import { leaderOfSlot } from '../consensus/consensus-core';

describe('parseHonorNodes: the platform parameter honor_nodes', () => {
  it('reads each entry, with the defaults of missing members', () => {
    expect(
      parseHonorNodes(
        '[{"tcp_address":"a:7078","api_address":"http://a:7079","public_key":"04ab","stopped":true}]',
      ),
    ).toEqual([
      {
        tcp_address: 'a:7078',
        api_address: 'http://a:7079',
        public_key: '04ab',
        unban_time: '0',
        stopped: true,
      },
    ]);
  });

  it('reads a null entry as an empty one, as Go unmarshals it (it was a TypeError answered as E_RECOVERED)', () => {
    expect(parseHonorNodes('[null]')).toEqual([
      { tcp_address: '', api_address: '', public_key: '', unban_time: '0', stopped: false },
    ]);
  });

  it('has no nodes when the text is not a list of objects', () => {
    for (const text of ['', 'x', '{}', '[1]', '["a"]', '[[]]'])
      expect(parseHonorNodes(text), text).toEqual([]);
  });
});

describe('honor nodes: validation, the active list and the slot leader', () => {
  const key = (digit: string) => `04${digit.repeat(128)}`;
  const node = (digit: string, extra: Partial<HonorNode> = {}): HonorNode => ({
    tcp_address: `host${digit}:7078`,
    api_address: `http://host${digit}:7079`,
    public_key: key(digit),
    unban_time: '0',
    stopped: false,
    ...extra,
  });

  it('finds every problem of formats.md §5.1, naming the node and the field', () => {
    expect(honorNodeProblems([node('a'), node('b')])).toEqual([]);
    expect(
      honorNodeProblems([
        node('a'),
        node('a', { api_address: 'http://x:1', tcp_address: 'x:2' }),
        node('c', { public_key: '04ab', tcp_address: ' ', api_address: 'host:7079', unban_time: 'soon' }),
        node('d', { api_address: 'http://hosta:7079' }),
      ]),
    ).toEqual([
      'honor node 1: the same public_key as honor node 0',
      'honor node 2: public_key must be 64 bytes as hex',
      'honor node 2: tcp_address is empty',
      'honor node 2: api_address must be a URL with scheme and host',
      'honor node 2: unban_time must be a whole number of seconds',
      'honor node 3: the same api_address as honor node 0',
    ]);
  });

  it('takes turns among the nodes neither stopped nor banned at the time', () => {
    const nodes = [node('a'), node('b', { stopped: true }), node('c', { unban_time: '1000' }), node('d')];
    // c is banned until 1000 (Unix seconds), b stopped for good.
    expect(activeHonorNodes(nodes, 999n).map((n) => n.api_address)).toEqual([
      'http://hosta:7079',
      'http://hostd:7079',
    ]);
    expect(activeHonorNodes(nodes, 1000n).map((n) => n.api_address)).toEqual([
      'http://hosta:7079',
      'http://hostc:7079',
      'http://hostd:7079',
    ]);
    expect(positionOf(activeHonorNodes(nodes, 0n), key('d').slice(2))).toBe(1);
    expect(positionOf(activeHonorNodes(nodes, 0n), key('b'))).toBe(-1);
  });

  it('gives a block time the leader of the slot it was made in', () => {
    const clock = { startMs: 1_000_000, slotMs: agreedSlotMs(1500, 3), nodes: 3 };
    expect(clock.slotMs).toBe(2000);
    expect(agreedSlotMs(200, 1)).toBe(200);
    // Slot q covers [start + 2q s, start + 2(q+1) s): seconds 1000, 1001 → slot 0; 1002 → slot 1 …
    expect(
      [1000n, 1001n, 1002n, 1003n, 1004n, 1006n].map((t) =>
        leaderOfSlot(slotAt(clock, Number(t) * 1000), clock.nodes),
      ),
    ).toEqual([0, 0, 1, 1, 2, 0]);
    expect(slotAt(clock, 1_001_999)).toBe(0);
  });
});

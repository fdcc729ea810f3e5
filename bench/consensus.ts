/**
 * Consensus in simulation (issue 29, part 6): the simulator (src/consensus/simulator.ts) on a WAN (20–300 ms
 * per link, ±20 % jitter), 1 % loss, 1 s slots, 20 transactions offered a slot, and a crash or two of an
 * honest node, for growing numbers of honor nodes: finality lag, messages per final block, and how long a
 * restarted node takes to hold the network's final block again.
 *
 * Each size runs with each way of spreading blocks, votes and transactions (PROPAGATION): `direct` (a node
 * sends them to every other node itself, as the node does) and `gossip` (a mesh of MESH_DEGREE peers a
 * node that pass on what they had not seen, as js-libp2p's gossipsub does).
 *
 * Each also runs with each way of routing votes (VOTES): `all` (every voter to every node) and `collectors`
 * (vote aggregation: to COLLECTORS leaders after the block's slot, which pass them on in batches every
 * RELAY_MS), the status round going to STATUS_PEERS random peers (0: to every node).
 *
 *   npm run bench:consensus            # knobs: NODES (4,7,21,51,101), SEEDS (3), PROPAGATION (direct,gossip),
 *                                      #        MESH_DEGREE (8), VOTES (all,collectors), COLLECTORS (2),
 *                                      #        RELAY_MS (100), STATUS_PEERS (0)
 */
import { simulate, percentile } from '../src/consensus/simulator';

const NODES = (process.env.NODES ?? '4,7,21,51,101').split(',').map(Number);
const SEEDS = Number(process.env.SEEDS ?? 3);
const PROPAGATION = (process.env.PROPAGATION ?? 'direct,gossip').split(',') as ('direct' | 'gossip')[];
const MESH_DEGREE = Number(process.env.MESH_DEGREE ?? 8);
const VOTES = (process.env.VOTES ?? 'all,collectors').split(',') as ('all' | 'collectors')[];
const COLLECTORS = Number(process.env.COLLECTORS ?? 2);
const RELAY_MS = Number(process.env.RELAY_MS ?? 100);
const STATUS_PEERS = Number(process.env.STATUS_PEERS ?? 0);

/** Fewer slots for more nodes: the messages a slot grow as the square of the nodes. */
function slotsFor(nodes: number): number {
  return nodes <= 7 ? 300 : nodes <= 21 ? 150 : nodes <= 51 ? 60 : 40;
}

console.log(
  '| nodes | propagation | votes | slots × seeds | finality lag p50 / p99 (slots) | messages per final block | votes + status of them | block copies per block | catch-up after restart (slots) | wall time |',
);
console.log(
  '| ----- | ----------- | ----- | ------------- | ------------------------------ | ------------------------ | ---------------------- | ---------------------- | ------------------------------ | --------- |',
);
for (const nodes of NODES)
  for (const propagation of PROPAGATION)
    for (const voteRouting of VOTES) {
      const slots = slotsFor(nodes);
      const started = Date.now();
      const lagsP50: number[] = [];
      const lagsP99: number[] = [];
      let messages = 0;
      let voteAndStatus = 0;
      let blockCopies = 0;
      let blocksMade = 0;
      let finalBlocks = 0;
      const catchUps: number[] = [];
      for (let seed = 1; seed <= SEEDS; seed++) {
        const run = simulate({
          nodes,
          seed,
          slots,
          faults: ['loss', 'crash'],
          propagation,
          meshDegree: MESH_DEGREE,
          voteRouting,
          collectors: COLLECTORS,
          relayMs: RELAY_MS,
          statusPeers: STATUS_PEERS,
        });
        if (!run.ok)
          throw new Error(
            `${nodes} nodes, ${propagation}, ${voteRouting}, seed ${seed}: ${run.violation?.invariant} at step ${run.violation?.step}`,
          );
        lagsP50.push(run.finalityLagSlots.p50);
        lagsP99.push(run.finalityLagSlots.p99);
        messages += run.messages.total;
        const { votes = 0, collect = 0, status = 0 } = run.messages.byKind;
        voteAndStatus += votes + collect + status;
        blockCopies += run.messages.byKind.block ?? 0;
        blocksMade += run.blocksMade;
        finalBlocks += run.finalHeight;
        catchUps.push(...run.catchUpSlots);
      }
      const sortedCatchUps = [...catchUps].sort((a, b) => a - b);
      const median = (values: number[]) =>
        percentile(
          [...values].sort((a, b) => a - b),
          0.5,
        );
      console.log(
        `| ${nodes} | ${propagation} | ${voteRouting} | ${slots} × ${SEEDS} | ${median(lagsP50).toFixed(2)} / ${median(lagsP99).toFixed(2)} | ` +
          `${Math.round(messages / finalBlocks).toLocaleString('en')} | ${Math.round((100 * voteAndStatus) / messages)} % | ${Math.round(blockCopies / blocksMade)} | ` +
          `${catchUps.length > 0 ? `${percentile(sortedCatchUps, 0.5).toFixed(1)} (max ${sortedCatchUps[sortedCatchUps.length - 1].toFixed(1)}, ${catchUps.length} restarts)` : 'no restart'} | ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s |`,
      );
    }

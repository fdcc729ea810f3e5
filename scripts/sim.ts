/**
 * Runs the consensus simulator (src/consensus/simulator.ts) once from the command line:
 *
 *   npm run sim -- --nodes 21 --seed 7 --slots 2000 --faults all
 *
 * Exit 0 when every invariant held, 1 (with the seed and the step) when one broke, 2 on a bad option.
 */
import { parseArgs } from 'node:util';
import { FAULT_DESCRIPTIONS, FAULT_KINDS, type FaultKind, simulate } from '../src/consensus/simulator';

const USAGE = `usage: npm run sim -- [options]
  --nodes N          honor nodes (default 7)
  --seed S           the run's seed (default 1): the same seed replays the same run
  --slots N          slots to simulate (default 300)
  --faults LIST      comma-separated fault kinds, or all, or none (default all)
  --fork-choice R    votes (default) or longest (the old rule, known bad)
  --tx-per-slot N    client transactions offered per slot (default 20)
  --propagation P    direct (default: each node sends to every other) or gossip (a mesh that passes on)
  --mesh-degree N    gossip: mesh peers a node (default 8)
  --votes R          all (default: each voter to every node) or collectors (vote aggregation: to the
                     next leaders, which pass the votes on in batches)
  --collectors N     collectors: leaders a vote goes to (default 2)
  --relay-ms N       collectors: how long a collector gathers before it passes a batch on (default 100)
  --status-peers N   the status round to N random peers (default 0: to every node)
  --json             print the whole summary as JSON before the last line
  --help             this text
fault kinds:
${FAULT_KINDS.map((kind) => `  ${kind.padEnd(12)} ${FAULT_DESCRIPTIONS[kind]}`).join('\n')}`;

function fail(message: string): never {
  console.error(`sim: ${message} (see --help)`);
  process.exit(2);
}

/** A whole-number option's value (`fallback` when absent), at least `least`. */
function integer(name: string, value: string | undefined, fallback: number, least = 0): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) fail(`--${name} needs a whole number`);
  if (parsed < least) fail(`--${name} needs at least ${least}`);
  return parsed;
}

/** An option that names one of `allowed` (the first when absent). */
function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined) return allowed[0];
  if (!(allowed as readonly string[]).includes(value)) fail(`--${name} is ${allowed.join(' or ')}`);
  return value as T;
}

function parseFaults(value: string | undefined): FaultKind[] {
  if (value === undefined || value === 'all') return [...FAULT_KINDS];
  if (value === 'none') return [];
  const kinds = value.split(',').filter((kind) => kind.length > 0);
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) fail(`unknown fault kind: ${kind}`);
  }
  return kinds as FaultKind[];
}

const TEXT = { type: 'string' } as const;
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  nodes: TEXT,
  seed: TEXT,
  slots: TEXT,
  faults: TEXT,
  'fork-choice': TEXT,
  'tx-per-slot': TEXT,
  propagation: TEXT,
  'mesh-degree': TEXT,
  votes: TEXT,
  collectors: TEXT,
  'relay-ms': TEXT,
  'status-peers': TEXT,
} as const;

function main(): void {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({ args: process.argv.slice(2), options: OPTIONS, strict: true }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const nodes = integer('nodes', values.nodes, 7, 1);
  const seed = integer('seed', values.seed, 1);
  const slots = integer('slots', values.slots, 300);
  const faults = parseFaults(values.faults);
  const forkChoice = oneOf('fork-choice', values['fork-choice'], ['votes', 'longest'] as const);
  const txPerSlot = integer('tx-per-slot', values['tx-per-slot'], 20);
  const propagation = oneOf('propagation', values.propagation, ['direct', 'gossip'] as const);
  const meshDegree = integer('mesh-degree', values['mesh-degree'], 8, 2);
  const voteRouting = oneOf('votes', values.votes, ['all', 'collectors'] as const);
  const collectors = integer('collectors', values.collectors, 2, 1);
  const relayMs = integer('relay-ms', values['relay-ms'], 100);
  const statusPeers = integer('status-peers', values['status-peers'], 0);
  const json = values.json === true;
  const started = Date.now();
  const summary = simulate({
    nodes,
    seed,
    slots,
    faults,
    forkChoice,
    txPerSlot,
    propagation,
    meshDegree,
    voteRouting,
    collectors,
    relayMs,
    statusPeers,
  });
  if (json) console.log(JSON.stringify(summary, null, 2));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${nodes} nodes, seed ${seed}, ${slots} slots, faults ${faults.join(',') || 'none'}: final height ` +
      `${summary.finalHeight} of ${summary.blocksMade} blocks made; ${summary.txs.final} of ` +
      `${summary.txs.accepted} accepted transactions final; restarts caught up in ` +
      `[${summary.catchUpSlots.join(', ')}] slots; ${summary.steps} steps in ${seconds} s` +
      (summary.livenessChecked ? '' : ' (a silent voter: liveness not checked, safety only)'),
  );
  if (summary.violation) {
    const { invariant, detail, step, atMs } = summary.violation;
    console.log(`BROKEN: ${invariant}: ${detail}`);
    console.log(`seed ${seed}, step ${step} (${(atMs / 1000).toFixed(3)} s of simulated time)`);
  }
  const { finalityLagSlots: lag, reorgs, messages } = summary;
  console.log(
    `${summary.ok ? 'ok' : 'FAILED'}: finality lag p50 ${lag.p50} / p99 ${lag.p99} slots; reorgs ${reorgs.count} ` +
      `(max depth ${reorgs.maxDepth}); ${messages.perFinalBlock} messages per block`,
  );
  process.exitCode = summary.ok ? 0 : 1;
}

main();

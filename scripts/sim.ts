/**
 * Runs the consensus simulator (src/consensus/simulator.ts) once from the command line:
 *
 *   npm run sim -- --nodes 21 --seed 7 --slots 2000 --faults all
 *
 * Exit 0 when every invariant held, 1 (with the seed and the step) when one broke, 2 on a bad option.
 */
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

function integer(name: string, value: string | undefined): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isInteger(parsed) || parsed < 0) fail(`${name} needs a whole number`);
  return parsed;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T {
  if (!(allowed as readonly (string | undefined)[]).includes(value))
    fail(`${name} is ${allowed.join(' or ')}`);
  return value as T;
}

function parseFaults(value: string | undefined): FaultKind[] {
  if (value === undefined) fail('--faults needs a list');
  if (value === 'all') return [...FAULT_KINDS];
  if (value === 'none') return [];
  const kinds = value.split(',').filter((kind) => kind.length > 0);
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) fail(`unknown fault kind: ${kind}`);
  }
  return kinds as FaultKind[];
}

function main(): void {
  const args = process.argv.slice(2);
  let nodes = 7;
  let seed = 1;
  let slots = 300;
  let faults: FaultKind[] = [...FAULT_KINDS];
  let forkChoice: 'votes' | 'longest' = 'votes';
  let txPerSlot = 20;
  let propagation: 'direct' | 'gossip' = 'direct';
  let meshDegree = 8;
  let voteRouting: 'all' | 'collectors' = 'all';
  let collectors = 2;
  let relayMs = 100;
  let statusPeers = 0;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const option = args[i];
    switch (option) {
      case '--help':
      case '-h':
        console.log(USAGE);
        return;
      case '--nodes':
        nodes = integer(option, args[++i]);
        if (nodes < 1) fail('--nodes needs at least 1');
        break;
      case '--seed':
        seed = integer(option, args[++i]);
        break;
      case '--slots':
        slots = integer(option, args[++i]);
        break;
      case '--faults':
        faults = parseFaults(args[++i]);
        break;
      case '--fork-choice':
        forkChoice = oneOf(option, args[++i], ['votes', 'longest']);
        break;
      case '--tx-per-slot':
        txPerSlot = integer(option, args[++i]);
        break;
      case '--propagation':
        propagation = oneOf(option, args[++i], ['direct', 'gossip']);
        break;
      case '--mesh-degree':
        meshDegree = integer(option, args[++i]);
        if (meshDegree < 2) fail('--mesh-degree needs at least 2');
        break;
      case '--votes':
        voteRouting = oneOf(option, args[++i], ['all', 'collectors']);
        break;
      case '--collectors':
        collectors = integer(option, args[++i]);
        if (collectors < 1) fail('--collectors needs at least 1');
        break;
      case '--relay-ms':
        relayMs = integer(option, args[++i]);
        break;
      case '--status-peers':
        statusPeers = integer(option, args[++i]);
        break;
      case '--json':
        json = true;
        break;
      default:
        fail(`unknown option: ${option}`);
    }
  }
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

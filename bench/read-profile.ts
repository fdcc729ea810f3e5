/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of the node: where its samples went, by source file and by
 * function of `src/` (each sample put on the nearest frame of `src/` on its stack, so a library's work
 * counts for the code that called it), and by the function that was running itself. Only the samples
 * between FROM_S and TO_S seconds after the profile began count: a bench's setup (registering accounts,
 * signing transactions) otherwise hides what the measured window did. With CALLERS=<function name>, the
 * `src/` stacks that led to that function instead.
 *
 *   node -r @swc-node/register bench/read-profile.ts /tmp/prof/CPU.….cpuprofile
 *   FROM_S=26 TO_S=46 TOP=30 node -r @swc-node/register bench/read-profile.ts /tmp/prof/CPU.….cpuprofile
 *   CALLERS=writev FROM_S=26 node -r @swc-node/register bench/read-profile.ts /tmp/prof/CPU.….cpuprofile
 *
 * Profiles of the bundled node name one file; run the node from its sources (UNBUNDLED=1) to read them.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const FROM_S = Number(process.env.FROM_S ?? 0);
const TO_S = Number(process.env.TO_S ?? Infinity);
const TOP = Number(process.env.TOP ?? 40);
const CALLERS = process.env.CALLERS;
/** What V8 reports in place of a function: kept as they are, never put on a caller. */
const PSEUDO = new Set(['(idle)', '(garbage collector)', '(program)']);

function sourceOf(url: string): string | undefined {
  const at = url.indexOf(process.env.SRC_MARK ?? '/src/');
  return at >= 0 && !url.includes('node_modules') ? url.slice(at + 1) : undefined;
}

function label(frame: CallFrame): string {
  const file = sourceOf(frame.url) ?? frame.url.replace(/.*node_modules\//, '');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: read-profile.ts <file.cpuprofile>');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stackOf = (id: number): CallFrame[] => {
    const frames: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      frames.push(byId.get(at)!.callFrame);
    }
    return frames;
  };

  const counted = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index];
    const seconds = elapsedUs / 1e6;
    if (seconds >= FROM_S && seconds < TO_S) counted.set(id, (counted.get(id) ?? 0) + 1);
  });
  const total = [...counted.values()].reduce((sum, count) => sum + count, 0);
  const add = (tally: Map<string, number>, key: string, count: number) =>
    tally.set(key, (tally.get(key) ?? 0) + count);
  const print = (title: string, tally: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [key, count] of [...tally].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  console.log(`${total} samples from ${FROM_S} s to ${TO_S} s of ${(elapsedUs / 1e6).toFixed(1)} s`);

  if (CALLERS) {
    const stacks = new Map<string, number>();
    for (const [id, count] of counted) {
      const frames = stackOf(id);
      const at = frames.findLastIndex((frame) => frame.functionName === CALLERS);
      if (at < 0) continue;
      const callers = frames.slice(at + 1).filter((frame) => sourceOf(frame.url));
      add(stacks, callers.slice(0, 4).map(label).join(' < ') || '(no src/ caller)', count);
    }
    print(`stacks of src/ that led to ${CALLERS}`, stacks);
    return;
  }

  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  const selves = new Map<string, number>();
  for (const [id, count] of counted) {
    const frames = stackOf(id);
    add(selves, label(frames[0]), count);
    const own = frames.find((frame) => sourceOf(frame.url));
    if (PSEUDO.has(frames[0].functionName)) {
      add(files, frames[0].functionName, count);
      add(functions, frames[0].functionName, count);
    } else if (own) {
      add(files, sourceOf(own.url)!, count);
      add(functions, label(own), count);
    } else {
      // No code of ours on the stack: name the outermost package (the database driver's socket writes, …).
      const outer = frames.findLast((frame) => frame.url.includes('node_modules/'));
      const name = outer?.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? 'node itself';
      add(files, `(no src/ frame) ${name}`, count);
      add(functions, `(no src/ frame) ${name}`, count);
    }
  }
  print('by file of src/ (nearest frame)', files);
  print('by function of src/ (nearest frame)', functions);
  print('by function running itself', selves);
}

main();

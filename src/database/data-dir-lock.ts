import { hostname } from 'node:os';
import { join } from 'node:path';
import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { StartupFailure } from '../common/startup-failure';

/** Who holds a data directory: enough to tell, after a crash or a reboot, whether that process still runs. */
interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so that a reused pid is not taken for it. */
  started: string | null;
  /** The kernel's boot id (Linux): a lock written before a reboot is stale whatever its pid. */
  boot: string | null;
  host: string;
  since: string;
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

const LOCK_FILE = 'node.lock';
/** A takeover whose maker died half-way is abandoned after this long. */
const TAKEOVER_STALE_MS = 10_000;

const held = new Map<string, { lock: DataDirLock; users: number }>();

/**
 * One node per data directory, as PostgreSQL refuses a data directory with a live `postmaster.pid`: the
 * node's embedded database, keys and secrets there belong to one process. Written by hand because the
 * lock-file libraries judge a lock stale by its age (a restart after a kill would wait for that), while
 * the holder's pid and start time tell at once whether it still runs. The lock file is created whole
 * (written aside, then linked into place, which fails if one exists), and a stale one is replaced under a
 * takeover directory that only one starting process can create. Taken again in the same process (a test
 * restarting its node), it is shared until the last user releases it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const existing = held.get(file);
  if (existing) {
    existing.users++;
    return existing.lock;
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    if (create(file)) {
      const lock: DataDirLock = { file, release: () => release(file) };
      held.set(file, { lock, users: 1 });
      return lock;
    }
    const holder = readHolder(file);
    if (holder && isRunning(holder)) {
      throw new StartupFailure(
        `DATA_DIR=${JSON.stringify(dataDir)}: in use by another node (process ${holder.pid} on ${holder.host}, ` +
          `since ${holder.since}); stop it first, or give this node a DATA_DIR of its own`,
      );
    }
    takeOver(file, holder);
  }
  throw new StartupFailure(`DATA_DIR=${JSON.stringify(dataDir)}: could not take ${file}`);
}

function release(file: string): void {
  const entry = held.get(file);
  if (!entry || --entry.users > 0) return;
  held.delete(file);
  // Removed only while it is still this process's: a lock taken over after a (wrong) stale judgement stays.
  if (readHolder(file)?.pid === process.pid) unlinkQuietly(file);
}

// A process that ends without releasing (an uncaught error, process.exit) leaves no lock behind.
process.once('exit', () => {
  for (const file of [...held.keys()]) {
    held.get(file)!.users = 1;
    release(file);
  }
});

/** Creates the lock file with this process as holder; false when one exists. */
function create(file: string): boolean {
  const aside = `${file}.${process.pid}`;
  writeFileSync(aside, `${JSON.stringify(thisProcess())}\n`, { mode: 0o600 });
  try {
    linkSync(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(aside);
  }
}

/**
 * Replaces a lock whose holder is gone. Only the process that creates the takeover directory may remove
 * the lock, and only if it still names the holder judged gone; the others try again and find the winner's.
 */
function takeOver(file: string, stale: Holder | undefined): void {
  const mutex = `${file}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (Date.now() - modifiedAt(mutex) > TAKEOVER_STALE_MS) removeDirQuietly(mutex);
    else pause(50);
    return;
  }
  try {
    const current = readHolder(file);
    if (sameHolder(current, stale)) unlinkQuietly(file);
  } finally {
    removeDirQuietly(mutex);
  }
}

function thisProcess(): Holder {
  return {
    pid: process.pid,
    started: startTime(process.pid),
    boot: bootId(),
    host: hostname(),
    since: new Date().toISOString(),
  };
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote the lock still runs (on this machine, since its boot). */
function isRunning(holder: Holder): boolean {
  // The same pid as this process (a container's node restarted as pid 1): the writer was an earlier life.
  if (holder.pid === process.pid) return false;
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTime(holder.pid);
  return !(holder.started && started && holder.started !== started);
}

function sameHolder(a: Holder | undefined, b: Holder | undefined): boolean {
  if (!a || !b) return a === b;
  return a.pid === b.pid && a.started === b.started && a.since === b.since;
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function removeDirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // already gone
  }
}

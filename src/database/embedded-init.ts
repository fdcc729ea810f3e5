import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Runs in a child process: PGlite creates the database cluster (its initdb) when it opens an empty
 * directory. Plain JavaScript, so the child needs neither the TypeScript loader nor the node's modules.
 */
const INITDB_SCRIPT = `
const { PGlite } = require(process.argv[1]);
PGlite.create({ dataDir: process.argv[2] })
  .then((db) => db.close())
  .catch((error) => {
    process.stderr.write(String(error && error.stack ? error.stack : error));
    process.exit(1);
  });
`;

/** Where the embedded database keeps its files. */
export function embeddedDataDir(dataDir: string): string {
  return join(dataDir, 'pgdata');
}

const preparing = new Map<string, Promise<void>>();

/**
 * Creates the embedded database cluster in `pgdata` if there is none yet: a copy of `template` (the cluster
 * made at install) when there is one, else PGlite's initdb in a child process. PGlite's
 * initdb runs a second PGlite instance beside the first and copies its WebAssembly heap; in the node's own
 * process that left ≈ 450 MB resident for good (the instances stay referenced after initdb), in a child
 * it is all given back when the child exits. The cluster is built next to `pgdata` and renamed into place,
 * so an interrupted first start leaves no half-made database behind. Idempotent per directory, so the
 * start of the process can begin it early and the database module await the same work.
 */
export function prepareEmbeddedDatabase(
  pgdata: string,
  template: string | undefined = clusterTemplateDir(),
): Promise<void> {
  let work = preparing.get(pgdata);
  if (!work) {
    work = createCluster(pgdata, template);
    preparing.set(pgdata, work);
    work.catch(() => preparing.delete(pgdata));
  }
  return work;
}

async function createCluster(pgdata: string, template: string | undefined): Promise<void> {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return;
  // Something else is there (a cluster from an older start without PG_VERSION?): PGlite decides.
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return;
  mkdirSync(dirname(pgdata), { recursive: true });
  const building = `${pgdata}.initdb`;
  rmSync(building, { recursive: true, force: true });
  if (template && existsSync(join(template, 'PG_VERSION'))) {
    // Asynchronous: the copy runs on the thread pool while this process loads the node's modules.
    await cp(template, building, { recursive: true });
  } else {
    await runInitdb(building, pgdata);
  }
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(building, pgdata);
}

/**
 * A fresh cluster made when the project's dependencies are installed (`npm ci` runs
 * scripts/prepare-embedded-template.ts), for the installed PGlite version: a first start copies it
 * (≈ 0.1 s) instead of running initdb (≈ 3–4 s). Clusters made from it differ only in their system
 * identifier, which nothing here reads (it matters to replication).
 */
export function clusterTemplateDir(): string | undefined {
  try {
    const packageDir = dirname(dirname(require.resolve('@electric-sql/pglite')));
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    return join(packageDir, '..', '..', '.cache', 'ibax-node', `pglite-${version}`, 'pgdata');
  } catch {
    return undefined;
  }
}

/** Makes the cluster template if it is not there yet; where it is. */
export async function prepareClusterTemplate(): Promise<string> {
  const template = clusterTemplateDir();
  if (!template) throw new Error('PGlite is not installed');
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  mkdirSync(dirname(template), { recursive: true });
  const building = `${template}.initdb.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  await runInitdb(building, template);
  rmSync(template, { recursive: true, force: true });
  renameSync(building, template);
  return template;
}

/** PGlite's initdb into `target`, in a child process; `pgdata` names the cluster in errors. */
async function runInitdb(target: string, pgdata: string): Promise<void> {
  const child = spawn(
    process.execPath,
    // initdb runs each part of PostgreSQL's wasm once or a few times: the optimising tier (TurboFan)
    // costs more than it gains there, ≈ 1.5 s of a 4.5 s initdb on two cores.
    ['--liftoff-only', '-e', INITDB_SCRIPT, require.resolve('@electric-sql/pglite'), target],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(target, 'PG_VERSION'))) {
    rmSync(target, { recursive: true, force: true });
    throw new Error(
      `could not create the embedded database in ${pgdata}: ${stderr.trim() || `exit ${code}`}`,
    );
  }
}

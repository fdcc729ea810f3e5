import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
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
 * Creates the embedded database cluster in `pgdata` if there is none yet, in a child process. PGlite's
 * initdb runs a second PGlite instance beside the first and copies its WebAssembly heap; in the node's own
 * process that left ≈ 450 MB resident for good (the instances stay referenced after initdb), in a child
 * it is all given back when the child exits. The cluster is built next to `pgdata` and renamed into place,
 * so an interrupted first start leaves no half-made database behind. Idempotent per directory, so the
 * start of the process can begin it early and the database module await the same work.
 */
export function prepareEmbeddedDatabase(pgdata: string): Promise<void> {
  let work = preparing.get(pgdata);
  if (!work) {
    work = createCluster(pgdata);
    preparing.set(pgdata, work);
    work.catch(() => preparing.delete(pgdata));
  }
  return work;
}

async function createCluster(pgdata: string): Promise<void> {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return;
  // Something else is there (a cluster from an older start without PG_VERSION?): PGlite decides.
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return;
  mkdirSync(dirname(pgdata), { recursive: true });
  const building = `${pgdata}.initdb`;
  rmSync(building, { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    // initdb runs each part of PostgreSQL's wasm once or a few times: the optimising tier (TurboFan)
    // costs more than it gains there, ≈ 1.5 s of a 4.5 s initdb on two cores.
    ['--liftoff-only', '-e', INITDB_SCRIPT, require.resolve('@electric-sql/pglite'), building],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(building, 'PG_VERSION'))) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `could not create the embedded database in ${pgdata}: ${stderr.trim() || `exit ${code}`}`,
    );
  }
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(building, pgdata);
}

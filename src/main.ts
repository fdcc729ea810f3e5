import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { embeddedDataDir, prepareEmbeddedDatabase } from './database/embedded-init';
import type * as Start from './start';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // A new embedded database is created in a child process while this one loads the node's modules (the
  // database module awaits the same work), so they are required only after it has begun.
  if (!config.databaseUrl) {
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
  process.stderr.write(`The node could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

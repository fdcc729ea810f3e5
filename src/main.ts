import 'reflect-metadata';
import { readBuildInfo } from './common/build-info';
import { ConfigError, helpText, readEnvironment, resolveConfig } from './config';
import { openEmbeddedPostgres } from './database/embedded-postgres';
import { checkDatabase, ensurePortFree, StartupFailure } from './ops/startup-failure';
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
  const environment = readEnvironment();
  // Before anything is written (the data directory, its secrets, keys, the genesis block).
  await ensurePortFree(environment.HOST, environment.PORT);
  const config = resolveConfig(environment);
  // The embedded server starts (and the data directory is taken: a second node on it stops here) while
  // this process loads the node's modules; the database module takes the same server.
  const embedded = config.databaseUrl ? undefined : openEmbeddedPostgres(config.dataDir);
  embedded?.catch(() => undefined);
  if (config.databaseUrl) await checkDatabase(config.databaseUrl);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startNode } = require('./start') as typeof Start;
  await embedded;
  await startNode(config);
}

main().catch((error: unknown) => {
  // A setting at fault is one line per setting, naming it; anything else is unexpected and keeps its stack.
  if (error instanceof ConfigError) process.stderr.write(`${error.problems.join('\n')}\n`);
  else if (error instanceof StartupFailure) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`The node could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

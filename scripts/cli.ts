/**
 * Command-line client of a node: keys, login, contract calls, transaction status, blocks, rollback, watch.
 *   npx ibax help        (the package's bin, bin/ibax.cjs; `npm run -s cli -- help` runs the same)
 * The commands are in src/sdk/cli; they talk HTTP (and, to watch, WebSocket) to the node through the
 * project's client (src/sdk).
 */
import { runCli } from '../src/sdk/cli/commands';

// `npx ibax watch | head -1`: the reader is gone, which ends the watch as it would end a pipe's writer.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  terminalColumns: process.stderr.isTTY ? process.stderr.columns || 80 : undefined,
  onInterrupt: (listener) => {
    process.once('SIGINT', listener);
    process.once('SIGTERM', listener);
    return () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);

/**
 * Command-line client of a node: keys, login, contract calls, transaction status, blocks, rollback.
 *   npm run cli -- help
 * The commands are in src/sdk/cli; they talk HTTP to the node through the project's client (src/sdk).
 */
import { runCli } from '../src/sdk/cli/commands';

runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);

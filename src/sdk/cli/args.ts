import { parseArgs } from 'node:util';

/** A command line the CLI cannot run: reported on stderr with exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: ibax <command> [arguments] [options]      (npx ibax … in the project)

Commands
  keygen [--out <file>]              new private key, public key and account (JSON); with --out the
                                     private key goes to <file> (mode 0600) instead of stdout
  login [--ecosystem <n>]            log in, print the session (token, key_id, account, ecosystem)
  call <Contract> [name=value…]      sign, send and wait for a contract call (type-3 transaction);
                                     values are converted by the contract's field types
       [--format sdk|client] [--no-wait] [--ecosystem <n>] [--timeout <seconds>]
  status <hash>…                     txstatus of transactions
  watch [<hash>…] [--timeout <seconds>]
                                     follow the chain over the node's WebSocket: each new block as a
                                     JSON line, and each given transaction's outcome as \`call\` prints it;
                                     with hashes it exits once all are settled (0, or 1 if one failed),
                                     without them it runs until Ctrl-C (exit 0) or --timeout
  block <id>                         a block with its transactions (detailed_blocks)
  rollback <n> [--force]             take the last n blocks off the chain (admin.rollbackBlocks; the node
                                     must serve the admin namespace: JSONRPC_NAMESPACES=ibax,chain,net,admin);
                                     final blocks only with --force
  peers                              the other honor nodes as the node sees them (net.peers): position,
                                     address, height, final height, last block time, reachable, banned until
  version                            this client's version (JSON: version, branch, commit)
  help                               this text

Options
  --node <url>       node address (env IBAX_NODE, default http://127.0.0.1:7079)
  --key <hex>        private key (env IBAX_KEY)
  --key-file <path>  file holding the private key in hex (e.g. data/founder.key)
  --cryptoer <name>, --hasher <name>
                     keygen only: ECC_Secp256k1|ECC_P256 and KECCAK256|SHA256|SHA3_256, to make a key
                     without asking the node (default: the node's, from getuid)

Output is JSON on stdout: hashes and other bytes in hex, key ids as text (watch: one JSON object a line;
a status line on stderr when it is a terminal). Errors go to stderr: exit code 1 when the node refuses
or a transaction fails, 2 for a wrong command line.`;

const OPTIONS = {
  node: { type: 'string' },
  key: { type: 'string' },
  'key-file': { type: 'string' },
  ecosystem: { type: 'string' },
  format: { type: 'string' },
  'no-wait': { type: 'boolean' },
  timeout: { type: 'string' },
  out: { type: 'string' },
  cryptoer: { type: 'string' },
  hasher: { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type OptionName = keyof typeof OPTIONS;

const KEY_OPTIONS: OptionName[] = ['key', 'key-file'];

/** The options each command takes besides --node and --help; any other is a usage error. */
const COMMAND_OPTIONS: Record<string, OptionName[]> = {
  help: [],
  version: [],
  keygen: ['out', 'cryptoer', 'hasher'],
  login: [...KEY_OPTIONS, 'ecosystem'],
  call: [...KEY_OPTIONS, 'ecosystem', 'format', 'no-wait', 'timeout'],
  status: [...KEY_OPTIONS, 'ecosystem'],
  block: [],
  rollback: ['force'],
  peers: [],
  watch: ['timeout'],
};

export type CliOptions = {
  node?: string;
  key?: string;
  'key-file'?: string;
  ecosystem?: string;
  format?: string;
  'no-wait'?: boolean;
  timeout?: string;
  out?: string;
  cryptoer?: string;
  hasher?: string;
  force?: boolean;
  help?: boolean;
  version?: boolean;
};

export interface CommandLine {
  command: string;
  args: string[];
  options: CliOptions;
}

/** Splits argv into the command, its arguments and its options; refuses what the command does not take. */
export function parseCommandLine(argv: string[]): CommandLine {
  let parsed: { values: CliOptions; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parserProblem((error as Error).message));
  }
  const [command = 'help', ...args] = parsed.positionals;
  const allowed = COMMAND_OPTIONS[command];
  if (!allowed) throw new UsageError(`unknown command "${command}"`);
  for (const name of Object.keys(parsed.values) as OptionName[]) {
    if (!['node', 'help', 'version'].includes(name) && !allowed.includes(name)) {
      throw new UsageError(`${command} does not take --${name}`);
    }
  }
  const { help, version } = parsed.values;
  return { command: help ? 'help' : version ? 'version' : command, args, options: parsed.values };
}

/** A whole number from 1 up, as text of the command line. */
export function positiveInteger(text: string | undefined, what: string): bigint {
  if (text === undefined || !/^\d+$/.test(text) || BigInt(text) < 1n) {
    throw new UsageError(
      `${what} must be a positive integer, not ${text === undefined ? 'missing' : `"${text}"`}`,
    );
  }
  return BigInt(text);
}

/** `name=value` arguments of a call; the value is everything after the first `=`. */
export function parseAssignments(args: string[]): Record<string, string> {
  const result = Object.create(null) as Record<string, string>;
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at < 1) throw new UsageError(`contract arguments are name=value, not "${arg}"`);
    const name = arg.slice(0, at);
    if (Object.hasOwn(result, name)) throw new UsageError(`argument ${name} given twice`);
    result[name] = arg.slice(at + 1);
  }
  return result;
}

/** Checks the count of positional arguments of a command. */
export function expectArgs(command: string, args: string[], min: number, max = min): void {
  if (args.length < min) throw new UsageError(`${command}: missing argument`);
  if (args.length > max) throw new UsageError(`${command}: unexpected argument "${args[max]}"`);
}

/**
 * Node's argument parser explains how to pass a positional that starts with '-' after naming the problem;
 * the problem alone is what a user of this command needs.
 */
function parserProblem(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return message.split(/\.\s|\n/)[0];
}

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import {
  bytesToHex,
  createHasher,
  createSigner,
  isCryptoerName,
  isHasherName,
  keyIdFromPublicKey,
  keyIdToAddress,
  parsePrivateKeyHex,
  type CryptoerName,
  type HasherName,
} from '../../crypto';
import { readBuildInfo } from '../../common/build-info';
import { IbaxClient, exactJsonText } from '../client';
import { LiveConnectionError, type Subscription, type TxStatusPush } from '../live';
import { contractParams } from '../transactions';
import type { TxStatusAnswer } from '../tx-status';
import {
  USAGE,
  UsageError,
  expectArgs,
  parseAssignments,
  parseCommandLine,
  positiveInteger,
  type CliOptions,
} from './args';

export const DEFAULT_NODE = 'http://127.0.0.1:7079';

/** The one environment variable of the node's address for its clients (the CLI and scripts/login-demo.ts). */
export const NODE_ADDRESS_VARIABLE = 'IBAX_NODE';

/** The node's address: `--node`, else IBAX_NODE, else the address `npm start` listens on by default. */
export function nodeAddress(option: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = option ?? env[NODE_ADDRESS_VARIABLE] ?? DEFAULT_NODE;
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`node address must be http(s)://…, not "${url}"`);
  return url.replace(/\/+$/, '');
}

/** Where the CLI writes, and what it is told; the process's streams and signals in scripts/cli.ts. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The width of stderr when it is a terminal (a live status line may go there); unset when it is not. */
  terminalColumns?: number;
  /** Calls `listener` on Ctrl-C (SIGINT) or SIGTERM from now on; returns what stops listening. */
  onInterrupt?(listener: () => void): () => void;
}

/** A failure whose details are data (a transaction's error): printed as JSON on stderr, exit code 1. */
class CommandFailure extends Error {
  constructor(readonly details: unknown) {
    super('command failed');
  }
}

/** What a command that wrote its own output returns: the exit code. */
class ExitCode {
  constructor(readonly code: number) {}
}

/** JSON with exact integers, indented for reading. */
function jsonText(value: unknown): string {
  return stringifyLossless(parseLossless(exactJsonText(value)), null, 2) ?? 'null';
}

/** What a command sees: its arguments, its options, and the node (connected and logged in on demand). */
class Context {
  readonly nodeUrl: string;
  private connected?: Promise<IbaxClient>;

  constructor(
    readonly args: string[],
    readonly options: CliOptions,
    private readonly env: NodeJS.ProcessEnv,
    readonly io: CliIo,
  ) {
    this.nodeUrl = nodeAddress(options.node, env);
  }

  /** A client with the node's curve and hasher (asked once). */
  client(): Promise<IbaxClient> {
    this.connected ??= IbaxClient.connect(this.nodeUrl);
    return this.connected;
  }

  /** The private key of --key, --key-file or IBAX_KEY, checked to be hex of at most 32 bytes. */
  privateKey(): string {
    const { key, 'key-file': file } = this.options;
    if (key !== undefined && file !== undefined) throw new UsageError('give --key or --key-file, not both');
    let text = key ?? this.env.IBAX_KEY;
    if (file !== undefined) {
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read key file ${file}: ${(error as Error).message}`);
      }
    }
    if (text === undefined || text.trim() === '') {
      throw new UsageError('no private key: give --key <hex>, --key-file <path> or set IBAX_KEY');
    }
    try {
      parsePrivateKeyHex(text);
    } catch (error) {
      const source = file ?? (key !== undefined ? '--key' : 'IBAX_KEY');
      throw new UsageError(`${source}: ${(error as Error).message}`);
    }
    return text.trim();
  }

  /** --timeout in milliseconds, or undefined. */
  get timeoutMs(): number | undefined {
    const { timeout } = this.options;
    return timeout === undefined ? undefined : Number(positiveInteger(timeout, '--timeout')) * 1000;
  }

  get ecosystem(): number | undefined {
    const text = this.options.ecosystem;
    return text === undefined ? undefined : Number(positiveInteger(text, '--ecosystem'));
  }

  /** A client logged in with the private key, in --ecosystem (1 by default). */
  async session(): Promise<{ client: IbaxClient; key: string }> {
    const key = this.privateKey();
    const ecosystem = this.ecosystem;
    const client = await this.client();
    await client.login(key, { ecosystem });
    return { client, key };
  }
}

type Command = (context: Context) => Promise<unknown>;

/** keygen: a key for the node's curve (or --cryptoer/--hasher without asking the node). */
const keygen: Command = async (context) => {
  expectArgs('keygen', context.args, 0);
  const { cryptoer, hasher, out } = context.options;
  let crypto: { cryptoer: CryptoerName; hasher: HasherName };
  if (cryptoer !== undefined || hasher !== undefined) {
    if (cryptoer === undefined || !isCryptoerName(cryptoer)) {
      throw new UsageError(`--cryptoer must be ECC_Secp256k1 or ECC_P256, not ${cryptoer ?? 'missing'}`);
    }
    if (hasher === undefined || !isHasherName(hasher)) {
      throw new UsageError(`--hasher must be KECCAK256, SHA256 or SHA3_256, not ${hasher ?? 'missing'}`);
    }
    crypto = { cryptoer, hasher };
  } else {
    crypto = (await context.client()).crypto;
  }
  const signer = createSigner(crypto.cryptoer, createHasher(crypto.hasher));
  const privateKey = signer.generatePrivateKey();
  const publicKey = signer.publicKey(privateKey);
  const keyId = keyIdFromPublicKey(publicKey, signer.hasher);
  const described = {
    public_key: bytesToHex(publicKey),
    key_id: keyId.toString(),
    account: keyIdToAddress(keyId),
    ...crypto,
  };
  if (out === undefined) return { private_key: bytesToHex(privateKey), ...described };
  try {
    // 'wx': an existing key file is never overwritten.
    writeFileSync(out, bytesToHex(privateKey) + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(out, 0o600);
  } catch (error) {
    throw new Error(`cannot write ${out}: ${(error as Error).message}`);
  }
  return { key_file: out, ...described };
};

const login: Command = async (context) => {
  expectArgs('login', context.args, 0);
  const key = context.privateKey();
  const ecosystem = context.ecosystem;
  const session = await (await context.client()).login(key, { ecosystem });
  return {
    token: session.token,
    key_id: session.keyId,
    account: session.account,
    ecosystem: session.ecosystemId,
  };
};

/** call: build, sign, send and (unless --no-wait) wait; a transaction's error makes a CommandFailure. */
const call: Command = async (context) => {
  expectArgs('call', context.args, 1, Infinity);
  const [name, ...assignments] = context.args;
  const args = parseAssignments(assignments);
  const { format } = context.options;
  if (format !== undefined && format !== 'sdk' && format !== 'client') {
    throw new UsageError(`--format must be sdk or client, not "${format}"`);
  }
  const timeoutMs = context.timeoutMs;
  const { client, key } = await context.session();
  // Arguments that do not fit the contract's fields are a wrong command line, found before signing.
  const contract = await client.contract(name);
  try {
    contractParams(contract, args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const tx = await client.buildCall(key, name, args, { format });
  let hash: string;
  try {
    [hash] = await client.sendTransactions([tx.bytes]);
  } catch (error) {
    const answer = (error as { answer?: { body?: unknown } }).answer;
    if (answer?.body && typeof answer.body === 'object') throw new CommandFailure({ error: answer.body });
    throw error;
  }
  if (context.options['no-wait']) return { hash };
  const status = (await client.waitForTransactions([hash], { timeoutMs }))[hash];
  return callResult(hash, status);
};

function callResult(hash: string, status: TxStatusAnswer) {
  if (status.errmsg || status.blockid === '') {
    throw new CommandFailure({ hash, error: status.errmsg ?? { error: 'no block and no error' } });
  }
  return { hash, block: BigInt(status.blockid), result: status.result };
}

/** Transaction hashes of the command line, in lower case. */
function transactionHashes(args: readonly string[]): string[] {
  for (const hash of args) {
    if (!/^[0-9a-fA-F]{64}$/.test(hash))
      throw new UsageError(`a transaction hash is 64 hex digits, not "${hash}"`);
  }
  return [...new Set(args.map((hash) => hash.toLowerCase()))];
}

const status: Command = async (context) => {
  expectArgs('status', context.args, 1, Infinity);
  const hashes = transactionHashes(context.args);
  const { client } = await context.session();
  return client.txStatus(hashes);
};

/** The exit code of a watch for transactions that Ctrl-C stopped before they were all settled (128 + SIGINT). */
const INTERRUPTED = 130;

/** A transaction's outcome as a watch line: what `call` prints for it. */
function settledLine(push: TxStatusPush): Record<string, unknown> {
  if (push.errmsg) return { hash: push.hash, error: push.errmsg };
  return { hash: push.hash, block: BigInt(push.blockid), result: push.result };
}

/**
 * A line on stderr saying what `watch` waits for, redrawn in place. Only on a terminal: stdout stays JSON
 * lines for a pipe, and a stderr that is a file or a pipe gets no control characters. Stdout may be the
 * same terminal, so the status line steps aside for each output line and comes back under it.
 */
class StatusLine {
  private shown = false;

  constructor(
    private readonly io: CliIo,
    private readonly text: () => string,
  ) {}

  draw(): void {
    const columns = this.io.terminalColumns;
    if (columns === undefined) return;
    this.io.stderr(`\r\x1b[K${this.text().slice(0, Math.max(10, columns - 1))}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.io.stderr('\r\x1b[K');
    this.shown = false;
  }

  print(line: string): void {
    this.clear();
    this.io.stdout(`${line}\n`);
    this.draw();
  }
}

/**
 * watch: new blocks as JSON lines, and with hashes each transaction's outcome; ends when every given
 * transaction is settled (1 if one failed), at --timeout (1 if one is not settled), or at Ctrl-C.
 */
const watch: Command = async (context) => {
  const hashes = transactionHashes(context.args);
  const timeoutMs = context.timeoutMs;
  const { io } = context;
  const client = new IbaxClient(context.nodeUrl);
  const unsettled = new Set(hashes);
  const started = Date.now();
  let failed = 0;
  let lastBlock: { id: number; at: number } | undefined;
  const seconds = (since: number) => Math.round((Date.now() - since) / 1000);
  const status = new StatusLine(io, () => {
    const block = lastBlock ? `block ${lastBlock.id}, ${seconds(lastBlock.at)} s ago` : 'no block yet';
    if (hashes.length === 0) return `watching ${context.nodeUrl}: ${block} (Ctrl-C to stop)`;
    const settled = `${hashes.length - unsettled.size} of ${hashes.length} transactions settled`;
    return `${settled}${failed > 0 ? `, ${failed} failed` : ''}; ${block}; waiting ${seconds(started)} s`;
  });
  let finish!: (code: number, message?: string) => void;
  const finished = new Promise<{ code: number; message?: string }>(
    (resolve) => (finish = (code, message) => resolve({ code, message })),
  );
  const notSettled = () => `${unsettled.size} not settled: ${[...unsettled].join(' ')}`;
  const stopListening = io.onInterrupt?.(() =>
    unsettled.size > 0 ? finish(INTERRUPTED, `interrupted; ${notSettled()}`) : finish(0),
  );
  const deadline =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            unsettled.size > 0
              ? finish(1, `error: still waiting after ${timeoutMs / 1000} s; ${notSettled()}`)
              : finish(0),
          timeoutMs,
        );
  const ticker = io.terminalColumns === undefined ? undefined : setInterval(() => status.draw(), 1000);
  try {
    status.draw();
    const subscriptions: Subscription<unknown>[] = [
      await client.subscribe('newBlocks', {
        onPush: (block) => {
          lastBlock = { id: block.block_id, at: Date.now() };
          status.print(exactJsonText(block));
        },
      }),
    ];
    if (hashes.length > 0) {
      subscriptions.push(
        await client.subscribe('txStatus', {
          hashes,
          onPush: (push) => {
            unsettled.delete(push.hash);
            if (push.errmsg) failed++;
            status.print(exactJsonText(settledLine(push)));
            if (unsettled.size === 0) finish(failed > 0 ? 1 : 0);
          },
        }),
      );
    }
    // A connection lost (the node stopped) ends the watch with its error.
    const lost = Promise.race(subscriptions.map((subscription) => subscription.ended)).then(
      () => new Promise<never>(() => undefined),
    );
    const { code, message } = await Promise.race([finished, lost]);
    status.clear();
    if (message) io.stderr(`${message}\n`);
    return new ExitCode(code);
  } finally {
    stopListening?.();
    clearTimeout(deadline);
    clearInterval(ticker);
    status.clear();
    await client.close();
  }
};

/** A REST block's byte members (base64 there): printed in hex, as `call` and `status` print hashes. */
const BLOCK_BYTES = ['hash', 'rollbacks_hash', 'rollback_hash', 'merkle_root', 'bin_data'] as const;

const hexOfBase64 = (text: unknown) => Buffer.from(String(text), 'base64').toString('hex');

/**
 * A block as detailed_blocks gives it, with every byte member in hex and every key id as text: key ids are
 * 64-bit, and a bare JSON number above 2^53 is read wrong by most JSON tools (jq among them).
 */
export function blockForPrinting(block: Record<string, any>): Record<string, unknown> {
  const printed: Record<string, any> = {
    ...block,
    header: { ...block.header, key_id: String(block.header.key_id) },
  };
  for (const name of BLOCK_BYTES) {
    if (typeof block[name] === 'string') printed[name] = hexOfBase64(block[name]);
  }
  printed.key_id = String(block.key_id);
  printed.transactions = (block.transactions as Record<string, unknown>[]).map((tx) => ({
    ...tx,
    hash: hexOfBase64(tx.hash),
    key_id: String(tx.key_id),
  }));
  return printed;
}

const block: Command = async (context) => {
  expectArgs('block', context.args, 1);
  const id = positiveInteger(context.args[0], 'block id');
  const client = new IbaxClient(context.nodeUrl);
  const answer = await client.get(`/api/v2/detailed_blocks?block_id=${id}&count=1`);
  if (answer.status !== 200)
    throw new Error(`detailed_blocks (${answer.status}): ${answer.text.slice(0, 500)}`);
  const found = (answer.body as Record<string, unknown>)[id.toString()];
  if (found === undefined) throw new Error(`block ${id} not found`);
  return blockForPrinting(found as Record<string, any>);
};

const rollback: Command = async (context) => {
  expectArgs('rollback', context.args, 1);
  const count = positiveInteger(context.args[0], 'block count');
  const client = new IbaxClient(context.nodeUrl);
  try {
    return await client.rpc('admin.rollbackBlocks', [count, context.options.force === true]);
  } catch (error) {
    if ((error as { code?: number }).code === -32601) {
      throw new Error(
        `${(error as Error).message} (the node must serve the admin namespace: JSONRPC_NAMESPACES=ibax,chain,net,admin)`,
      );
    }
    throw error;
  }
};

const peers: Command = async (context) => {
  expectArgs('peers', context.args, 0);
  return new IbaxClient(context.nodeUrl).rpc('net.peers');
};

const COMMANDS: Record<string, Command> = {
  help: async () => undefined,
  version: async () => {
    const { version, branch, commit } = readBuildInfo();
    return { version, branch, commit };
  },
  keygen,
  login,
  call,
  status,
  block,
  rollback,
  peers,
  watch,
};

/** A message for an error of the network or the node: the cause fetch hides, and how to give the address. */
export function errorText(error: unknown, nodeUrl: string | undefined): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const unreachable =
    ((error as Error).message === 'fetch failed' && cause) ||
    (error instanceof LiveConnectionError && cause?.code !== undefined);
  if (unreachable && cause) {
    return (
      `cannot reach the node at ${nodeUrl}: ${cause.code ?? cause.message} ` +
      `(give its address with --node <url> or ${NODE_ADDRESS_VARIABLE}=<url>)`
    );
  }
  return (error as Error).message ?? String(error);
}

/** Runs one command line; returns the exit code (0 done, 1 failed, 2 wrong command line). */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let context: Context | undefined;
  try {
    const line = parseCommandLine(argv);
    if (line.command === 'help') {
      io.stdout(USAGE + '\n');
      return 0;
    }
    context = new Context(line.args, line.options, env, io);
    const output = await COMMANDS[line.command](context);
    if (output instanceof ExitCode) return output.code;
    io.stdout(jsonText(output) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n(ibax help for the usage)\n`);
      return 2;
    }
    if (error instanceof CommandFailure) {
      io.stderr(jsonText(error.details) + '\n');
      return 1;
    }
    io.stderr(`error: ${errorText(error, context?.nodeUrl)}\n`);
    return 1;
  }
}

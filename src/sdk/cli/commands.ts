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
import { IbaxClient, exactJsonText, type TxStatusAnswer } from '../client';
import { contractParams } from '../transactions';
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

/** Where the CLI writes; the process's streams in scripts/cli.ts. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A failure whose details are data (a transaction's error): printed as JSON on stderr, exit code 1. */
class CommandFailure extends Error {
  constructor(readonly details: unknown) {
    super('command failed');
  }
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
  ) {
    const url = options.node ?? env.IBAX_NODE ?? DEFAULT_NODE;
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`node address must be http(s)://…, not "${url}"`);
    this.nodeUrl = url.replace(/\/+$/, '');
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
  const { format, timeout } = context.options;
  if (format !== undefined && format !== 'sdk' && format !== 'client') {
    throw new UsageError(`--format must be sdk or client, not "${format}"`);
  }
  const timeoutMs = timeout === undefined ? undefined : Number(positiveInteger(timeout, '--timeout')) * 1000;
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

const status: Command = async (context) => {
  expectArgs('status', context.args, 1, Infinity);
  for (const hash of context.args) {
    if (!/^[0-9a-fA-F]{64}$/.test(hash))
      throw new UsageError(`a transaction hash is 64 hex digits, not "${hash}"`);
  }
  const { client } = await context.session();
  return client.txStatus(context.args.map((hash) => hash.toLowerCase()));
};

const block: Command = async (context) => {
  expectArgs('block', context.args, 1);
  const id = positiveInteger(context.args[0], 'block id');
  const client = new IbaxClient(context.nodeUrl);
  const answer = await client.get(`/api/v2/detailed_blocks?block_id=${id}&count=1`);
  if (answer.status !== 200)
    throw new Error(`detailed_blocks (${answer.status}): ${answer.text.slice(0, 500)}`);
  const found = (answer.body as Record<string, unknown>)[id.toString()];
  if (found === undefined) throw new Error(`block ${id} not found`);
  return found;
};

const rollback: Command = async (context) => {
  expectArgs('rollback', context.args, 1);
  const count = positiveInteger(context.args[0], 'block count');
  const client = new IbaxClient(context.nodeUrl);
  try {
    return await client.rpc('admin.rollbackBlocks', [count]);
  } catch (error) {
    if ((error as { code?: number }).code === -32601) {
      throw new Error(
        `${(error as Error).message} (the node must serve the admin namespace: JSONRPC_NAMESPACES=ibax,chain,net,admin)`,
      );
    }
    throw error;
  }
};

const COMMANDS: Record<string, Command> = {
  help: async () => undefined,
  keygen,
  login,
  call,
  status,
  block,
  rollback,
};

/** A message for an error of the network or the node, naming the cause fetch hides. */
function errorText(error: unknown, nodeUrl: string | undefined): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).message === 'fetch failed' && cause) {
    return `cannot reach the node at ${nodeUrl}: ${cause.code ?? cause.message}`;
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
    context = new Context(line.args, line.options, env);
    const output = await COMMANDS[line.command](context);
    io.stdout(jsonText(output) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n(npm run cli -- help for the usage)\n`);
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

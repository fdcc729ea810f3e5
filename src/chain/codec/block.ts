/**
 * Block assembly and parsing: zlib-compressed transactions, the ASCII-hex merkle tree (formats.md
 * §3.2), and the text strings the block hash and node signature cover (§3.3).
 */
import { deflateSync, inflateSync, type ZlibOptions } from 'node:zlib';
import {
  AfterTxs,
  BlockData,
  BlockHeader,
  blockHeader,
  decodeBlockData,
  encodeBlockData,
} from './block-proto';
import { HashFn, asciiBytes, bytesEqual, doubleHash, hexOf } from './bytes';
import { CodecError } from './errors';
import { WorkerBatches } from '../../threads/worker-batches';

/** Signs a message with the node key: ECDSA over Hash(message), returning 64-byte r‖s. */
export type SignFn = (message: Uint8Array) => Uint8Array;

/** The previous block as the hash/sign strings see it. */
export type PrevBlockRef = Pick<BlockHeader, 'blockId' | 'blockHash' | 'rollbacksHash'>;

function hexDoubleHash(data: Uint8Array, hash: HashFn): string {
  return hexOf(doubleHash(data, hash));
}

/**
 * Every intermediate hash is turned into lowercase hex text before it is hashed again, and an odd
 * last node moves up unchanged. An empty block hashes the text "0".
 */
export function merkleRoot(compressedTxs: readonly Uint8Array[], hash: HashFn): string {
  const leaves = compressedTxs.length === 0 ? ['0'] : compressedTxs.map((tx) => hexDoubleHash(tx, hash));
  let level = leaves.map((leaf) => hexDoubleHash(asciiBytes(leaf), hash));
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) {
      next.push(hexDoubleHash(asciiBytes(level[i] + level[i + 1]), hash));
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

/** Version 2 and later chain the previous block's rollbacks hash into both strings. */
function rollbacksSuffix(header: BlockHeader, prev: PrevBlockRef): string {
  return header.version >= 2 ? `,${hexOf(prev.rollbacksHash)}` : '';
}

/** The text whose double hash is the block hash. */
export function forSha(header: BlockHeader, prev: PrevBlockRef, merkleRootHex: string): string {
  return (
    [
      header.blockId,
      hexOf(prev.blockHash),
      merkleRootHex,
      header.timestamp,
      header.ecosystemId,
      header.keyId,
      header.nodePosition,
      header.networkId,
    ].join(',') + rollbacksSuffix(header, prev)
  );
}

/** The text the node signs; note the leading "0," and a field order unlike forSha. */
export function forSign(header: BlockHeader, prev: PrevBlockRef, merkleRootHex: string): string {
  return (
    [
      0,
      header.blockId,
      hexOf(prev.blockHash),
      header.timestamp,
      header.ecosystemId,
      header.keyId,
      header.nodePosition,
      merkleRootHex,
      header.networkId,
    ].join(',') + rollbacksSuffix(header, prev)
  );
}

export function blockHash(
  header: BlockHeader,
  prev: PrevBlockRef,
  merkleRootHex: string,
  hash: HashFn,
): Uint8Array {
  return doubleHash(asciiBytes(forSha(header, prev, merkleRootHex)), hash);
}

/**
 * zlib's settings for one transaction: level 6 as always, and a window (and hash table) no larger than the
 * transaction needs. zlib sets up its full 32 kB window and 256 kB of state for every stream, which for a
 * transaction of a few hundred bytes cost 180 µs of CPU against 20 µs with a window its size (a match
 * cannot reach back before the start of the input, so a window that holds the whole input finds what the
 * full one finds). Any inflater reads the result (the window size is in the zlib header), and the settings
 * follow from the length alone, so one build always yields the same bytes; other zlib builds may compress
 * differently, which is harmless: the merkle root covers the compressed bytes as stored.
 */
function deflateOptions(length: number): ZlibOptions {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 1))));
  return { level: 6, windowBits, memLevel: Math.max(1, Math.min(8, windowBits - 7)) };
}

export function compressTx(tx: Uint8Array): Uint8Array {
  return new Uint8Array(deflateSync(tx, deflateOptions(tx.length)));
}

/**
 * {@link compressTx} on a thread of its own, with the same zlib and options, so the same bytes: a
 * producer has its block's transactions compressed there while it runs them, instead of after, on the
 * thread that runs the next block (7.9 % of a saturated node's main thread, bench/README.md).
 */
export function compressTxLater(tx: Uint8Array): Promise<Uint8Array> {
  compressing ??= new WorkerBatches({
    source: `
const { deflateSync } = require('node:zlib');
function handle({ tx, options }) {
  return Uint8Array.from(deflateSync(tx, options));
}`,
    inThread: ({ tx }) => compressTx(tx),
  });
  // Its own copy: a message copies a typed array's whole buffer, and `tx` may be a view into a larger one.
  return compressing.run({ tx: Uint8Array.from(tx), options: deflateOptions(tx.length) });
}

let compressing: WorkerBatches<{ tx: Uint8Array; options: ZlibOptions }, Uint8Array> | undefined;

export function decompressTx(compressed: Uint8Array, maxSize: number): Uint8Array {
  try {
    return new Uint8Array(inflateSync(compressed, { maxOutputLength: maxSize }));
  } catch (error) {
    throw new CodecError(`cannot decompress block transaction: ${(error as Error).message}`);
  }
}

export interface BuildBlockInput {
  /** The new header; sign, blockHash and rollbacksHash are filled in here. */
  header: Omit<BlockHeader, 'sign' | 'blockHash' | 'rollbacksHash'>;
  prevHeader: PrevBlockRef;
  /** Uncompressed transaction binaries, in execution order. */
  txs: readonly Uint8Array[];
  /** The same compressed ({@link compressTxLater}), when done ahead off the event loop. */
  compressedTxs?: Uint8Array[];
  /** This block's digest of its state changes; enters the next block's strings. */
  rollbacksHash: Uint8Array;
  hash: HashFn;
  sign: SignFn;
  afterTxs?: AfterTxs | null;
  sysUpdate?: boolean;
}

export interface BuiltBlock {
  /** The BlockData protobuf, as stored in block_chain.data. */
  bytes: Uint8Array;
  header: BlockHeader;
  blockHash: Uint8Array;
  merkleRoot: string;
  signature: Uint8Array;
  compressedTxs: Uint8Array[];
}

export function buildBlock(input: BuildBlockInput): BuiltBlock {
  const compressedTxs = input.compressedTxs ?? input.txs.map(compressTx);
  const root = merkleRoot(compressedTxs, input.hash);
  const unsigned: BlockHeader = {
    ...input.header,
    sign: new Uint8Array(0),
    blockHash: new Uint8Array(0),
    rollbacksHash: input.rollbacksHash,
  };
  const hashOfBlock = blockHash(unsigned, input.prevHeader, root, input.hash);
  const signature = input.sign(asciiBytes(forSign(unsigned, input.prevHeader, root)));
  const header: BlockHeader = { ...unsigned, sign: signature, blockHash: hashOfBlock };
  const data: BlockData = {
    header,
    // The reference carries only these three fields of the previous header.
    prevHeader: blockHeader({
      blockId: input.prevHeader.blockId,
      blockHash: input.prevHeader.blockHash,
      rollbacksHash: input.prevHeader.rollbacksHash,
    }),
    merkleRoot: asciiBytes(root),
    binData: new Uint8Array(0),
    txFullData: compressedTxs,
    afterTxs: input.afterTxs ?? null,
    sysUpdate: input.sysUpdate ?? false,
  };
  return {
    bytes: encodeBlockData(data),
    header,
    blockHash: hashOfBlock,
    merkleRoot: root,
    signature,
    compressedTxs,
  };
}

export interface ParsedBlock {
  data: BlockData;
  header: BlockHeader;
  prevHeader: BlockHeader;
  /** The merkle root text as carried in the block (not recomputed). */
  merkleRoot: string;
  compressedTxs: Uint8Array[];
  /** Decompressed transaction binaries. */
  txs: Uint8Array[];
}

export interface ParseBlockOptions {
  /** Cap on one decompressed transaction, against zlib bombs. Default: 64 MiB (max_block_size). */
  maxTxSize?: number;
}

const DEFAULT_MAX_TX_SIZE = 64 * 1024 * 1024;

export function parseBlock(bytes: Uint8Array, options: ParseBlockOptions = {}): ParsedBlock {
  const data = decodeBlockData(bytes);
  if (data.header === null) throw new CodecError('block has no header');
  if (data.prevHeader === null) throw new CodecError('block has no previous header');
  const maxTxSize = options.maxTxSize ?? DEFAULT_MAX_TX_SIZE;
  return {
    data,
    header: data.header,
    prevHeader: data.prevHeader,
    merkleRoot: Buffer.from(data.merkleRoot).toString('latin1'),
    compressedTxs: data.txFullData,
    txs: data.txFullData.map((tx) => decompressTx(tx, maxTxSize)),
  };
}

/**
 * Recomputes what the reference receiver trusts blindly (formats.md §3.2–3.3): the merkle root over
 * the compressed transactions and the block hash. The signature is left to the crypto layer.
 */
export function verifyBlockHashes(block: ParsedBlock, hash: HashFn): void {
  const root = merkleRoot(block.compressedTxs, hash);
  if (root !== block.merkleRoot) {
    throw new CodecError(`block ${block.header.blockId}: merkle root ${block.merkleRoot} should be ${root}`);
  }
  const expected = blockHash(block.header, block.prevHeader, root, hash);
  if (!bytesEqual(expected, block.header.blockHash)) {
    throw new CodecError(
      `block ${block.header.blockId}: block hash ${hexOf(block.header.blockHash)} should be ${hexOf(expected)}`,
    );
  }
}

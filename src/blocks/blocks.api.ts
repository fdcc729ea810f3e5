import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { isLosslessNumber } from 'lossless-json';
import { formatSize } from '../chain/codec';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { lenientInt64 } from '../common/http/path-params';
import { BlockchainRoute } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { listedParams } from './block-content';
import { BlocksService, type BlockRef, type BlockSummary, type StoredBlock } from './blocks.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** REST writes byte fields as base64 (Go []byte), JSON-RPC as hex. */
type Encode = (bytes: Buffer) => string;
const base64: Encode = (bytes) => bytes.toString('base64');
const hex: Encode = (bytes) => bytes.toString('hex');

function blockSummary(block: BlockSummary, encode: Encode) {
  return {
    hash: encode(block.hash),
    ecosystem_id: block.ecosystemId,
    key_id: block.keyId,
    time: block.time,
    tx_count: block.txCount,
    rollbacks_hash: encode(block.rollbacksHash),
    node_position: block.nodePosition,
    consensus_mode: block.consensusMode,
  };
}

/** The blocks list: per block (keyed by height, as text, in text order) its transactions in brief. */
function blocksTxInfo(blocks: readonly StoredBlock[], encode: Encode) {
  const entries = blocks.map((block) => [
    block.id.toString(),
    block.content.transactions.map((tx) => ({
      hash: encode(tx.hash),
      contract_name: tx.contractName,
      params: tx.transferSelf || tx.utxo ? null : tx.params,
      key_id: tx.keyId,
    })),
  ]);
  return Object.fromEntries(entries.sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)));
}

/**
 * A block in detail. The reference's members, plus the interface document's spellings where they differ
 * (`rollback_hash`; `sys_update` on REST) — a superset no client is hurt by (decisions.md).
 */
function detailedBlock(block: StoredBlock, encode: Encode, rest: boolean) {
  const { header, merkleRoot } = block.content;
  return {
    header: {
      block_id: header.blockId,
      time: header.timestamp,
      key_id: header.keyId,
      node_position: header.nodePosition,
      version: header.version,
    },
    hash: encode(block.hash),
    node_position: block.nodePosition,
    key_id: block.keyId,
    time: block.time,
    tx_count: block.txCount,
    size: formatSize(block.data.length),
    rollbacks_hash: encode(block.rollbacksHash),
    rollback_hash: encode(block.rollbacksHash),
    merkle_root: encode(Buffer.from(merkleRoot, 'latin1')),
    bin_data: encode(block.data),
    sys_update: rest ? false : undefined,
    stop_count: 0,
    transactions: block.content.transactions.map((tx) => ({
      hash: encode(tx.hash),
      contract_name: tx.contractName,
      params: listedParams(tx, { transferSelf: 'TransferSelf', utxo: 'UTXO' }),
      key_id: tx.keyId,
      time: tx.time,
      type: tx.type,
      size: formatSize(tx.payloadSize),
    })),
  };
}

function detailedBlocks(blocks: readonly StoredBlock[], encode: Encode, rest: boolean) {
  const entries = blocks.map((block) => [block.id.toString(), detailedBlock(block, encode, rest)] as const);
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** REST range: `block_id` is the first block (0 → from 1), `count` 25 by default and at most 1000. */
function restRange(req: ApiRequest): { first: bigint; count: bigint } {
  const form = parseForm(FormValues.of(req), { block_id: 'int64', count: 'int64' });
  const blockId = form.block_id ?? 0n;
  if (blockId < 0n) throw ApiError.server('parameter is invalid');
  let count = form.count ?? 25n;
  if (count <= 0n) count = 25n;
  if (count > 1000n) count = 1000n;
  return { first: blockId > 0n ? blockId : 1n, count };
}

/** JSON-RPC range: both required, the first block > 0, count 0 → 25, at most 100. */
function rpcRange(blockId: bigint, count: bigint): { first: bigint; count: bigint } {
  if (blockId <= 0n) throw RpcError.invalidParams(`params ${blockId} invalid`);
  let size = count;
  if (size <= 0n) size = 25n;
  if (size > 100n) size = 100n;
  return { first: blockId, count: size };
}

/** BlockIdOrHash (json-rpc.md §6.3): a 64-character hash, a height as text, or `{id}` / `{hash}`. */
function blockRef(raw: unknown): BlockRef | null {
  if (raw === null || raw === undefined) return null;
  let id: bigint | undefined;
  let hash: string | undefined;
  if (typeof raw === 'string') {
    if (raw.length === 64) hash = raw;
    else {
      if (!/^[0-9A-Za-z]+$/.test(raw)) throw new Error('invalid block id or block hash');
      if (!/^\d+$/.test(raw)) throw new Error(`strconv.ParseInt: parsing "${raw}": invalid syntax`);
      id = BigInt(raw);
    }
  } else if (typeof raw === 'object' && !Array.isArray(raw) && !isLosslessNumber(raw)) {
    const object = raw as { id?: unknown; hash?: unknown };
    if (object.id !== undefined && object.hash !== undefined && object.hash !== '') {
      throw new Error('block id or block hash must be only choose one');
    }
    if (isLosslessNumber(object.id) && /^-?\d+$/.test(object.id.value)) id = BigInt(object.id.value);
    if (typeof object.hash === 'string') hash = object.hash;
  } else {
    throw new Error(
      `json: cannot unmarshal ${isLosslessNumber(raw) ? 'number' : typeof raw} into Go value of type string`,
    );
  }
  if (hash !== undefined && /^[0-9a-fA-F]{64}$/.test(hash)) return { hash: Buffer.from(hash, 'hex') };
  if (id !== undefined && id > 0n) return { id };
  throw RpcError.invalidParams('params block Id Or block Hash invalid');
}

/** A block in brief; byte fields base64 on REST, hex on JSON-RPC. */
const BLOCK_SUMMARY = s.object({
  hash: s.string('block hash'),
  ecosystem_id: s.integer(),
  key_id: s.integer('key of the node that made it'),
  time: s.integer('Unix time, seconds'),
  tx_count: s.integer(),
  rollbacks_hash: s.string(),
  node_position: s.integer(),
  consensus_mode: s.integer(),
});
const TX_BRIEF = s.object({
  hash: s.string(),
  contract_name: s.string(),
  params: s.nullable(s.map(s.any())),
  key_id: s.integer(),
});
const BLOCKS_TX_INFO = s.map(s.array(TX_BRIEF), 'by block id: its transactions in brief');
const DETAILED_BLOCK = s.object(
  {
    header: s.object({
      block_id: s.integer(),
      time: s.integer(),
      key_id: s.integer(),
      node_position: s.integer(),
      version: s.integer(),
    }),
    hash: s.string(),
    node_position: s.integer(),
    key_id: s.integer(),
    time: s.integer(),
    tx_count: s.integer(),
    size: s.string('e.g. "1.20 KiB"'),
    rollbacks_hash: s.string(),
    rollback_hash: s.string('the same, as the interface document spells it'),
    merkle_root: s.string(),
    bin_data: s.string('the block as stored'),
    sys_update: s.boolean('REST only'),
    stop_count: s.integer(),
    transactions: s.array(
      s.object({
        hash: s.string(),
        contract_name: s.string(),
        params: s.any(),
        key_id: s.integer(),
        time: s.integer(),
        type: s.integer(),
        size: s.string(),
      }),
    ),
  },
  { optional: ['sys_update'] },
);
const DETAILED_BLOCKS = s.map(DETAILED_BLOCK, 'by block id');
const RANGE_FORM = {
  block_id: { description: 'first block (0 or absent: 1)', schema: s.integer() },
  count: { description: 'how many blocks: 25 by default, at most 1000', schema: s.integer() },
};
const RPC_RANGE = [
  { name: 'blockId', type: 'int64', description: 'first block (> 0)' },
  { name: 'count', type: 'int64', description: 'how many: 0 → 25, at most 100' },
] as const;
const BLOCK_REF = {
  name: 'block',
  type: blockRef,
  optional: true,
  description: 'a block hash (64 hex), a block id as text, or {"id": n} / {"hash": "…"}',
  schema: s.oneOf(s.string(), s.object({ id: s.integer() }), s.object({ hash: s.hex() })),
};

@Controller('api/v2')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @ApiRoute({
    summary: 'Height of the chain (id of the last block)',
    answer: s.object({ max_block_id: s.integer() }),
  })
  @Get('maxblockid')
  @BlockchainRoute()
  async maxBlockId() {
    return { max_block_id: await this.blocks.maxBlockId() };
  }

  @ApiRoute({
    summary: 'A block in brief',
    path: { id: 'block id' },
    answer: BLOCK_SUMMARY,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('block/:id')
  @BlockchainRoute()
  async block(@Param('id') id: string) {
    return blockSummary(await this.blocks.block(lenientInt64(id)), base64);
  }

  @ApiRoute({
    summary: 'Blocks from block_id on, with their transactions in brief',
    form: RANGE_FORM,
    answer: BLOCKS_TX_INFO,
    errors: ['E_SERVER'],
  })
  @Get('blocks')
  @BlockchainRoute()
  async blocksList(@Req() req: ApiRequest) {
    const { first, count } = restRange(req);
    return blocksTxInfo(await this.blocks.range(first, count), base64);
  }

  @ApiRoute({
    summary: 'Blocks from block_id on, in detail',
    form: RANGE_FORM,
    answer: DETAILED_BLOCKS,
    errors: ['E_SERVER'],
  })
  @Get('detailed_blocks')
  @BlockchainRoute()
  async detailedBlocks(@Req() req: ApiRequest) {
    const { first, count } = restRange(req);
    return detailedBlocks(await this.blocks.range(first, count), base64, true);
  }
}

@Injectable()
export class BlocksRpc {
  constructor(private readonly blocks: BlocksService) {}

  @RpcMethod('maxBlockId', { summary: 'Height of the chain (id of the last block)', result: s.integer() })
  maxBlockId() {
    return this.blocks.maxBlockId();
  }

  @RpcMethod('getBlockInfo', {
    summary: 'A block in brief',
    params: [{ name: 'blockId', type: 'int64', description: 'block id' }],
    result: BLOCK_SUMMARY,
  })
  async getBlockInfo([id]: [bigint]) {
    return blockSummary(await this.blocks.block(id), hex);
  }

  @RpcMethod('getBlocksTxInfo', {
    summary: 'Blocks from blockId on, with their transactions in brief',
    params: [...RPC_RANGE],
    result: BLOCKS_TX_INFO,
  })
  async getBlocksTxInfo([blockId, count]: [bigint, bigint]) {
    const range = rpcRange(blockId, count);
    return blocksTxInfo(await this.blocks.range(range.first, range.count), hex);
  }

  @RpcMethod('detailedBlocks', {
    summary: 'Blocks from blockId on, in detail',
    params: [...RPC_RANGE],
    result: DETAILED_BLOCKS,
  })
  async detailedBlocks([blockId, count]: [bigint, bigint]) {
    const range = rpcRange(blockId, count);
    return detailedBlocks(await this.blocks.range(range.first, range.count), hex, false);
  }

  @RpcMethod('detailedBlock', {
    summary: 'One block in detail, by id or hash',
    params: [BLOCK_REF],
    result: DETAILED_BLOCK,
  })
  async detailedBlock([ref]: [BlockRef | null | undefined]) {
    if (!ref) throw RpcError.invalidParams('params can not be empty');
    return detailedBlock(await this.blocks.stored(ref), hex, false);
  }

  @RpcMethod('getTransactionCount', {
    summary: 'Number of transactions in a block, by id or hash',
    params: [BLOCK_REF],
    result: s.integer(),
  })
  async getTransactionCount([ref]: [BlockRef | null | undefined]) {
    if (!ref) throw RpcError.invalidParams('params can not be empty');
    return this.blocks.blockTransactionCount(ref);
  }
}

import { Controller, Get, Injectable } from '@nestjs/common';
import { formatSize } from '../chain/codec';
import { Form } from '../http/form';
import { BlockchainRoute } from '../http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { listedParams } from '../chain/block-content';
import {
  BlockIdOrHashParams,
  BlockIdParams,
  BlockPath,
  BlocksRangeForm,
  BlocksRangeParams,
  readBlockIdOrHash,
} from './blocks.dto';
import { Finality } from '../chain/finality.service';
import { BlocksService, type BlockRef, type BlockSummary, type StoredBlock } from './blocks.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import {
  BLOCK_SUMMARY,
  BLOCKS_TX_INFO,
  DETAILED_BLOCK,
  DETAILED_BLOCKS,
  type BlockInBrief,
  type BlocksTxInfo,
  type DetailedBlock,
  type DetailedBlocks,
} from './blocks.answers';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getBlockInfo: 'A block in brief',
  maxBlockId: 'Height of the chain (id of the last block)',
} as const;

/** REST writes byte fields as base64 (Go []byte), JSON-RPC as hex. */
type Encode = (bytes: Buffer) => string;
const base64: Encode = (bytes) => bytes.toString('base64');
const hex: Encode = (bytes) => bytes.toString('hex');

function blockSummary(block: BlockSummary, encode: Encode): BlockInBrief {
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
function blocksTxInfo(blocks: readonly StoredBlock[], encode: Encode): BlocksTxInfo {
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

/** A block in detail ({@link DETAILED_BLOCK}); `sys_update` on REST only. */
function detailedBlock(block: StoredBlock, encode: Encode, rest: boolean): DetailedBlock {
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

function detailedBlocks(blocks: readonly StoredBlock[], encode: Encode, rest: boolean): DetailedBlocks {
  const entries = blocks.map((block) => [block.id.toString(), detailedBlock(block, encode, rest)] as const);
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * REST range: `block_id` is the first block (0 → from 1; below 0 the DTO refuses), `count` 25 by default
 * and at most 1000.
 */
function restRange(form: BlocksRangeForm): { first: bigint; count: bigint } {
  const blockId = form.block_id ?? 0n;
  let count = form.count ?? 25n;
  if (count <= 0n) count = 25n;
  if (count > 1000n) count = 1000n;
  return { first: blockId > 0n ? blockId : 1n, count };
}

/** JSON-RPC range: both required, the first block > 0 (its DTO refuses less), count 0 → 25, at most 100. */
function rpcRange(blockId: bigint, count: bigint): { first: bigint; count: bigint } {
  let size = count;
  if (size <= 0n) size = 25n;
  if (size > 100n) size = 100n;
  return { first: blockId, count: size };
}

/** The block a BlockIdOrHash argument names; one of its shapes that names none is refused. */
function blockRef({ block }: BlockIdOrHashParams): BlockRef {
  const { ref } = readBlockIdOrHash(block);
  if (!ref) throw RpcError.invalidParams('params block Id Or block Hash invalid');
  return ref;
}

@Controller('api/v2')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @ApiRoute({
    summary: SUMMARY.maxBlockId,
    description:
      'The highest id in `block_chain`, as a JSON number. An empty chain is 404 E_NOTFOUND; not served on CLB ' +
      'nodes. JSON-RPC: `ibax.maxBlockId` (the bare number).',
    answer: s.object({ max_block_id: s.integer() }),
    errors: ['E_NOTFOUND'],
  })
  @Get('maxblockid')
  @BlockchainRoute()
  async maxBlockId() {
    return { max_block_id: await this.blocks.maxBlockId() };
  }

  @ApiRoute({
    summary: SUMMARY.getBlockInfo,
    description:
      'Reads the `block_chain` row: `hash` and `rollbacks_hash` are base64 here (hex on JSON-RPC ' +
      "`ibax.getBlockInfo`), `time` is Unix seconds, `key_id` the producing node's key. A path id that is not " +
      'a number reads as block 0; a block that does not exist is 404 E_NOTFOUND. Not served on CLB nodes.',
    answer: BLOCK_SUMMARY,
    errors: ['E_NOTFOUND'],
  })
  @Get('block/:id')
  @BlockchainRoute()
  async block(@Form() { id }: BlockPath) {
    return blockSummary(await this.blocks.block(id), base64);
  }

  @ApiRoute({
    summary: 'Blocks from block_id on, with their transactions in brief',
    description:
      'The blocks `block_id` … `block_id + count - 1` that exist (`block_id` 0 or absent: 1; `count` 25 by ' +
      'default, at most 1000), keyed by id as text in text order; per transaction its hash (base64), contract ' +
      'name ("" for transfers), params (null for transfers, bytes in them base64) and signer. A negative ' +
      '`block_id` is E_SERVER "parameter is invalid", no block in the range 404 E_NOTFOUND, a block that ' +
      'cannot be decoded E_SERVER. JSON-RPC: `ibax.getBlocksTxInfo` (hex, at most 100).',
    answer: BLOCKS_TX_INFO,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('blocks')
  @BlockchainRoute()
  async blocksList(@Form() form: BlocksRangeForm) {
    const { first, count } = restRange(form);
    return blocksTxInfo(await this.blocks.range(first, count), base64);
  }

  @ApiRoute({
    summary: 'Blocks from block_id on, in detail',
    description:
      'Range, order and errors as `blocks`. Byte fields are base64: `merkle_root` encodes the stored root ' +
      '(hex text), `bin_data` the whole stored block; sizes read like "1.69KiB", transaction `time` is in ' +
      'milliseconds, and type 5/6 transfers show under `params` as `UTXO` / `TransferSelf`. `rollback_hash` ' +
      "and `sys_update` (always false) are the interface document's extra members. JSON-RPC: " +
      '`ibax.detailedBlocks` (hex, at most 100).',
    answer: DETAILED_BLOCKS,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('detailed_blocks')
  @BlockchainRoute()
  async detailedBlocks(@Form() form: BlocksRangeForm) {
    const { first, count } = restRange(form);
    return detailedBlocks(await this.blocks.range(first, count), base64, true);
  }
}

@Injectable()
export class BlocksRpc {
  constructor(
    private readonly blocks: BlocksService,
    private readonly finality: Finality,
  ) {}

  @RpcMethod('finalizedBlockId', {
    summary: 'Id of the highest final block: voted for by more than half of the honor nodes',
    description:
      'A final block and every block below it are never taken back by the network (an operator may, with ' +
      '`admin.rollbackBlocks count true`). On a node alone every block is final once written. 1 (the genesis ' +
      'block) before any vote.',
    result: s.integer(),
    errors: ['E_SERVER'],
  })
  async finalizedBlockId() {
    return (await this.finality.finalized()).id;
  }

  @RpcMethod('maxBlockId', {
    summary: SUMMARY.maxBlockId,
    result: s.integer(),
    errors: ['E_NOTFOUND'],
  })
  maxBlockId() {
    return this.blocks.maxBlockId();
  }

  @RpcMethod('getBlockInfo', {
    summary: SUMMARY.getBlockInfo,
    description:
      '`hash` and `rollbacks_hash` are hex (base64 on REST `block/{id}`); `time` is Unix seconds. An id that ' +
      'names no block (0 or less included) is NotFound.',
    result: BLOCK_SUMMARY,
    errors: ['E_NOTFOUND'],
  })
  async getBlockInfo({ blockId }: BlockIdParams) {
    return blockSummary(await this.blocks.block(blockId), hex);
  }

  @RpcMethod('getBlocksTxInfo', {
    summary: 'Blocks from blockId on, with their transactions in brief',
    description:
      'Both params are required: `blockId` (> 0) is the first block, `count` 0 or less means 25, at most 100. ' +
      'The blocks of that range that exist, keyed by id as text; hashes hex, bytes inside params base64. No ' +
      'block in the range is NotFound.',
    result: BLOCKS_TX_INFO,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  async getBlocksTxInfo({ blockId, count }: BlocksRangeParams) {
    const range = rpcRange(blockId, count);
    return blocksTxInfo(await this.blocks.range(range.first, range.count), hex);
  }

  @RpcMethod('detailedBlocks', {
    summary: 'Blocks from blockId on, in detail',
    description:
      'Params and range as `getBlocksTxInfo` (`blockId` > 0, `count` 0 → 25, at most 100). Byte fields are ' +
      'hex: `merkle_root` is the hex of the stored root (itself hex text), `bin_data` the whole stored block; ' +
      'transaction `time` is in milliseconds.',
    result: DETAILED_BLOCKS,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  async detailedBlocks({ blockId, count }: BlocksRangeParams) {
    const range = rpcRange(blockId, count);
    return detailedBlocks(await this.blocks.range(range.first, range.count), hex, false);
  }

  @RpcMethod('detailedBlock', {
    summary: 'One block in detail, by id or hash',
    description:
      'The block: a 64-hex hash, an id as a decimal string, or `{"id": n}` / `{"hash": "…"}` (a bare number ' +
      'is refused; an id of 0 or less or a malformed hash is invalid params). Byte fields are hex, as in ' +
      '`detailedBlocks`.',
    result: DETAILED_BLOCK,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  async detailedBlock(params: BlockIdOrHashParams) {
    return detailedBlock(await this.blocks.stored(blockRef(params)), hex, false);
  }

  @RpcMethod('getTransactionCount', {
    summary: 'Number of transactions in a block, by id or hash',
    description:
      'The block is named as for `detailedBlock`: a 64-hex hash, an id as text, or `{id}` / `{hash}`.',
    result: s.integer(),
    errors: ['E_NOTFOUND'],
  })
  async getTransactionCount(params: BlockIdOrHashParams) {
    return this.blocks.blockTransactionCount(blockRef(params));
  }
}

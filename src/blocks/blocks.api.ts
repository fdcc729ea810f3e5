import { Controller, Get, Injectable, Param } from '@nestjs/common';
import { BlockchainRoute } from '../common/http/request-gates';
import { lenientInt64 } from '../common/http/path-params';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { BlocksService, type BlockSummary } from './blocks.service';

@Controller('api/v2')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Get('maxblockid')
  @BlockchainRoute()
  async maxBlockId() {
    return { max_block_id: await this.blocks.maxBlockId() };
  }

  /** REST writes the hashes as base64 (Go []byte), JSON-RPC as hex. */
  @Get('block/:id')
  @BlockchainRoute()
  async block(@Param('id') id: string) {
    return blockSummary(await this.blocks.block(lenientInt64(id)), (hash) => hash.toString('base64'));
  }
}

@Injectable()
export class BlocksRpc {
  constructor(private readonly blocks: BlocksService) {}

  @RpcMethod('maxBlockId')
  maxBlockId() {
    return this.blocks.maxBlockId();
  }

  @RpcMethod('getBlockInfo', { params: [{ name: 'blockId', type: 'int64' }] })
  async getBlockInfo([id]: [bigint]) {
    return blockSummary(await this.blocks.block(id), (hash) => hash.toString('hex'));
  }
}

function blockSummary(block: BlockSummary, encode: (hash: Buffer) => string) {
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

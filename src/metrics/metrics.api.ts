import { Controller, Get, Injectable, Param } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { lenientInt64 } from '../common/http/path-params';
import { RpcError } from '../rpc/rpc-error';
import { BlocksService } from '../blocks/blocks.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { BlockchainRoute } from '../common/http/request-gates';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcMethod } from '../rpc/rpc-method.decorator';

/** Bytes the process uses: `alloc` = JS heap in use, `sys` = resident set obtained from the system. */
export function memoryStat(): { alloc: number; sys: number } {
  const usage = process.memoryUsage();
  return { alloc: usage.heapUsed, sys: usage.rss };
}

@Injectable()
export class MetricsService {
  constructor(
    private readonly blocks: BlocksService,
    private readonly ecosystems: EcosystemService,
    private readonly parameters: PlatformParametersService,
  ) {}

  /** Honor nodes in the list, at least 1 (the node itself produces blocks when the list is empty). */
  async honorNodesCount(): Promise<number> {
    return Math.max(1, (await this.parameters.honorNodes()).length);
  }

  /** Per honor node (by position), whether it is banned now (`unban_time` in the future). */
  async banStat(): Promise<{ node_position: number; status: boolean }[]> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const nodes = (await this.parameters.honorNodes()).filter((node) => !node.stopped);
    return nodes.map((node, position) => ({
      node_position: position,
      status: Number(node.unban_time) > nowSeconds,
    }));
  }

  blocksByNode = (position: bigint, mode: number) => this.blocks.countByNode(position, mode);
  keys = () => this.ecosystems.keysCount();
  ecosystemsCount = () => this.ecosystems.count();
  blocksCount = () => this.blocks.maxBlockId();
  transactions = () => this.blocks.transactionCount();
}

/** The interface document lists "metrics" among what a CLB node does not serve. */
@Controller('api/v2/metrics')
@BlockchainRoute()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('keys')
  async keys() {
    return { count: await this.metrics.keys() };
  }

  @Get('blocks')
  async blocks() {
    return { count: await this.metrics.blocksCount() };
  }

  @Get('transactions')
  async transactions() {
    return { count: await this.metrics.transactions() };
  }

  @Get('ecosystems')
  async ecosystems() {
    return { count: await this.metrics.ecosystemsCount() };
  }

  @Get('honornodes')
  async honorNodes() {
    return { count: await this.metrics.honorNodesCount() };
  }

  @Get('ban')
  ban() {
    return this.metrics.banStat();
  }

  @Get('blockper/:node/:mode')
  async blockPer(@Param('node') node: string, @Param('mode') mode: string) {
    const consensusMode = lenientInt64(mode);
    if (consensusMode !== 1n && consensusMode !== 2n) throw new ApiError('E_PARAMNOTFOUND', 'mode');
    const { total, partial } = await this.metrics.blocksByNode(lenientInt64(node), Number(consensusMode));
    return { totalcount: total, partialcount: partial };
  }

  @Get('mem')
  mem() {
    return memoryStat();
  }
}

@Injectable()
export class MetricsRpc {
  constructor(private readonly metrics: MetricsService) {}

  @RpcMethod('getTxCount')
  getTxCount() {
    return this.metrics.transactions();
  }

  @RpcMethod('honorNodesCount')
  honorNodesCount() {
    return this.metrics.honorNodesCount();
  }

  @RpcMethod('getBlocksCountByNode', {
    params: [
      { name: 'nodePosition', type: 'int64' },
      { name: 'consensusMode', type: 'int32' },
    ],
  })
  async getBlocksCountByNode([position, mode]: [bigint, bigint | number]) {
    if (position < 0n || (Number(mode) !== 1 && Number(mode) !== 2)) {
      throw RpcError.invalidParams('params can not be empty');
    }
    const { total, partial } = await this.metrics.blocksByNode(position, Number(mode));
    return { total_count: total, partial_count: partial };
  }

  @RpcMethod('getNodeBanStat', { namespaces: ['debug'] })
  getNodeBanStat() {
    return this.metrics.banStat();
  }

  @RpcMethod('getMemStat', { namespaces: ['debug'] })
  getMemStat() {
    return memoryStat();
  }
}

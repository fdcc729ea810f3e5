import { Controller, Get, Injectable, Param } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { lenientInt64 } from '../common/http/path-params';
import { RpcError } from '../rpc/rpc-error';
import { BlocksService } from '../blocks/blocks.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { BlockchainRoute } from '../common/http/request-gates';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Bytes the process uses: `alloc` = JS heap in use, `sys` = resident set obtained from the system. */
export function memoryStat(): { alloc: number; sys: number } {
  const usage = process.memoryUsage();
  return { alloc: usage.heapUsed, sys: usage.rss };
}

const BAN_STAT = s.array(s.object({ node_position: s.integer(), status: s.boolean('banned now') }));
const MEM_STAT = s.object({
  alloc: s.integer('JavaScript heap in use'),
  sys: s.integer('resident set size'),
});

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

  @ApiRoute({ summary: 'Number of keys over all ecosystems', answer: s.object({ count: s.integer() }) })
  @Get('keys')
  async keys() {
    return { count: await this.metrics.keys() };
  }

  @ApiRoute({ summary: 'Number of blocks', answer: s.object({ count: s.integer() }) })
  @Get('blocks')
  async blocks() {
    return { count: await this.metrics.blocksCount() };
  }

  @ApiRoute({ summary: 'Number of transactions in blocks', answer: s.object({ count: s.integer() }) })
  @Get('transactions')
  async transactions() {
    return { count: await this.metrics.transactions() };
  }

  @ApiRoute({ summary: 'Number of ecosystems', answer: s.object({ count: s.integer() }) })
  @Get('ecosystems')
  async ecosystems() {
    return { count: await this.metrics.ecosystemsCount() };
  }

  @ApiRoute({ summary: 'Number of honor nodes (at least 1)', answer: s.object({ count: s.integer() }) })
  @Get('honornodes')
  async honorNodes() {
    return { count: await this.metrics.honorNodesCount() };
  }

  @ApiRoute({ summary: 'Per honor node, whether it is banned now', answer: BAN_STAT })
  @Get('ban')
  ban() {
    return this.metrics.banStat();
  }

  @ApiRoute({
    summary: 'Blocks made by an honor node: all, and in a consensus mode',
    path: { node: 'node position', mode: 'consensus mode: 1 or 2' },
    answer: s.object({ totalcount: s.integer(), partialcount: s.integer() }),
    errors: ['E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('blockper/:node/:mode')
  async blockPer(@Param('node') node: string, @Param('mode') mode: string) {
    const consensusMode = lenientInt64(mode);
    if (consensusMode !== 1n && consensusMode !== 2n) throw new ApiError('E_PARAMNOTFOUND', 'mode');
    const { total, partial } = await this.metrics.blocksByNode(lenientInt64(node), Number(consensusMode));
    return { totalcount: total, partialcount: partial };
  }

  @ApiRoute({ summary: 'Memory of the node process, bytes', answer: MEM_STAT })
  @Get('mem')
  mem() {
    return memoryStat();
  }
}

@Injectable()
export class MetricsRpc {
  constructor(private readonly metrics: MetricsService) {}

  @RpcMethod('getTxCount', { summary: 'Number of transactions in blocks', result: s.integer() })
  getTxCount() {
    return this.metrics.transactions();
  }

  @RpcMethod('honorNodesCount', { summary: 'Number of honor nodes (at least 1)', result: s.integer() })
  honorNodesCount() {
    return this.metrics.honorNodesCount();
  }

  @RpcMethod('getBlocksCountByNode', {
    summary: 'Blocks made by an honor node: all, and in a consensus mode',
    params: [
      { name: 'nodePosition', type: 'int64', description: 'node position' },
      { name: 'consensusMode', type: 'int32', description: '1 or 2' },
    ],
    result: s.object({ total_count: s.integer(), partial_count: s.integer() }),
  })
  async getBlocksCountByNode([position, mode]: [bigint, bigint | number]) {
    if (position < 0n || (Number(mode) !== 1 && Number(mode) !== 2)) {
      throw RpcError.invalidParams('params can not be empty');
    }
    const { total, partial } = await this.metrics.blocksByNode(position, Number(mode));
    return { total_count: total, partial_count: partial };
  }

  @RpcMethod('getNodeBanStat', {
    namespaces: ['debug'],
    summary: 'Per honor node, whether it is banned now',
    result: BAN_STAT,
  })
  getNodeBanStat() {
    return this.metrics.banStat();
  }

  @RpcMethod('getMemStat', {
    namespaces: ['debug'],
    summary: 'Memory of the node process, bytes',
    result: MEM_STAT,
  })
  getMemStat() {
    return memoryStat();
  }
}

import { Controller, Get, Injectable } from '@nestjs/common';
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

  @RpcMethod('getMemStat', { namespaces: ['debug'] })
  getMemStat() {
    return memoryStat();
  }
}

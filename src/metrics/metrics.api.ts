import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { Form } from '../http/form';
import { BlocksService } from '../blocks/blocks.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { BlockchainRoute } from '../http/request-gates';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { SUMMARY as ECOSYSTEM_SUMMARY } from '../ecosystem/ecosystem.api';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { BlockPerPath, BlocksCountByNodeParams } from './metrics.dto';
import { BAN_STAT, MEM_STAT, type BanStat, type MemStat } from './metrics.answers';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getBlocksCountByNode: 'Blocks made by an honor node: all, and in a consensus mode',
  getMemStat: 'Memory of the node process, bytes',
  getNodeBanStat: 'Per honor node, whether it is banned now',
  getTxCount: 'Number of transactions in blocks',
  honorNodesCount: 'Number of honor nodes (at least 1)',
} as const;

/** Bytes the process uses: `alloc` = JS heap in use, `sys` = resident set obtained from the system. */
export function memoryStat(): MemStat {
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
  async banStat(): Promise<BanStat> {
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

  @ApiRoute({
    summary: 'Number of keys (accounts) in ecosystem 1',
    description:
      'Counts the rows of `1_keys` with ecosystem 1, the accounts registered on the platform; keys of ' +
      'other ecosystems are not counted. Not served on a CLB node (404). JSON-RPC: `ibax.getKeysCount`.',
    answer: s.object({ count: s.integer() }),
  })
  @Get('keys')
  async keys() {
    return { count: await this.metrics.keys() };
  }

  @ApiRoute({
    summary: 'Number of blocks',
    description:
      'The highest block id in `block_chain` (blocks are numbered from 1, genesis included). An empty ' +
      'chain is 404 E_NOTFOUND. Not served on a CLB node (404). JSON-RPC: `ibax.maxBlockId` answers the ' +
      'same number.',
    answer: s.object({ count: s.integer() }),
    errors: ['E_NOTFOUND'],
  })
  @Get('blocks')
  async blocks() {
    return { count: await this.metrics.blocksCount() };
  }

  @ApiRoute({
    summary: SUMMARY.getTxCount,
    description:
      'The sum of the transaction counts of every block in `block_chain`: mined transactions only, not ' +
      'those waiting; 0 on an empty chain. Not served on a CLB node (404). JSON-RPC: `ibax.getTxCount`.',
    answer: s.object({ count: s.integer() }),
  })
  @Get('transactions')
  async transactions() {
    return { count: await this.metrics.transactions() };
  }

  @ApiRoute({
    summary: ECOSYSTEM_SUMMARY.getEcosystemCount,
    description:
      'The rows of `1_ecosystems`, the platform ecosystem included. Not served on a CLB node (404). ' +
      'JSON-RPC: `ibax.getEcosystemCount`.',
    answer: s.object({ count: s.integer() }),
  })
  @Get('ecosystems')
  async ecosystems() {
    return { count: await this.metrics.ecosystemsCount() };
  }

  @ApiRoute({
    summary: SUMMARY.honorNodesCount,
    description:
      'The length of the `honor_nodes` platform parameter list, stopped nodes included; 1 when the list is ' +
      'empty or unreadable, as the node then makes the blocks itself. Not served on a CLB node (404). ' +
      'JSON-RPC: `ibax.honorNodesCount`.',
    answer: s.object({ count: s.integer() }),
  })
  @Get('honornodes')
  async honorNodes() {
    return { count: await this.metrics.honorNodesCount() };
  }

  @ApiRoute({
    summary: SUMMARY.getNodeBanStat,
    description:
      'One entry per node of the `honor_nodes` platform parameter that is not stopped, `node_position` ' +
      'counting from 0 over those; `status` is true while its `unban_time` (Unix seconds) is in the ' +
      'future. `[]` when the list is empty. Not served on a CLB node (404). JSON-RPC: ' +
      '`debug.getNodeBanStat`.',
    answer: BAN_STAT,
  })
  @Get('ban')
  ban() {
    return this.metrics.banStat();
  }

  @ApiRoute({
    summary: SUMMARY.getBlocksCountByNode,
    description:
      '`totalcount` is the highest block id; `partialcount` counts the blocks made by node position `node` ' +
      'in consensus mode `mode` (1 honor node, 2 candidate node). Path values are read leniently (text ' +
      'that is not a number is 0). A mode other than 1 or 2 is 404 E_PARAMNOTFOUND, an empty chain 404 ' +
      'E_NOTFOUND; not served on a CLB node. JSON-RPC: `ibax.getBlocksCountByNode`.',
    answer: s.object({ totalcount: s.integer(), partialcount: s.integer() }),
    errors: ['E_PARAMNOTFOUND', 'E_NOTFOUND'],
  })
  @Get('blockper/:node/:mode')
  async blockPer(@Form() { node, mode }: BlockPerPath) {
    if (mode !== 1n && mode !== 2n) throw new ApiError('E_PARAMNOTFOUND', 'mode');
    const { total, partial } = await this.metrics.blocksByNode(node, Number(mode));
    return { totalcount: total, partialcount: partial };
  }

  @ApiRoute({
    summary: SUMMARY.getMemStat,
    description:
      'Figures of this Node.js process: `alloc` is the JavaScript heap in use, `sys` the resident set ' +
      "size, so they do not compare with the reference node's Go runtime figures. Not served on a CLB node " +
      '(404). JSON-RPC: `debug.getMemStat`.',
    answer: MEM_STAT,
  })
  @Get('mem')
  mem() {
    return memoryStat();
  }
}

@Injectable()
export class MetricsRpc {
  constructor(private readonly metrics: MetricsService) {}

  @RpcMethod('getTxCount', { summary: SUMMARY.getTxCount, result: s.integer() })
  getTxCount() {
    return this.metrics.transactions();
  }

  @RpcMethod('honorNodesCount', { summary: SUMMARY.honorNodesCount, result: s.integer() })
  honorNodesCount() {
    return this.metrics.honorNodesCount();
  }

  @RpcMethod('getBlocksCountByNode', {
    summary: SUMMARY.getBlocksCountByNode,
    description:
      '`total_count` is the highest block id, `partial_count` the blocks of that node position in that ' +
      'consensus mode (1 honor node, 2 candidate node). A negative position or another mode is refused as ' +
      'invalid params; an empty chain answers -32012 "NotFound".',
    result: s.object({ total_count: s.integer(), partial_count: s.integer() }),
    errors: ['E_NOTFOUND'],
  })
  async getBlocksCountByNode({ nodePosition, consensusMode }: BlocksCountByNodeParams) {
    const { total, partial } = await this.metrics.blocksByNode(nodePosition, consensusMode);
    return { total_count: total, partial_count: partial };
  }

  @RpcMethod('getNodeBanStat', {
    namespaces: ['debug'],
    summary: SUMMARY.getNodeBanStat,
    result: BAN_STAT,
  })
  getNodeBanStat() {
    return this.metrics.banStat();
  }

  @RpcMethod('getMemStat', {
    namespaces: ['debug'],
    summary: SUMMARY.getMemStat,
    result: MEM_STAT,
  })
  getMemStat() {
    return memoryStat();
  }
}

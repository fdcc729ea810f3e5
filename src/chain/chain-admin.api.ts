import { Injectable } from '@nestjs/common';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { ChainRollback } from './rollback.service';
import { schema as s } from '../api-docs/schema';

/** Operator methods on the chain itself, in the `admin` namespace (off unless JSONRPC_NAMESPACES has it). */
@Injectable()
export class ChainAdminRpc {
  constructor(private readonly rollback: ChainRollback) {}

  /** `admin.rollbackBlocks [n]`: takes the last n blocks off the chain. */
  @RpcMethod('rollbackBlocks', {
    namespaces: ['admin'],
    summary: 'Take the last blocks off the chain, undoing their transactions',
    params: [{ name: 'count', type: 'int64', description: 'how many blocks (1 to 1,000,000)' }],
    result: s.object({ rolled_back: s.integer(), max_block_id: s.integer() }),
  })
  async rollbackBlocks([count]: [bigint]) {
    if (count < 1n || count > 1_000_000n) throw RpcError.invalidParams(`params ${count} invalid`);
    const result = await this.rollback.rollback(Number(count));
    return { rolled_back: result.rolledBack, max_block_id: result.maxBlockId };
  }
}

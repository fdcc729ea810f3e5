import { Injectable } from '@nestjs/common';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { RollbackBlocksParams } from './chain-admin.dto';
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
    description:
      '`count` blocks (1 to 1,000,000), newest first, in one database transaction: their changes are ' +
      'undone, their transactions leave the block with a "rolled back" status and are not mined again, and ' +
      'the tip moves back. The genesis block stays: a count that would reach it answers -32000 "cannot ' +
      'roll back …". So do final blocks (voted for by a majority of the honor nodes) unless `force` is true; ' +
      'a forced rollback is logged as a warning. Served only when JSONRPC_NAMESPACES lists admin.',
    result: s.object({ rolled_back: s.integer(), max_block_id: s.integer() }),
    errors: ['E_SERVER'],
  })
  async rollbackBlocks({ count, force }: RollbackBlocksParams) {
    const result = await this.rollback.rollback(Number(count), { force: force === true });
    return { rolled_back: result.rolledBack, max_block_id: result.maxBlockId };
  }
}

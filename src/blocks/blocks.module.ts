import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { ContractsModule } from '../contracts/contracts.module';
import { BlocksController, BlocksRpc } from './blocks.api';
import { BlocksService } from './blocks.service';
import { BLOCKS_ENTITIES } from './entities';

/** Blocks: the height, a block and its transactions, block ranges, and what they did. */
@Module({
  imports: [TypeOrmModule.forFeature(BLOCKS_ENTITIES), ChainCoreModule, ContractsModule],
  controllers: [BlocksController],
  providers: [BlocksService, BlocksRpc],
  exports: [BlocksService],
})
export class BlocksModule {}

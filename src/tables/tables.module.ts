import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { ContractsModule } from '../contracts/contracts.module';
import { TablesController, TablesRpc } from './tables.api';
import { TablesService } from './tables.service';
import { TABLES_ENTITIES } from './entities';

/** Reads of ecosystem tables (lists, rows, sums, history) with their read permissions; also for the page engine. */
@Module({
  imports: [TypeOrmModule.forFeature(TABLES_ENTITIES), ChainCoreModule, ContractsModule],
  controllers: [TablesController],
  providers: [TablesService, TablesRpc],
  exports: [TablesService],
})
export class TablesModule {}

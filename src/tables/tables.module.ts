import { Module } from '@nestjs/common';
import { TablesController, TablesRpc } from './tables.api';
import { TablesService } from './tables.service';

/** Reads of ecosystem tables: the table-access service (also for the page engine) and its endpoints. */
@Module({
  controllers: [TablesController],
  providers: [TablesService, TablesRpc],
  exports: [TablesService],
})
export class TablesModule {}

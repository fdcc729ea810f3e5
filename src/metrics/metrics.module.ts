import { Module } from '@nestjs/common';
import { BlocksModule } from '../blocks/blocks.module';
import { ChainCoreModule } from '../chain/chain-core.module';
import { EcosystemModule } from '../ecosystem/ecosystem.module';
import { MetricsController, MetricsRpc, MetricsService } from './metrics.api';

/** Counts over the chain: keys, blocks, transactions, ecosystems, honor nodes. */
@Module({
  imports: [BlocksModule, ChainCoreModule, EcosystemModule],
  controllers: [MetricsController],
  providers: [MetricsService, MetricsRpc],
})
export class MetricsModule {}

import { Module } from '@nestjs/common';
import { ContractsModule } from '../../contracts/contracts.module';
import { PrometheusModule } from '../../prometheus/prometheus.module';
import { ChainCoreModule } from '../chain-core.module';
import { BlockExecutor } from './block-executor';
import { BlockProducer } from './block-producer.service';
import { ChainAdminRpc } from './chain-admin.api';
import { NativeTransfers } from './native-transfers';
import { DelayedContracts } from './delayed-contracts';
import { ChainRollback } from './rollback.service';

/** Makes blocks in the node's slots, and takes them off again (`admin.rollbackBlocks`). */
@Module({
  imports: [ChainCoreModule, ContractsModule, PrometheusModule],
  providers: [NativeTransfers, BlockExecutor, DelayedContracts, BlockProducer, ChainRollback, ChainAdminRpc],
  exports: [BlockProducer],
})
export class ProducerModule {}

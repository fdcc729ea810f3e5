import { Module } from '@nestjs/common';
import { ContractsModule } from '../contracts/contracts.module';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { ChainCoreModule } from '../chain/chain-core.module';
import { BlockExecutor } from './block-executor';
import { BlockProducer } from './block-producer.service';
import { BlockReceiver } from './block-receiver';
import { ChainAdminRpc } from './chain-admin.api';
import { NativeTransfers } from './native-transfers';
import { DelayedContracts } from './delayed-contracts';
import { ChainRollback } from './rollback.service';

/**
 * Makes blocks in the node's slots, takes blocks of the other honor nodes (checked and run again), and
 * takes blocks off again (`admin.rollbackBlocks`, a fork switch).
 */
@Module({
  imports: [ChainCoreModule, ContractsModule, PrometheusModule],
  providers: [
    NativeTransfers,
    BlockExecutor,
    DelayedContracts,
    BlockProducer,
    BlockReceiver,
    ChainRollback,
    ChainAdminRpc,
  ],
  exports: [BlockProducer, BlockReceiver, ChainRollback],
})
export class ProducerModule {}

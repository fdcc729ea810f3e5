import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { ContractsModule } from '../contracts/contracts.module';
import { ProducerModule } from '../producer/producer.module';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { TxController, TxRpc } from './tx.api';
import { TxAdmission } from './tx-admission';
import { TxQueueBound } from './tx-queue-bound';
import { TxService } from './tx.service';
import { KeyRegistration } from './key-registration';
import { TX_ENTITIES } from './entities';

/** Transactions: admission (every check before one may wait for a block), sending, status, and key registration. */
@Module({
  imports: [
    TypeOrmModule.forFeature(TX_ENTITIES),
    ChainCoreModule,
    ContractsModule,
    ProducerModule,
    PrometheusModule,
  ],
  controllers: [TxController],
  providers: [TxAdmission, TxQueueBound, TxService, KeyRegistration, TxRpc],
  exports: [TxService, KeyRegistration],
})
export class TxModule {}

import { type DynamicModule, Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { ProducerModule } from '../producer/producer.module';
import type { AppConfig } from '../config';
import { ContractsModule } from '../contracts/contracts.module';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { TxModule } from '../tx/tx.module';
import { NetworkRpc, NetworkTestRpc } from './network.api';
import { NetworkService } from './network.service';
import { NodeController } from './node.controller';

/**
 * The honor-node network: the node-to-node routes, block announcements and transaction passing, catch-up
 * and fork switches, confirmations, local bans, and `net.peers`. The test switches exist only when
 * NETWORK_TEST_SWITCHES asks for them.
 */
@Module({})
export class NetworkModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: NetworkModule,
      imports: [ChainCoreModule, ContractsModule, ProducerModule, PrometheusModule, TxModule],
      controllers: [NodeController],
      providers: [NetworkService, NetworkRpc, ...(config.network.testSwitches ? [NetworkTestRpc] : [])],
    };
  }
}

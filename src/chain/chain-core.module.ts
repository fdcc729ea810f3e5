import { Module } from '@nestjs/common';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { ChainEvents } from './chain-events';
import { ChainLock } from './chain-lock';
import { AdmittedTxs } from './admitted-txs';
import { Finality } from './finality.service';
import { NodeCrypto } from './node-crypto.service';
import { NodeIdentity } from './node-identity.service';
import { PlatformParametersService } from './platform-parameters.service';
import { KeyBans } from './rules/key-bans';

/** Every provider of the chain's core is for the modules that import it. */
const CORE = [
  NodeCrypto,
  NodeIdentity,
  PlatformParametersService,
  ChainEvents,
  ChainLock,
  KeyBans,
  Finality,
  AdmittedTxs,
];

/**
 * The chain's core, shared by every module that reads or writes the chain: the node's crypto and keys, the
 * platform parameters, the node's event bus (chain changes, transactions accepted), the lock that orders
 * changes of the chain, finality (votes and the final block), key bans (counted by the producer, applied
 * at admission), and the transactions admitted lately (`AdmittedTxs`).
 */
@Module({
  imports: [PrometheusModule],
  providers: CORE,
  exports: CORE,
})
export class ChainCoreModule {}

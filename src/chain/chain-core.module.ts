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

/**
 * The chain's core, shared by every module that reads or writes the chain: the node's crypto and keys, the
 * platform parameters, chain-change events, the lock that orders changes of the chain, finality (votes and the final block), key bans (counted by the producer, applied at admission), and
 * the transactions admission decoded, kept for the block that runs them.
 */
@Module({
  imports: [PrometheusModule],
  providers: [
    NodeCrypto,
    NodeIdentity,
    PlatformParametersService,
    ChainEvents,
    ChainLock,
    KeyBans,
    Finality,
    AdmittedTxs,
  ],
  exports: [
    NodeCrypto,
    NodeIdentity,
    PlatformParametersService,
    ChainEvents,
    ChainLock,
    KeyBans,
    Finality,
    AdmittedTxs,
  ],
})
export class ChainCoreModule {}

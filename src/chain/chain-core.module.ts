import { Module } from '@nestjs/common';
import { ChainEvents } from './chain-events';
import { ChainLock } from './chain-lock';
import { NodeCrypto } from './node-crypto.service';
import { NodeIdentity } from './node-identity.service';
import { PlatformParametersService } from './platform-parameters.service';
import { KeyBans } from './rules/key-bans';

/**
 * The chain's core, shared by every module that reads or writes the chain: the node's crypto and keys, the
 * platform parameters, chain-change events, the lock that orders changes of the chain, and key bans (counted by the producer, applied at admission).
 */
@Module({
  providers: [NodeCrypto, NodeIdentity, PlatformParametersService, ChainEvents, ChainLock, KeyBans],
  exports: [NodeCrypto, NodeIdentity, PlatformParametersService, ChainEvents, ChainLock, KeyBans],
})
export class ChainCoreModule {}

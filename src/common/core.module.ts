import { Global, Module } from '@nestjs/common';
import { TokenService } from '../auth/token.service';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeStateService } from './node-state.service';

/** Services every domain may use: node state, tokens and the node's configured crypto. */
@Global()
@Module({
  providers: [NodeStateService, TokenService, NodeCrypto],
  exports: [NodeStateService, TokenService, NodeCrypto],
})
export class CoreModule {}

import { Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { NotifyModule } from '../notify/notify.module';
import { RpcModule } from '../rpc/rpc.module';
import { TxModule } from '../tx/tx.module';
import { RootLiveGateway, RpcPathLiveGateway } from './live.gateway';
import { SubscriptionsRpc } from './subscriptions.api';
import { LiveSubscriptions } from './subscriptions.service';

/**
 * Live updates without Centrifugo: JSON-RPC over WebSocket on the API's port and its subscriptions (new
 * blocks, transaction statuses, notification counts).
 */
@Module({
  imports: [RpcModule, ChainCoreModule, NotifyModule, TxModule],
  providers: [RootLiveGateway, RpcPathLiveGateway, LiveSubscriptions, SubscriptionsRpc],
  exports: [LiveSubscriptions],
})
export class LiveModule {}

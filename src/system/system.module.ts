import { Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { NotifyModule } from '../notify/notify.module';
import { RpcModule } from '../rpc/rpc.module';
import { SystemController, SystemRpc } from './system.api';
import { SystemService } from './system.service';

/** The node itself: version, network (id, notification service, honor nodes), JSON-RPC administration. */
@Module({
  imports: [ChainCoreModule, NotifyModule, RpcModule],
  controllers: [SystemController],
  providers: [SystemService, SystemRpc],
})
export class SystemModule {}

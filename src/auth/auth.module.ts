import { Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { NotifyModule } from '../notify/notify.module';
import { TxModule } from '../tx/tx.module';
import { AuthController, AuthRpc } from './auth.api';
import { AuthService } from './auth.service';

/** Login: the uid to sign, the session token, and who a session is. */
@Module({
  imports: [ChainCoreModule, NotifyModule, TxModule],
  controllers: [AuthController],
  providers: [AuthService, AuthRpc],
})
export class AuthModule {}

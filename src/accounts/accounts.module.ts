import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { EcosystemModule } from '../ecosystem/ecosystem.module';
import { AccountsController, AccountsRpc } from './accounts.api';
import { AccountsService } from './accounts.service';
import { ACCOUNTS_ENTITIES } from './entities';

/** Balances, members and avatars, and wallet history. */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTS_ENTITIES), ChainCoreModule, EcosystemModule],
  controllers: [AccountsController],
  providers: [AccountsService, AccountsRpc],
})
export class AccountsModule {}

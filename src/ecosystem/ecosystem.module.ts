import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { NotifyModule } from '../notify/notify.module';
import { EcosystemController, EcosystemRpc } from './ecosystem.api';
import { EcosystemService } from './ecosystem.service';
import { ECOSYSTEM_ENTITIES } from './entities';

/** Ecosystems: their names, parameters of the token, and the ecosystems, roles and notifications of a key. */
@Module({
  imports: [TypeOrmModule.forFeature(ECOSYSTEM_ENTITIES), ChainCoreModule, NotifyModule],
  controllers: [EcosystemController],
  providers: [EcosystemService, EcosystemRpc],
  exports: [EcosystemService],
})
export class EcosystemModule {}

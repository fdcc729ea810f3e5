import { Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { EcosystemModule } from '../ecosystem/ecosystem.module';
import { InterfaceModule } from '../interface/interface.module';
import { ParamsModule } from '../params/params.module';
import { TablesModule } from '../tables/tables.module';
import { TxModule } from '../tx/tx.module';
import { PagesController, PagesRpc } from './pages.api';
import { PagesService } from './pages.service';

/** Pages rendered from the page language: content, menus, sources, hashes. */
@Module({
  imports: [ChainCoreModule, EcosystemModule, InterfaceModule, ParamsModule, TablesModule, TxModule],
  controllers: [PagesController],
  providers: [PagesService, PagesRpc],
})
export class PagesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InterfaceController, InterfaceRpc } from './interface.api';
import { InterfaceService } from './interface.service';
import { LanguageResources } from './language';
import { INTERFACE_ENTITIES } from './entities';

/** The ecosystem's interface rows: sections, pages, menus, snippets, and language resources. */
@Module({
  imports: [TypeOrmModule.forFeature(INTERFACE_ENTITIES)],
  controllers: [InterfaceController],
  providers: [InterfaceService, LanguageResources, InterfaceRpc],
  exports: [InterfaceService, LanguageResources],
})
export class InterfaceModule {}

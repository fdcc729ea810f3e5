import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { BinariesController } from './binaries.api';
import { BinariesService } from './binaries.service';
import { BINARIES_ENTITIES } from './entities';

/** Downloads (`/data`): a stored binary, or a column of an ecosystem table, behind a hash. */
@Module({
  imports: [TypeOrmModule.forFeature(BINARIES_ENTITIES), ChainCoreModule],
  controllers: [BinariesController],
  providers: [BinariesService],
})
export class BinariesModule {}

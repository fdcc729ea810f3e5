import { Module } from '@nestjs/common';
import { ChainCoreModule } from '../chain/chain-core.module';
import { GenesisService } from './genesis.service';

/** Writes the first block and the first ecosystem into an empty database, once, before anything reads them. */
@Module({
  imports: [ChainCoreModule],
  providers: [GenesisService],
  exports: [GenesisService],
})
export class GenesisModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainCoreModule } from '../chain/chain-core.module';
import { GenesisModule } from '../genesis/genesis.module';
import { RowStore } from '../contract-host';
import { ContractsController, ContractsRpc } from './contracts.api';
import { ContractsService } from './contracts.service';
import { CONTRACTS_ENTITIES } from './entities';

/** The contract engine (one VM with every ecosystem's contracts), its row store, and the contract endpoints. */
@Module({
  imports: [TypeOrmModule.forFeature(CONTRACTS_ENTITIES), ChainCoreModule, GenesisModule],
  controllers: [ContractsController],
  providers: [ContractsService, RowStore, ContractsRpc],
  exports: [ContractsService, RowStore],
})
export class ContractsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EcosystemModule } from '../ecosystem/ecosystem.module';
import { ParametersController, ParametersRpc } from './params.api';
import { ParametersService } from './params.service';
import { PARAMS_ENTITIES } from './entities';

/** Platform, ecosystem and application parameters, and application contents. */
@Module({
  imports: [TypeOrmModule.forFeature(PARAMS_ENTITIES), EcosystemModule],
  controllers: [ParametersController],
  providers: [ParametersService, ParametersRpc],
  exports: [ParametersService],
})
export class ParamsModule {}

import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AuthController, AuthRpc } from './auth/auth.api';
import { AuthService } from './auth/auth.service';
import { BlocksController, BlocksRpc } from './blocks/blocks.api';
import { BlocksService } from './blocks/blocks.service';
import { GenesisService } from './chain/genesis/genesis.service';
import { NodeIdentity } from './chain/node-identity.service';
import { PlatformParametersService } from './chain/platform-parameters.service';
import { CoreModule } from './common/core.module';
import { ContractsController, ContractsRpc } from './contracts/contracts.api';
import { ContractsService } from './contracts/contracts.service';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { GoJsonInterceptor } from './common/http/go-json.interceptor';
import { ClbRouteGuard, SessionGuard } from './common/http/request-gates';
import { type AppConfig, ConfigModule } from './config';
import { DatabaseModule } from './database/database.module';
import { EcosystemController, EcosystemRpc } from './ecosystem/ecosystem.api';
import { EcosystemService } from './ecosystem/ecosystem.service';
import { HealthController } from './health/health.controller';
import { MetricsController, MetricsRpc, MetricsService } from './metrics/metrics.api';
import { RpcGatewayController } from './rpc/rpc-gateway';
import { RpcRegistry } from './rpc/rpc-registry.service';
import { SystemController, SystemRpc } from './system/system.api';
import { SystemService } from './system/system.service';
import { BlockExecutor } from './chain/producer/block-executor';
import { BlockProducer } from './chain/producer/block-producer.service';
import { NativeTransfers } from './chain/producer/native-transfers';
import { KeyBans } from './tx/key-bans';
import { TxController, TxRpc } from './tx/tx.api';
import { TxAdmission } from './tx/tx-admission';
import { TxService } from './tx/tx.service';
import { KeyRegistration } from './tx/key-registration';
import { ChainAdminRpc } from './chain/chain-admin.api';
import { ChainRollback } from './chain/rollback.service';

/**
 * The node. Each domain contributes a service (its operations), a REST controller and an RPC provider
 * (thin adapters); the RPC gateway controller is listed last so that `/api/v2/...` routes match first.
 */
@Module({})
export class AppModule {
  static register(config: AppConfig, logger: PinoLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // pino-http is mounted by createApp as the first middleware; this gives Nest the same logger.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true }),
        DatabaseModule,
        CoreModule,
        DiscoveryModule,
        TerminusModule,
      ],
      controllers: [
        SystemController,
        AuthController,
        BlocksController,
        EcosystemController,
        MetricsController,
        ContractsController,
        TxController,
        HealthController,
        RpcGatewayController,
      ],
      providers: [
        NodeIdentity,
        GenesisService,
        PlatformParametersService,
        RpcRegistry,
        SessionGuard,
        SystemService,
        SystemRpc,
        AuthService,
        AuthRpc,
        BlocksService,
        BlocksRpc,
        EcosystemService,
        EcosystemRpc,
        MetricsService,
        MetricsRpc,
        ContractsService,
        ContractsRpc,
        KeyBans,
        TxAdmission,
        TxService,
        TxRpc,
        NativeTransfers,
        BlockExecutor,
        BlockProducer,
        KeyRegistration,
        ChainRollback,
        ChainAdminRpc,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: GoJsonInterceptor },
        { provide: APP_GUARD, useClass: ClbRouteGuard },
      ],
    };
  }
}

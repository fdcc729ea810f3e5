import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
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
import { ClbRouteGuard, SessionGuard } from './common/http/request-gates';
import { type AppConfig, ConfigModule } from './config';
import { DatabaseModule } from './database/database.module';
import { EcosystemController, EcosystemRpc } from './ecosystem/ecosystem.api';
import { EcosystemService } from './ecosystem/ecosystem.service';
import { ParametersController, ParametersRpc } from './params/params.api';
import { ParametersService } from './params/params.service';
import { AccountsController, AccountsRpc } from './accounts/accounts.api';
import { AccountsService } from './accounts/accounts.service';
import { BinariesController } from './binaries/binaries.api';
import { BinariesService } from './binaries/binaries.service';
import { InterfaceController, InterfaceRpc } from './interface/interface.api';
import { InterfaceService } from './interface/interface.service';
import { LanguageResources } from './interface/language';
import { HealthController } from './health/health.controller';
import { MetricsController, MetricsRpc, MetricsService } from './metrics/metrics.api';
import { RpcGatewayController } from './rpc/rpc-gateway';
import { RpcRegistry } from './rpc/rpc-registry.service';
import { SystemController, SystemRpc } from './system/system.api';
import { SystemService } from './system/system.service';
import { TablesModule } from './tables/tables.module';
import { BlockExecutor } from './chain/producer/block-executor';
import { RowStore } from './contracts/host';
import { ChainEventsModule } from './chain/chain-events';
import { BlockProducer } from './chain/producer/block-producer.service';
import { NativeTransfers } from './chain/producer/native-transfers';
import { KeyBans } from './tx/key-bans';
import { TxController, TxRpc } from './tx/tx.api';
import { TxAdmission } from './tx/tx-admission';
import { TxService } from './tx/tx.service';
import { KeyRegistration } from './tx/key-registration';
import { ChainAdminRpc } from './chain/chain-admin.api';
import { ChainRollback } from './chain/rollback.service';
import { PrometheusController } from './prometheus/prometheus.controller';
import { PrometheusMetrics } from './prometheus/prometheus-metrics';
import { OpenRpcDiscovery } from './api-docs/openrpc';
import { PagesController, PagesRpc } from './pages/pages.api';
import { PagesService } from './pages/pages.service';

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
        // createApp logs requests itself (common/http/request-log.ts); this gives Nest the same logger. No
        // routes: its request-scoped logger middleware would run every request in an AsyncLocalStorage,
        // which puts a hook on every promise the node makes.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        DatabaseModule,
        ChainEventsModule,
        CoreModule,
        DiscoveryModule,
        TerminusModule,
        TablesModule,
      ],
      controllers: [
        SystemController,
        AuthController,
        BlocksController,
        EcosystemController,
        ParametersController,
        AccountsController,
        BinariesController,
        InterfaceController,
        PagesController,
        MetricsController,
        ContractsController,
        TxController,
        HealthController,
        PrometheusController,
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
        ParametersService,
        ParametersRpc,
        AccountsService,
        AccountsRpc,
        BinariesService,
        InterfaceService,
        InterfaceRpc,
        LanguageResources,
        PagesService,
        PagesRpc,
        MetricsService,
        MetricsRpc,
        ContractsService,
        ContractsRpc,
        KeyBans,
        TxAdmission,
        TxService,
        TxRpc,
        NativeTransfers,
        RowStore,
        BlockExecutor,
        BlockProducer,
        KeyRegistration,
        ChainRollback,
        ChainAdminRpc,
        PrometheusMetrics,
        OpenRpcDiscovery,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // Only a CLB node hides routes; a guard on every request of a normal node would cost for nothing.
        ...(config.nodeMode === 'clb' ? [{ provide: APP_GUARD, useClass: ClbRouteGuard }] : []),
      ],
    };
  }
}

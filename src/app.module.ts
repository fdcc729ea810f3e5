import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { BinariesModule } from './binaries/binaries.module';
import { BlocksModule } from './blocks/blocks.module';
import { CoreModule } from './http/core.module';
import { type AppConfig, ConfigModule } from './config';
import { ContractsModule } from './contracts/contracts.module';
import { DatabaseModule } from './database/database.module';
import { EcosystemModule } from './ecosystem/ecosystem.module';
import { HealthModule } from './health/health.module';
import { InterfaceModule } from './interface/interface.module';
import { MetricsModule } from './metrics/metrics.module';
import { NetworkModule } from './network/network.module';
import { NotifyModule } from './notify/notify.module';
import { LiveModule } from './live/live.module';
import { PagesModule } from './pages/pages.module';
import { ParamsModule } from './params/params.module';
import { PrometheusModule } from './prometheus/prometheus.module';
import { ProducerModule } from './producer/producer.module';
import { RpcModule } from './rpc/rpc.module';
import { SystemModule } from './system/system.module';
import { TablesModule } from './tables/tables.module';
import { TxModule } from './tx/tx.module';

/**
 * The node: the infrastructure (configuration, logging, database, the request core) and one module per
 * domain. Each domain module declares its own controllers, RPC providers and services and imports the
 * modules it uses; this one only lists them (docs/architecture.md draws the graph).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig, logger: PinoLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // createApp logs requests itself (http/request-log.ts); this gives Nest the same logger. No
        // routes: its request-scoped logger middleware would run every request in an AsyncLocalStorage,
        // which puts a hook on every promise the node makes.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
        DatabaseModule,
        CoreModule.forRoot(config),
        SystemModule,
        AuthModule,
        BlocksModule,
        EcosystemModule,
        ParamsModule,
        AccountsModule,
        BinariesModule,
        InterfaceModule,
        PagesModule,
        MetricsModule,
        ContractsModule,
        TxModule,
        TablesModule,
        NotifyModule,
        LiveModule,
        ProducerModule,
        NetworkModule.register(config),
        HealthModule,
        PrometheusModule,
        RpcModule,
      ],
    };
  }
}

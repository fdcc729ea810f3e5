import { type DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { dataSourceOptions } from './data-source';
import { embeddedDataDir, prepareEmbeddedDatabase } from './embedded-init';
import { DatabaseService } from './database.service';
import { DATABASE_ENTITIES } from './entities';

/**
 * The DataSource, through @nestjs/typeorm so that domain modules can register their entities
 * (`TypeOrmModule.forFeature`, picked up by `autoLoadEntities`). The schema comes from the migrations only.
 * Global like the TypeOrmCoreModule it wraps: infrastructure for every module, not a domain of its own.
 */
const typeOrm: DynamicModule = {
  ...TypeOrmModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: async (config: AppConfig): Promise<TypeOrmModuleOptions> => {
      if (!config.databaseUrl) await prepareEmbeddedDatabase(embeddedDataDir(config.dataDir));
      return {
        ...dataSourceOptions({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
        autoLoadEntities: true,
        // A database that cannot be reached (or migrated) fails the start at once, not after minutes of retries.
        retryAttempts: 0,
        toRetry: () => false,
      };
    },
    dataSourceFactory: async (options?: DataSourceOptions) => {
      const dataSource = await new DataSource(options!).initialize();
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      if (applied.length > 0) {
        new Logger('Database').log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
      }
      return dataSource;
    },
  }),
  global: true,
};

/** Connects to PostgreSQL (or the embedded database) and brings the schema up to date before anything else runs. */
@Global()
@Module({
  imports: [typeOrm, TypeOrmModule.forFeature(DATABASE_ENTITIES)],
  providers: [DatabaseService],
  exports: [typeOrm, DatabaseService],
})
export class DatabaseModule {}

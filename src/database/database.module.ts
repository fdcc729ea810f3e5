import { type DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { type DatabaseConnection, dataSourceOptions } from './data-source';
import { DATABASE_CONNECTION, DatabaseService, EMBEDDED_SERVER } from './database.service';
import { type EmbeddedPostgres, openEmbeddedPostgres } from './embedded-postgres';
import { DATABASE_ENTITIES } from './entities';

/**
 * The embedded server of a node without DATABASE_URL (started by the start-up already, or here for a node
 * built by a test), and null with a server of the operator's.
 */
const embeddedServer = {
  provide: EMBEDDED_SERVER,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): Promise<EmbeddedPostgres | null> =>
    config.databaseUrl ? Promise.resolve(null) : openEmbeddedPostgres(config.dataDir),
};

const connection = {
  provide: DATABASE_CONNECTION,
  inject: [APP_CONFIG, EMBEDDED_SERVER],
  useFactory: (config: AppConfig, embedded: EmbeddedPostgres | null): DatabaseConnection =>
    embedded ? { embedded: embedded.connection } : { url: config.databaseUrl! },
};

/** Where the database is, for the DataSource and the DatabaseService alike (one embedded server). */
@Module({ providers: [embeddedServer, connection], exports: [EMBEDDED_SERVER, DATABASE_CONNECTION] })
class DatabaseConnectionModule {}

/**
 * The DataSource, through @nestjs/typeorm so that domain modules can register their entities
 * (`TypeOrmModule.forFeature`, picked up by `autoLoadEntities`). The schema comes from the migrations only.
 * Global like the TypeOrmCoreModule it wraps: infrastructure for every module, not a domain of its own.
 */
const typeOrm: DynamicModule = {
  ...TypeOrmModule.forRootAsync({
    imports: [DatabaseConnectionModule],
    inject: [DATABASE_CONNECTION],
    useFactory: (database: DatabaseConnection): TypeOrmModuleOptions => ({
      ...dataSourceOptions(database),
      autoLoadEntities: true,
      // A database that cannot be reached (or migrated) fails the start at once, not after minutes of retries.
      retryAttempts: 0,
      toRetry: () => false,
    }),
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

/** Connects to PostgreSQL (or starts the embedded one) and brings the schema up to date before anything else runs. */
@Global()
@Module({
  imports: [DatabaseConnectionModule, typeOrm, TypeOrmModule.forFeature(DATABASE_ENTITIES)],
  providers: [DatabaseService],
  exports: [typeOrm, DatabaseService],
})
export class DatabaseModule {}

import { Global, Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { createDataSource } from './data-source';
import { embeddedDataDir, prepareEmbeddedDatabase } from './embedded-init';
import { DatabaseService } from './database.service';

/** Connects to PostgreSQL (or the embedded database) and brings the schema up to date before anything else runs. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        if (!config.databaseUrl) await prepareEmbeddedDatabase(embeddedDataDir(config.dataDir));
        const dataSource = createDataSource({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
        await dataSource.initialize();
        const applied = await dataSource.runMigrations({ transaction: 'each' });
        if (applied.length > 0) {
          new Logger('Database').log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
        }
        return dataSource;
      },
    },
    DatabaseService,
  ],
  exports: [DataSource, DatabaseService],
})
export class DatabaseModule {}

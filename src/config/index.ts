export * from './app-config';
export * from './config.schema';
export * from './config.module';

export * from './app-config';
export * from './config.schema';
export * from './help';
export * from './config.module';

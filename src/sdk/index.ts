export * from './client';
export * from './transactions';

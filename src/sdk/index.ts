export * from './client';
export * from './live';
export * from './transactions';
export * from './tx-status';

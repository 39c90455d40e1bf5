export * from './index-port.ts';
export * from './indexer/index.ts';

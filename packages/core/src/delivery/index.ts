export * from './index-port.ts';

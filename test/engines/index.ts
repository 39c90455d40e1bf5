export { isEngineRequired, type RunningEngine } from './engine.ts';
export { freePort, startPostgres } from './postgres.ts';

export { isEngineRequired, type RunningEngine } from './engine.ts';
export { freePort, freePorts, startPostgres } from './postgres.ts';

export { indexerSettings } from './settings.ts';

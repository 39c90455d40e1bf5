export {
  ConfigError,
  loadConfig,
  type ConfigOf,
  type LoadConfigOptions,
  type Setting,
  type Settings,
} from './load-config.ts';
export { envBoolean, port, wholeNumber } from './schemas.ts';
export { describeSettings, sharedSettings } from './shared-settings.ts';

import { port, sharedSettings, type Setting } from '@lectern/config';
import { deliveryIndexSettings } from '@lectern/engines';
import { deliveryLimitSettings } from '@lectern/read-path';

/**
 * The defaults table of the Delivery service in the cluster shape: one process serves the
 * Delivery API and the Delivery Preview API on two ports, reading the delivery index (the search
 * engine by default, or SQL tables in PostgreSQL). Stateless: any number may run at once. Environment only; secrets also as `<NAME>_FILE`.
 */
export const deliverySettings = {
  databaseUrl: sharedSettings.databaseUrl,
  host: sharedSettings.host,
  deliveryPort: {
    env: 'LECTERN_DELIVERY_PORT',
    schema: port,
    default: '4401',
    doc: 'Port of the Delivery API (0: a free one).',
  },
  previewPort: {
    env: 'LECTERN_PREVIEW_PORT',
    schema: port,
    default: '4402',
    doc: 'Port of the Delivery Preview API (0: a free one).',
  },
  poolSize: sharedSettings.poolSize,
  ...deliveryIndexSettings,
  ...deliveryLimitSettings,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;

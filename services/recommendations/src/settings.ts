import { port, sharedSettings, type Setting } from '@lectern/config';
import { recsEmbeddingSettings } from '@lectern/recs-sql';
import { recsIndexSettings } from '@lectern/engines';

/**
 * The defaults table of the Recommendations service in the cluster shape: it reads the
 * recommendation index (kept by the indexer's `lectern-recommendations` consumer group) in
 * OpenSearch's k-NN or in PostgreSQL (LECTERN_RECS_INDEX) and records visits in PostgreSQL. Stateless: any number may run. Environment only.
 */
export const recommendationsSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  ...recsIndexSettings,
  host: sharedSettings.host,
  port: {
    env: 'LECTERN_PORT',
    schema: port,
    default: '4404',
    doc: 'Port of the Smart Recommendations API (0: a free one).',
  },
  poolSize: sharedSettings.poolSize,
  ...recsEmbeddingSettings,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;

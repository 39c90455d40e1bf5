import type { Kysely } from 'kysely';
import type { DeliveryIndex } from '@lectern/core';
import { createSearchIndex, type SearchDeliveryIndex, type SearchIndexOptions } from '@lectern/index-elasticsearch';
import { createSqlIndex } from '@lectern/index-sql';
import { connectSearchEngine, type SearchEngine } from '@lectern/search-engine';
import { createIndexLedger, type Database } from '@lectern/store-sql';
import type { DeliveryIndexConfig } from './delivery-index-settings.ts';

export interface OpenedDeliveryIndex {
  readonly index: DeliveryIndex;
  /** What the index is, for logs: `sql`, or the flavour and URL without credentials. */
  readonly description: string;
  /** Throws when the search engine does not answer (nothing to check for `sql`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const withoutCredentials = (url: string) => {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
};

/** The delivery index on a search engine, its ledger on the store's database. */
export function openSearchDeliveryIndex(
  options: Omit<SearchIndexOptions, 'ledger' | 'engine'> & { engine: SearchEngine; db: Kysely<Database> },
): SearchDeliveryIndex {
  const { db, ...rest } = options;
  return createSearchIndex({ ...rest, ledger: createIndexLedger({ db }) });
}

/** The delivery index the settings choose, on the store's database (and the search engine). */
export function openDeliveryIndex(options: {
  config: DeliveryIndexConfig;
  db: Kysely<Database>;
  /** A background sweep of superseded versions failed (search engines only; retried). */
  onSweepError?: (error: unknown) => void;
}): OpenedDeliveryIndex {
  const { config, db } = options;
  if (config.deliveryIndex === 'sql')
    return { index: createSqlIndex({ db }), description: 'sql', ping: async () => {}, close: async () => {} };
  if (config.searchUrl === '')
    throw new Error(`LECTERN_SEARCH_URL is needed when LECTERN_DELIVERY_INDEX is ${config.deliveryIndex}`);
  const engine = connectSearchEngine({ flavour: config.deliveryIndex, url: config.searchUrl });
  return {
    index: openSearchDeliveryIndex({
      engine,
      db,
      prefix: config.searchIndexPrefix,
      ...(options.onSweepError === undefined ? {} : { onSweepError: options.onSweepError }),
    }),
    description: `${config.deliveryIndex} at ${withoutCredentials(config.searchUrl)}`,
    ping: () => engine.ping(),
    close: () => engine.close(),
  };
}

/** What a service's start says when the delivery index cannot be used. */
export const deliveryIndexProblem = 'cannot use the delivery index (check LECTERN_DELIVERY_INDEX, LECTERN_SEARCH_URL)';

/** `openDeliveryIndex`, once its engine answers: what a service's start waits for. */
export async function openReachableDeliveryIndex(options: {
  config: DeliveryIndexConfig;
  db: Kysely<Database>;
  onSweepError?: (error: unknown) => void;
}): Promise<OpenedDeliveryIndex> {
  const opened = openDeliveryIndex(options);
  await opened.ping();
  return opened;
}

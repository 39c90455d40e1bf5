import { randomIds, systemClock, type CoreDeps } from '@lectern/core';
import {
  createProcessMetrics,
  createReadiness,
  type ProcessMetrics,
  type Readiness,
  type ServiceStart,
} from '@lectern/http-kit';
import type { OpenedRecs } from '@lectern/recs-search';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';
import type { DeliveryIndexConfig } from './delivery-index-settings.ts';
import { deliveryIndexProblem, openReachableDeliveryIndex, type OpenedDeliveryIndex } from './delivery-index.ts';
import type { RecsIndexConfig } from './recs-index-settings.ts';
import { openRecsIndex } from './recs-index.ts';

type Steps = Pick<ServiceStart, 'step' | 'onStop'>;

/** A cluster service's first step: its PostgreSQL store, closed last. */
export async function openServiceStore(
  start: Steps,
  config: { databaseUrl: string; poolSize?: number },
): Promise<SqlStore> {
  const store = await start.step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
    openPostgresStore({
      connectionString: config.databaseUrl,
      ...(config.poolSize === undefined ? {} : { poolSize: config.poolSize }),
    }),
  );
  start.onStop(() => store.close());
  return store;
}

/** The store and the core's dependencies on it (the system clock, random ids). */
export async function openServiceCore(
  start: Steps,
  config: { databaseUrl: string; poolSize?: number },
): Promise<{ store: SqlStore; core: CoreDeps }> {
  const store = await openServiceStore(start, config);
  return { store, core: { store, clock: systemClock, ids: randomIds } };
}

/** The delivery index the settings choose, once its engine answers; closed on stop. */
export async function openServiceDeliveryIndex(
  start: Steps,
  config: DeliveryIndexConfig,
  store: SqlStore,
  options: { onSweepError?: (error: unknown) => void } = {},
): Promise<OpenedDeliveryIndex> {
  const delivery = await start.step(deliveryIndexProblem, () =>
    openReachableDeliveryIndex({ config, db: store.db, ...options }),
  );
  start.onStop(() => delivery.close());
  return delivery;
}

/** The recommendation index the settings choose, for embeddings of `dimensions`; closed on stop. */
export async function openServiceRecsIndex(
  start: Steps,
  config: RecsIndexConfig,
  options: { store: SqlStore; dimensions: number },
): Promise<OpenedRecs> {
  const recs = await start.step(
    'cannot use the recommendation index (check LECTERN_RECS_INDEX, LECTERN_SEARCH_URL)',
    () => openRecsIndex({ config, db: options.store.db, dimensions: options.dimensions }),
  );
  start.onStop(() => recs.close());
  return recs;
}

/**
 * What the read services (Delivery, GraphQL) open before their listeners: the store, the core,
 * the delivery index, and readiness on both (drained first on stop).
 */
export async function openDeliveryReadSide(
  start: Steps,
  config: DeliveryIndexConfig & { databaseUrl: string; poolSize: number },
): Promise<{
  store: SqlStore;
  core: CoreDeps;
  delivery: OpenedDeliveryIndex;
  metrics: ProcessMetrics;
  readiness: Readiness;
}> {
  const { store, core } = await openServiceCore(start, config);
  const delivery = await openServiceDeliveryIndex(start, config, store);
  const metrics = createProcessMetrics();
  const readiness = createReadiness([() => store.ping(), () => delivery.ping()]);
  start.onStop(async () => readiness.drain());
  return { store, core, delivery, metrics, readiness };
}

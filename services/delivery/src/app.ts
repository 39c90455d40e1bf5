import './fastify-augment.ts';
import type { FastifyInstance } from 'fastify';
import type { CoreDeps, DeliveryIndexReader, Signals } from '@lectern/core';
import { toDeliveryError } from '@lectern/errors';
import {
  checkRequest,
  createFastifyService,
  type Logger,
  type ProcessMetrics,
  type Readiness,
} from '@lectern/http-kit';
import { createDeliveryContext, createFastHit, type DeliveryHttpOptions } from '@lectern/read-path';
import { registerDeliveryRoutes } from './http/register-routes.ts';

/** Published content (Delivery API) or unpublished content (Delivery Preview API): fixed per listener. */
export type DeliveryChannel = 'production' | 'preview';

export interface DeliveryAppOptions {
  readonly channel: DeliveryChannel;
  readonly core: CoreDeps;
  /** The delivery index this listener reads; null: content endpoints answer 503. */
  readonly index?: DeliveryIndexReader | null;
  /** Rate limits, wait bound, cache sizes, feed page size (defaults: SPEC 8 and `@lectern/read-path`). */
  readonly http?: DeliveryHttpOptions;
  /**
   * Change signals of the store (`SqlStore.signals`): they advance the watermarks and sequences
   * held in memory and drop cached authentication at once. Without them, held values are re-read
   * every `freshnessTtlMs` and authentication every `authTtlMs`.
   */
  readonly signals?: Signals;
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
}

const operationalPaths = new Set(['healthz', 'readyz', 'metrics']);

/**
 * The Delivery or Delivery Preview API. Every path under `/{project_id}/` is authenticated before
 * routing (SPEC 5): Preview always needs a preview key; Delivery is public unless the project has
 * secure access on. Content endpoints arrive with the delivery index; until then an authenticated
 * request for them gets 404 in the SPEC 7.3 shape.
 */
export function buildDeliveryApp(options: DeliveryAppOptions): FastifyInstance {
  const ctx = createDeliveryContext({
    channel: options.channel,
    core: options.core,
    index: options.index ?? null,
    ...(options.http === undefined ? {} : { http: options.http }),
    ...(options.signals === undefined ? {} : { signals: options.signals }),
  });
  const service = options.channel === 'preview' ? 'preview' : 'delivery';
  const app = createFastifyService({
    service,
    metrics: options.metrics,
    readiness: options.readiness,
    logger: options.logger,
    toErrorResponse: toDeliveryError,
    // A repeated request is answered from the cache before routing (docs/read-path.md).
    fastLane: createFastHit(ctx, {
      checkRequest,
      observe: ({ route, status, seconds }) =>
        options.metrics.observeRequest({ service, method: 'GET', route, status, seconds }),
    }),
  });
  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopListening = await ctx.listen();
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
  });
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const segments = request.url.split('?')[0]?.split('/') ?? [];
    // Sync API v2 lives under /v2/{project_id}/… (reference 2.1); everything else under /{project_id}/….
    // An empty segment (`//items`) never gets here: http-kit's checkUrl refuses it first, so the
    // project read here is the one the router binds.
    const first = (segments[1] === 'v2' ? segments[2] : segments[1]) ?? '';
    if (first === '' || operationalPaths.has(first)) return;
    request.actor = await ctx.auth.authenticate({
      api: options.channel === 'preview' ? 'preview' : 'delivery',
      projectId: decodeURIComponent(first).toLowerCase(),
      authorization: request.headers.authorization,
    });
  });
  registerDeliveryRoutes(app, ctx);
  return app;
}

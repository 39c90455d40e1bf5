import type { FastifyInstance } from 'fastify';
import type { CoreDeps, DeliveryChannel, DeliveryIndexReader, Signals } from '@lectern/core';
import { createDeliveryContext, type DeliveryHttpOptions } from '@lectern/read-path';
import { LecternError, toDeliveryError } from '@lectern/errors';
import { createFastifyService, type Logger, type ProcessMetrics, type Readiness } from '@lectern/http-kit';
import { defaultPageSize, graphqlDefaults, type GraphqlOptions } from './graphql-options.ts';
import { registerGraphqlRoutes } from './http/graphql-routes.ts';
import { memoryConsumptionLimiter, storeConsumptionLimiter } from './limits/consumption-limiter.ts';
import { SchemaCache } from './schema/schema-cache.ts';

export interface GraphqlAppOptions {
  readonly core: CoreDeps;
  /** The delivery index this listener reads (the same as Delivery's); null: queries answer 503. */
  readonly index: DeliveryIndexReader | null;
  /** Published content (default), or preview GraphQL: unpublished content, preview keys. */
  readonly channel?: DeliveryChannel;
  /** Change signals of the store: they keep watermarks and authentication fresh (as Delivery's). */
  readonly signals?: Signals;
  /** Response cache, uncached rate limits, wait bound (Delivery's options and defaults). */
  readonly http?: DeliveryHttpOptions;
  readonly graphql?: GraphqlOptions;
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
}

const operationalPaths = new Set(['healthz', 'readyz', 'metrics']);

/**
 * The Delivery GraphQL API (SPEC 4.4): one schema per project generated from its content model,
 * served at `/{project_id}` by GET and POST, on the Delivery read path (index watermarks, response
 * cache, authentication and limits shared with the REST Delivery API's code).
 */
export function buildGraphqlApp(options: GraphqlAppOptions): FastifyInstance {
  const settings = { ...graphqlDefaults, ...options.graphql };
  const channel = options.channel ?? 'production';
  const app = createFastifyService({
    service: channel === 'preview' ? 'graphql-preview' : 'graphql',
    metrics: options.metrics,
    readiness: options.readiness,
    logger: options.logger,
    toErrorResponse: toDeliveryError,
    bodyLimitBytes: settings.maxBodyBytes,
  });
  const ctx = createDeliveryContext({
    channel,
    core: options.core,
    index: options.index,
    // Uncached queries are limited by what they consume (below), not by their number.
    http: { ...options.http, rateLimits: [] },
    ...(options.signals === undefined ? {} : { signals: options.signals }),
  });
  const schemas = new SchemaCache({ defaultLimit: Math.min(defaultPageSize, settings.maxPageSize) });
  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopListening = await ctx.listen();
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
  });
  app.addHook('onRequest', async (request) => {
    const first = request.url.split('?')[0]?.split('/')[1] ?? '';
    if (first === '' || operationalPaths.has(first)) return;
    const projectId = decodeURIComponent(first).toLowerCase();
    const input = { projectId, authorization: request.headers.authorization };
    if (channel === 'preview') {
      await ctx.auth.authenticate({ ...input, api: 'preview' });
      return;
    }
    // SPEC 5: with secure access on, GraphQL is unavailable; a setting accepts delivery keys instead.
    const actor = await ctx.auth.authenticate({ ...input, api: 'delivery' }).catch((error: unknown) => {
      if (!(error instanceof LecternError) || error.code === 'PROJECT_NOT_FOUND' || settings.isSecureAccessKeyAllowed) {
        throw error;
      }
      throw new LecternError('GRAPHQL_UNAVAILABLE');
    });
    if (actor.type !== 'anonymous' && !settings.isSecureAccessKeyAllowed) throw new LecternError('GRAPHQL_UNAVAILABLE');
  });
  const windows = [
    { units: settings.unitsPerSecond, seconds: 1 },
    { units: settings.unitsPerMinute, seconds: 60 },
  ].filter((w) => w.units > 0);
  const consumption =
    options.http?.isRateLimitShared === true
      ? storeConsumptionLimiter(options.core, windows)
      : memoryConsumptionLimiter(windows);
  registerGraphqlRoutes(app, { ctx, schemas, consumption, options: settings });
  return app;
}

import type { FastifyInstance } from 'fastify';
import { createFastifyService, type Logger, type ProcessMetrics, type Readiness } from '@lectern/http-kit';
import { toRecommendationsError } from './errors.ts';
import { registerRecsRoutes, type RecsEngine } from './http/routes.ts';

/**
 * Largest request body, in bytes: a filter and a booster of 4,000 characters each, visitor
 * details and custom properties fit many times over. A body of the default 1 MiB spent 100 ms of
 * the event loop on being parsed and read before its refusal.
 */
export const maxRecommendationsBodyBytes = 65_536;

export interface RecommendationsAppOptions {
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
  /** The engine behind the API; without it the listener serves health, readiness and metrics only. */
  readonly engine?: RecsEngine;
}

/**
 * The Smart Recommendations API listener (SPEC 4.5): recommend and search items, track visits and
 * visitors. Every error answers in the SPEC 7.5 body.
 */
export function buildRecommendationsApp(options: RecommendationsAppOptions): FastifyInstance {
  const app = createFastifyService({
    service: 'recommendations',
    ...options,
    bodyLimitBytes: maxRecommendationsBodyBytes,
    toErrorResponse: toRecommendationsError,
  });
  if (options.engine) registerRecsRoutes(app, options.engine);
  return app;
}

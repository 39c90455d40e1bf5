import type { FastifyInstance } from 'fastify';
import { createFastifyService, type Logger, type ProcessMetrics, type Readiness } from '@lectern/http-kit';
import { toRecommendationsError } from './errors.ts';
import { registerRecsRoutes, type RecsEngine } from './http/routes.ts';

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
  const app = createFastifyService({ service: 'recommendations', ...options, toErrorResponse: toRecommendationsError });
  if (options.engine) registerRecsRoutes(app, options.engine);
  return app;
}

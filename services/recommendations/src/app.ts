import type { FastifyInstance } from 'fastify';
import { createFastifyService, type Logger, type ProcessMetrics, type Readiness } from '@lectern/http-kit';
import { toRecommendationsError } from './errors.ts';

export interface RecommendationsAppOptions {
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
}

/**
 * The Smart Recommendations API listener. Not built yet: it serves health, readiness and metrics,
 * and answers every other path with 404 in the SPEC 7.5 error shape.
 */
export function buildRecommendationsApp(options: RecommendationsAppOptions): FastifyInstance {
  return createFastifyService({ service: 'recommendations', ...options, toErrorResponse: toRecommendationsError });
}

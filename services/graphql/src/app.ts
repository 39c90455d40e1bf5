import type { FastifyInstance } from 'fastify';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService, type Logger, type ProcessMetrics, type Readiness } from '@lectern/http-kit';

export interface GraphqlAppOptions {
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
}

/**
 * The Delivery GraphQL API listener. Not built yet: it serves health, readiness and metrics, and
 * answers every other path with 404 in the Delivery error shape.
 */
export function buildGraphqlApp(options: GraphqlAppOptions): FastifyInstance {
  return createFastifyService({ service: 'graphql', ...options, toErrorResponse: toDeliveryError });
}

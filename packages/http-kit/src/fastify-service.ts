import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyError } from 'fastify';
import { LecternError, type ErrorResponse } from '@lectern/errors';
import type { Logger } from './logger.ts';
import type { ProcessMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';

export interface FastifyServiceOptions {
  /** Label for metrics and logs: `delivery`, `preview`, `graphql`, … */
  readonly service: string;
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
  /** The API's error body (SPEC 7.3 for Delivery and Preview). */
  readonly toErrorResponse: (error: unknown, requestId: string) => ErrorResponse<unknown>;
  readonly bodyLimitBytes?: number;
}

/** Fastify's own client errors (bad JSON, wrong content type, oversized body) as catalogue errors. */
function clientError(error: FastifyError): LecternError | null {
  if (error.statusCode === 413) return new LecternError('PAYLOAD_TOO_LARGE');
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new LecternError(error.validation ? 'INVALID_QUERY' : 'INVALID_REQUEST_BODY', {
      problems: [{ message: error.message }],
    });
  }
  return null;
}

/**
 * A Fastify instance with what every Fastify listener shares: request ids, JSON logs, request
 * metrics, `/healthz`, `/readyz`, `/metrics`, and errors (404s included) in the API's own shape.
 */
export function createFastifyService(options: FastifyServiceOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger.child({ service: options.service }) as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    // Per-request log lines would drown the logs; request metrics cover traffic.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.addHook('onResponse', async (request, reply) => {
    options.metrics.observeRequest({
      service: options.service,
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = error instanceof LecternError ? error : (clientError(error) ?? error);
    const response = options.toErrorResponse(mapped, request.id);
    if (response.status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
    return reply.code(response.status).headers(response.headers).send(response.body);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const response = options.toErrorResponse(new LecternError('ROUTE_NOT_FOUND'), request.id);
    return reply.code(response.status).send(response.body);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) =>
    (await options.readiness.check()) ? { status: 'ready' } : reply.code(503).send({ status: 'not ready' }),
  );
  app.get('/metrics', async (_request, reply) =>
    reply.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics()),
  );
  return app;
}

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import { LecternError, type ErrorResponse } from '@lectern/errors';
import { answerClientErrors } from './client-errors.ts';
import { livenessOfProcess, type Liveness } from './liveness.ts';
import type { Logger } from './logger.ts';
import type { ProcessMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import { checkRequest, maxPathSegmentLength, parserMaxHeaderBytes, pathSegmentTooLong } from './url-check.ts';
import { jsonNestingProblem } from './json-depth.ts';

export interface FastifyServiceOptions {
  /** Label for metrics and logs: `delivery`, `preview`, `graphql`, … */
  readonly service: string;
  readonly metrics: ProcessMetrics;
  readonly readiness: Readiness;
  readonly logger: Logger;
  /** The API's error body (SPEC 7.3 for Delivery and Preview). */
  readonly toErrorResponse: (error: unknown, requestId: string) => ErrorResponse<unknown>;
  readonly bodyLimitBytes?: number;
  /** What `/healthz` reports; the process's own (`livenessOfProcess`) unless given. */
  readonly liveness?: Liveness;
  /**
   * Answers a request before Fastify sees it, or returns false to hand it on (Delivery's cache
   * hits): it must keep every behaviour the routes promise for what it answers, and count it.
   */
  readonly fastLane?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

/**
 * Fastify's own client errors (bad URL, bad JSON, wrong media type, oversized body) and a
 * URIError of a hook that decodes the path, as catalogue errors. The one place a Fastify
 * listener maps framework errors; the Node parser's are `answerClientErrors`.
 */
function clientError(error: FastifyError): LecternError | null {
  // Fastify's router errors are URIErrors too: their codes first.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return pathSegmentTooLong();
  if (error.code === 'FST_ERR_BAD_URL' || error instanceof URIError) return new LecternError('MALFORMED_URL');
  if (error.statusCode === 413) return new LecternError('PAYLOAD_TOO_LARGE');
  if (error.statusCode === 415) {
    return new LecternError('UNSUPPORTED_MEDIA_TYPE', { problems: [{ message: error.message }] });
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new LecternError(error.validation ? 'INVALID_QUERY' : 'INVALID_REQUEST_BODY', {
      problems: [{ message: error.message }],
    });
  }
  return null;
}

/**
 * A Node server whose requests go to `lane` first and to Fastify's handler when it declines. Once
 * the server closes (draining), every request goes to Fastify, which answers 503 and closes.
 */
function fastLaneServer(lane: (request: IncomingMessage, response: ServerResponse) => boolean) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void) => {
    const server = createServer({ maxHeaderSize: parserMaxHeaderBytes }, (request, response) => {
      if (!server.listening || !lane(request, response)) handler(request, response);
    });
    return server;
  };
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
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxPathSegmentLength },
    // The 16 KiB limit of URL and headers is checked in the onRequest hook below; the parser only
    // refuses far larger requests, and malformed ones, in the API's body too.
    http: { maxHeaderSize: parserMaxHeaderBytes },
    ...(options.fastLane === undefined ? {} : { serverFactory: fastLaneServer(options.fastLane) }),
    clientErrorHandler: answerClientErrors(options.toErrorResponse),
    // The router's refusals (malformed percent-encoding, an over-long segment) likewise; they skip the hooks.
    frameworkErrors: (error, request, reply) => {
      // checkRequest names the segment that does not decode, or finds the request too large.
      const mapped = checkRequest(request.raw) ?? clientError(error as FastifyError) ?? error;
      const response = options.toErrorResponse(mapped, request.id);
      return (reply as FastifyReply)
        .code(response.status)
        .headers(response.headers)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(response.body));
    },
  });

  // JSON bodies: nesting bounded in one pass before JSON.parse (which is super-linear in it), then
  // Fastify's own parser (prototype poisoning refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = jsonNestingProblem(body as string);
    if (problem) done(problem, undefined);
    else parseJson(request, body as string, done);
  });

  // Before any hook reads the URL: an oversized request, or a path that does not decode or holds
  // U+0000, never reaches a route.
  app.addHook('onRequest', async (request) => {
    const problem = checkRequest(request.raw);
    if (problem) throw problem;
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

  const liveness = options.liveness ?? livenessOfProcess();
  app.get('/healthz', async (_request, reply) => {
    const answer = liveness.check();
    return reply.code(answer.status).send(answer.body);
  });
  app.get('/readyz', async (_request, reply) =>
    (await options.readiness.check()) ? { status: 'ready' } : reply.code(503).send({ status: 'not ready' }),
  );
  app.get('/metrics', async (_request, reply) =>
    reply.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics()),
  );
  return app;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { serve, serveFromCache, languageChain, type DeliveryContext } from '@lectern/read-path';
import type { ResolvedGraphqlOptions } from '../graphql-options.ts';
import { runQuery } from '../execute/run-query.ts';
import type { ConsumptionLimiter } from '../limits/consumption-limiter.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import { readGraphqlRequest, requestKey } from './graphql-request.ts';

/**
 * `GET /{project_id}?query=…` and `POST /{project_id}` (SPEC 4.4) on the Delivery read path:
 * answers are cached by (project, channel, index watermark, query, variables, operation), a GET
 * answered before is served by its URL without parsing, and only uncached requests spend from
 * the project's resource budget (SPEC 8).
 */
export function registerGraphqlRoutes(
  app: FastifyInstance,
  input: {
    ctx: DeliveryContext;
    schemas: SchemaCache;
    consumption: ConsumptionLimiter;
    options: ResolvedGraphqlOptions;
  },
): void {
  const { ctx, schemas, consumption, options } = input;
  app.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const projectId = decodeURIComponent((request.params as { projectId: string }).projectId).toLowerCase();
    // Authentication already refused unknown projects; `/` alone reaches here unauthenticated.
    if (!isUuid(projectId)) throw new LecternError('PROJECT_NOT_FOUND');
    const isGet = request.method === 'GET';
    const limitKey = `graphql|${ctx.channel}|${projectId}`;
    if (isGet && request.url.length <= options.maxUrlLength && (await serveFromCache(ctx, request, reply)))
      return reply;
    const graphql = readGraphqlRequest(request, options);
    return serve(ctx, request, reply, {
      key: requestKey(graphql),
      isUrlKeyed: isGet,
      compute: async (scope) => {
        const wait = await consumption.check(limitKey);
        if (wait !== null) throw new LecternError('RATE_LIMITED', { retryAfterSeconds: wait });
        const answer = await runQuery({
          request: graphql,
          scope: {
            projectId: scope.projectId,
            channel: scope.channel,
            index: scope.index,
            pin: scope.pin,
            languageChain: (requested, isFallbackDisabled) => languageChain(scope, requested, isFallbackDisabled),
          },
          model: scope.model,
          schemas,
          options,
        });
        await consumption.spend(limitKey, 1 + answer.charge);
        return {
          body: answer.body,
          charge: answer.charge,
          ...(answer.complexity === null ? {} : { headers: { 'x-complexity': String(answer.complexity) } }),
        };
      },
    });
  };
  app.get('/:projectId', handler);
  app.post('/:projectId', handler);
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { prepareItemRead, renderItems } from '../content/read-items.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { readContinuation, writeContinuation } from '../shared/continuation.ts';
import type { DeliveryContext } from '../shared/delivery-context.ts';
import { serve } from '../shared/serve.ts';

/**
 * GET /{project}/items-feed: every matching item, paged by `X-Continuation`; `modular_content`
 * holds components only and there is no `pagination` (reference 1.2, 1.6). `depth` is accepted
 * (the .NET SDK may send it) and ignored.
 */
export async function itemsFeed(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const query = parseQuery(request.url, profiles.itemsFeed);
  const offset = readContinuation(request.headers['x-continuation']);
  const pageSize = ctx.options.feedPageSize;
  return serve(ctx, request, reply, {
    key: `feed\u0000${offset}\u0000${JSON.stringify(query)}`,
    compute: async (scope) => {
      const { languages, typeElements } = await prepareItemRead(scope, query, { isFallbackAllowed: true });
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        languages,
        typeElements,
        filters: query.filters,
        order: query.order,
        skip: offset,
        limit: pageSize + 1,
        isTotalCountNeeded: false,
      });
      const hasMore = found.items.length > pageSize;
      const { items, modularContent, charge } = await renderItems(scope, {
        variants: found.items.slice(0, pageSize),
        languages,
        query,
        depth: 0,
        maxItems: Number.POSITIVE_INFINITY,
      });
      return {
        body: { items, modular_content: modularContent },
        charge,
        headers: hasMore ? { 'x-continuation': writeContinuation(offset + pageSize) } : ({} as Record<string, string>),
      };
    },
  });
}

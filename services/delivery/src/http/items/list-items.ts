import type { FastifyReply, FastifyRequest } from 'fastify';
import { maxResponseItems, responseTooLarge } from '../content/modular-content.ts';
import { prepareItemRead, renderItems } from '../content/read-items.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { nextPageUrl, type Pagination } from '../shared/pagination.ts';
import { type DeliveryContext, serve } from '@lectern/read-path';

/** GET /{project}/items (SPEC 4.3). */
export async function listItems(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const query = parseQuery(request.url, profiles.items);
  return serve(ctx, request, reply, {
    key: `items\u0000${JSON.stringify(query)}`,
    compute: async (scope) => {
      const { languages, typeElements } = await prepareItemRead(scope, query, { isFallbackAllowed: true });
      // One more than shown tells whether a next page exists, and past 2,000 the answer is refused.
      const fetchLimit = Math.min(query.limit ?? Number.POSITIVE_INFINITY, maxResponseItems) + 1;
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        pin: scope.pin,
        languages,
        typeElements,
        filters: query.filters,
        order: query.order,
        skip: query.skip,
        limit: fetchLimit,
        isTotalCountNeeded: query.isTotalCountIncluded,
      });
      if (found.items.length > maxResponseItems) throw responseTooLarge();
      const hasMore = query.limit !== null && found.items.length > query.limit;
      const variants = hasMore ? found.items.slice(0, query.limit ?? 0) : found.items;
      const { items, modularContent, charge } = await renderItems(scope, {
        variants,
        languages,
        query,
        depth: query.depth,
        pin: found.pin,
      });
      const pagination: Pagination = {
        skip: query.skip,
        limit: query.limit ?? 0,
        count: items.length,
        next_page: hasMore ? nextPageUrl(request, query.limit ?? 0, query.skip + (query.limit ?? 0)) : '',
      };
      if (query.isTotalCountIncluded) pagination.total_count = found.totalCount ?? 0;
      return { body: { items, modular_content: modularContent, pagination }, charge };
    },
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ItemFilter } from '@lectern/core';
import { type DeliveryContext, serve } from '@lectern/read-path';
import { prepareItemRead, renderItems } from '../content/read-items.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { readContinuation, writeContinuation } from '../shared/continuation.ts';

/**
 * GET /{project}/items-feed: every matching item, paged by `X-Continuation`; `modular_content`
 * holds components only and there is no `pagination` (reference 1.2, 1.6). `depth` is accepted
 * (the .NET SDK may send it) and ignored.
 */
export async function itemsFeed(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const query = parseQuery(request.url, profiles.itemsFeed);
  const position = readContinuation(request.headers['x-continuation']);
  const pageSize = ctx.options.feedPageSize;
  // In codename order a page starts after the last codename of the one before (an index seek).
  const isKeyset = query.order === null && position.afterCodename !== null;
  const filters: readonly ItemFilter[] = isKeyset
    ? [...query.filters, { property: 'system.codename', operator: 'gt', values: [position.afterCodename ?? ''] }]
    : query.filters;
  return serve(ctx, request, reply, {
    key: `feed\u0000${JSON.stringify(position)}\u0000${JSON.stringify(query)}`,
    compute: async (scope) => {
      const { languages, typeElements } = await prepareItemRead(scope, query, { isFallbackAllowed: true });
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        pin: scope.pin,
        languages,
        typeElements,
        filters,
        order: query.order,
        skip: isKeyset ? 0 : position.offset,
        limit: pageSize + 1,
        isTotalCountNeeded: false,
      });
      const hasMore = found.items.length > pageSize;
      const last = found.items[pageSize - 1]?.item.system.codename ?? null;
      const next = { offset: position.offset + pageSize, afterCodename: query.order === null ? last : null };
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
        headers: hasMore ? { 'x-continuation': writeContinuation(next) } : ({} as Record<string, string>),
      };
    },
  });
}

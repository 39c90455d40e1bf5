import type { FastifyReply, FastifyRequest } from 'fastify';
import { LecternError } from '@lectern/errors';
import { type DeliveryContext, serve } from '@lectern/read-path';
import { prepareItemRead, renderItems } from '../content/read-items.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';

/** GET /{project}/items/{codename}: `{item, modular_content}`; 404 (error_code 100) when missing. */
export async function getItem(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const { codename } = request.params as { codename: string };
  const query = parseQuery(request.url, profiles.item);
  return serve(ctx, request, reply, {
    key: `item\u0000${codename}\u0000${JSON.stringify(query)}`,
    compute: async (scope) => {
      // Filters the SDK adds (`system.workflow_step[neq]=archived`) apply to the one item.
      const { languages, typeElements } = await prepareItemRead(scope, query, { isFallbackAllowed: true });
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        pin: scope.pin,
        languages,
        typeElements,
        filters: [{ property: 'system.codename', operator: 'eq', values: [codename] }, ...query.filters],
        order: null,
        skip: 0,
        limit: 1,
        isTotalCountNeeded: false,
      });
      if (found.items.length === 0) {
        throw new LecternError('ITEM_NOT_FOUND', {
          message: `The requested content item '${codename}' was not found.`,
        });
      }
      const { items, modularContent, charge } = await renderItems(scope, {
        variants: found.items,
        languages,
        query,
        depth: query.depth,
        pin: found.pin,
      });
      return { body: { item: items[0], modular_content: modularContent }, charge };
    },
  });
}

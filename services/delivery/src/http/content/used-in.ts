import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeliveryIndexReader, ItemFilter } from '@lectern/core';
import { type DeliveryContext, serve } from '@lectern/read-path';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { readContinuation, writeContinuation } from '../shared/continuation.ts';
import { matchesAll } from './match-filter.ts';

type UsedInTarget = Parameters<DeliveryIndexReader['usedIn']>[0]['target'];

/**
 * GET …/used-in: items, in every language, that link to the item or use the asset, as
 * `{system}` only; filters on type, collection, workflow, workflow step and language; no
 * fallbacks; paged by `X-Continuation` (reference 1.2 rows 4–5, 1.6).
 */
export async function serveUsedIn(
  ctx: DeliveryContext,
  request: FastifyRequest,
  reply: FastifyReply,
  target: UsedInTarget,
) {
  const query = parseQuery(request.url, profiles.usedIn);
  const { offset } = readContinuation(request.headers['x-continuation']);
  const pageSize = ctx.options.feedPageSize;
  const filters: ItemFilter[] =
    query.language === null
      ? [...query.filters]
      : [...query.filters, { property: 'system.language', operator: 'eq', values: [query.language] }];
  return serve(ctx, request, reply, {
    key: `used-in\u0000${JSON.stringify(target)}\u0000${offset}\u0000${JSON.stringify(filters)}`,
    compute: async (scope) => {
      const variants = await scope.index.usedIn({ projectId: scope.projectId, channel: scope.channel, target });
      const all = variants
        .map((v) => v.item)
        .filter((item) => matchesAll(item, filters))
        .sort((a, b) =>
          a.system.codename === b.system.codename
            ? a.system.language.localeCompare(b.system.language)
            : a.system.codename < b.system.codename
              ? -1
              : 1,
        );
      const page = all.slice(offset, offset + pageSize);
      const items = page.map(({ system: s }) => ({
        system: {
          id: s.id,
          name: s.name,
          codename: s.codename,
          language: s.language,
          type: s.type,
          collection: s.collection,
          ...(s.workflow === undefined ? {} : { workflow: s.workflow }),
          ...(s.workflow_step === undefined ? {} : { workflow_step: s.workflow_step }),
          last_modified: s.last_modified,
        },
      }));
      const hasMore = offset + pageSize < all.length;
      return {
        body: { items },
        charge: items.length,
        headers: hasMore
          ? { 'x-continuation': writeContinuation({ offset: offset + pageSize, afterCodename: null }) }
          : ({} as Record<string, string>),
      };
    },
  });
}

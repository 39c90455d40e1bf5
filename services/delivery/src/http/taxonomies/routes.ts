import type { FastifyInstance } from 'fastify';
import { LecternError } from '@lectern/errors';
import { type DeliveryContext, serve } from '@lectern/read-path';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { pageOf } from '../shared/pagination.ts';

/** Taxonomy groups (reference 1.2 rows 10–11); a missing group is 404 with error_code 104. */
export function registerTaxonomyRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/taxonomies', (request, reply) => {
    const query = parseQuery(request.url, profiles.taxonomies);
    return serve(ctx, request, reply, {
      key: `taxonomies\u0000${JSON.stringify(query)}`,
      compute: async (scope) => {
        const { page, pagination } = pageOf(request, await scope.model.taxonomies(), query);
        return { body: { taxonomies: page, pagination }, charge: page.length };
      },
    });
  });

  app.get('/:projectId/taxonomies/:codename', (request, reply) => {
    const { codename } = request.params as { codename: string };
    parseQuery(request.url, profiles.none);
    return serve(ctx, request, reply, {
      key: `taxonomy\u0000${codename}`,
      compute: async (scope) => {
        const all = await scope.model.taxonomies();
        const found = all.find((t) => (t['system'] as { codename?: string } | undefined)?.codename === codename);
        if (found === undefined) {
          throw new LecternError('TAXONOMY_NOT_FOUND', {
            message: `The requested taxonomy group '${codename}' was not found.`,
          });
        }
        return { body: found, charge: 1 };
      },
    });
  });
}

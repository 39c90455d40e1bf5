import type { FastifyInstance } from 'fastify';
import { matchesAll, propertyValue } from '../content/match-filter.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { pageOf } from '../shared/pagination.ts';
import { type DeliveryContext, serve } from '@lectern/read-path';

/** GET /{project}/languages: active languages, the default first unless `order` says otherwise. */
export function registerLanguageRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/languages', (request, reply) => {
    const query = parseQuery(request.url, profiles.languages);
    return serve(ctx, request, reply, {
      key: `languages\u0000${JSON.stringify(query)}`,
      compute: async (scope) => {
        let all = (await scope.model.languages())
          .map((l) => ({ system: { id: l.system.id, name: l.system.name, codename: l.system.codename } }))
          .filter((l) => matchesAll(l, query.filters));
        const order = query.order;
        if (order !== null) {
          const sign = order.direction === 'asc' ? 1 : -1;
          all = all.sort(
            (a, b) =>
              sign * String(propertyValue(a, order.property)).localeCompare(String(propertyValue(b, order.property))),
          );
        }
        const { page, pagination } = pageOf(request, all, query);
        return { body: { languages: page, pagination }, charge: page.length };
      },
    });
  });
}

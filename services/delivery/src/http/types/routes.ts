import type { FastifyInstance } from 'fastify';
import { LecternError } from '@lectern/errors';
import { type DeliveryContext, serve, type ReadScope } from '@lectern/read-path';
import { projectElements } from '../content/project-elements.ts';
import { parseQuery } from '../query/parse-query.ts';
import { profiles } from '../query/profiles.ts';
import { pageOf } from '../shared/pagination.ts';

type TypeJson = Record<string, unknown> & { system?: { codename?: string }; elements?: Record<string, unknown> };

function typeNotFound(codename: string): LecternError {
  return new LecternError('CONTENT_TYPE_NOT_FOUND', {
    message: `The requested content type '${codename}' was not found.`,
  });
}

async function findType(scope: ReadScope, codename: string): Promise<TypeJson> {
  const types = (await scope.model.types()) as TypeJson[];
  const found = types.find((t) => t.system?.codename === codename);
  if (found === undefined) throw typeNotFound(codename);
  return found;
}

/** Content types (reference 1.2 rows 6–8); `elements`/`excludeElements` project type elements. */
export function registerTypeRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/types', (request, reply) => {
    const query = parseQuery(request.url, profiles.types);
    return serve(ctx, request, reply, {
      key: `types\u0000${JSON.stringify(query)}`,
      compute: async (scope) => {
        const all = (await scope.model.types()) as TypeJson[];
        const { page, pagination } = pageOf(request, all, query);
        const types = page.map((t) => ({ ...t, elements: projectElements(t.elements ?? {}, query) }));
        return { body: { types, pagination }, charge: types.length };
      },
    });
  });

  app.get('/:projectId/types/:codename', (request, reply) => {
    const { codename } = request.params as { codename: string };
    const query = parseQuery(request.url, profiles.type);
    return serve(ctx, request, reply, {
      key: `type\u0000${codename}\u0000${JSON.stringify(query)}`,
      compute: async (scope) => {
        const type = await findType(scope, codename);
        return { body: { ...type, elements: projectElements(type.elements ?? {}, query) }, charge: 1 };
      },
    });
  });

  app.get('/:projectId/types/:codename/elements/:element', (request, reply) => {
    const { codename, element } = request.params as { codename: string; element: string };
    parseQuery(request.url, profiles.none);
    return serve(ctx, request, reply, {
      key: `type-element\u0000${codename}\u0000${element}`,
      compute: async (scope) => {
        const type = await findType(scope, codename);
        const found = Object.hasOwn(type.elements ?? {}, element) ? type.elements?.[element] : undefined;
        if (typeof found !== 'object' || found === null) {
          throw new LecternError('CONTENT_ELEMENT_NOT_FOUND', {
            message: `The requested content element '${element}' was not found in content type '${codename}'.`,
          });
        }
        return { body: { ...found, codename: element }, charge: 1 };
      },
    });
  });
}

import type { FastifyInstance } from 'fastify';
import { type DeliveryContext, serveFromCache } from '@lectern/read-path';
import { registerAssetRoutes } from './assets/routes.ts';
import { registerItemRoutes } from './items/routes.ts';
import { registerLanguageRoutes } from './languages/routes.ts';
import { registerSyncRoutes } from './sync/routes.ts';
import { registerTaxonomyRoutes } from './taxonomies/routes.ts';
import { registerTypeRoutes } from './types/routes.ts';

/** Every Delivery content route of one listener (SPEC 4.3; reference 1.2). */
export function registerDeliveryRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  // A request answered before at this watermark is served from memory before its handler parses it.
  app.addHook('preHandler', async (request, reply) => {
    if (await serveFromCache(ctx, request, reply)) return reply;
    return undefined;
  });
  registerItemRoutes(app, ctx);
  registerTypeRoutes(app, ctx);
  registerTaxonomyRoutes(app, ctx);
  registerLanguageRoutes(app, ctx);
  registerAssetRoutes(app, ctx);
  registerSyncRoutes(app, ctx);
}

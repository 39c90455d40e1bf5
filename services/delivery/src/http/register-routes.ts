import type { FastifyInstance } from 'fastify';
import { registerAssetRoutes } from './assets/routes.ts';
import { registerItemRoutes } from './items/routes.ts';
import { registerLanguageRoutes } from './languages/routes.ts';
import { registerSyncRoutes } from './sync/routes.ts';
import type { DeliveryContext } from './shared/delivery-context.ts';
import { serveFromCache } from './shared/serve.ts';
import { registerTaxonomyRoutes } from './taxonomies/routes.ts';
import { registerTypeRoutes } from './types/routes.ts';

export { createDeliveryContext, type DeliveryContext } from './shared/delivery-context.ts';
export type { DeliveryHttpOptions } from './shared/http-options.ts';

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

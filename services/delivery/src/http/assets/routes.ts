import type { FastifyInstance } from 'fastify';
import { serveUsedIn } from '../content/used-in.ts';
import type { DeliveryContext } from '../shared/delivery-context.ts';

/**
 * GET /{project}/assets/{id}/used-in. The index knows assets by id; the SDK's `assetUsedIn` passes
 * what the caller gives it, so callers give the asset id.
 */
export function registerAssetRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/assets/:assetId/used-in', (request, reply) =>
    serveUsedIn(ctx, request, reply, { assetId: (request.params as { assetId: string }).assetId.toLowerCase() }),
  );
}

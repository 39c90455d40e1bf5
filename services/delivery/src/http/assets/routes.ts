import type { FastifyInstance } from 'fastify';
import { isUuid } from '@lectern/core';
import type { DeliveryContext } from '@lectern/read-path';
import { serveUsedIn } from '../content/used-in.ts';

/**
 * GET /{project}/assets/{asset codename}/used-in (reference: the path names the asset by codename).
 * The index knows assets by id, so the codename is resolved through the store; an id is accepted
 * too, since the SDK's `assetUsedIn` passes whatever the caller gives it. An unknown asset is used
 * nowhere: an empty list.
 */
export function registerAssetRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/assets/:asset/used-in', async (request, reply) => {
    const { projectId, asset } = request.params as { projectId: string; asset: string };
    const project = projectId.toLowerCase();
    const found = isUuid(asset)
      ? null
      : await ctx.core.store.transaction((tx) => tx.assets.find(project, { codename: asset }));
    const assetId = isUuid(asset) ? asset.toLowerCase() : (found?.id ?? '00000000-0000-0000-0000-000000000000');
    return serveUsedIn(ctx, request, reply, { assetId });
  });
}

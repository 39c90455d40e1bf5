import type { Request, Response } from 'express';
import { Router } from 'express';
import { addAsset, assetJsonV1, deleteAsset, getAsset, listAssets, upsertAsset } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { assetsBaseOf } from '../files/binary-routes.ts';
import { filesRouter, type FilesOptions } from '../files/routes.ts';
import { recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf } from '../shared/paging.ts';
import { publicPathOf } from '../public-origin.ts';

/**
 * Management API v1 `/assets` and `/files` (SPEC 9, reference §7.1): assets by id or external id
 * (v1 has no asset codenames), without folder, codename, collection and elements; paging by the
 * `continuationToken` query, with `next_page` the full URL carrying it.
 */
export function v1AssetsRouter(options: FilesOptions): Router {
  const router = Router({ mergeParams: true });
  const { core } = options;
  router.use(filesRouter(options));
  router
    .route('/assets')
    .get(async (req: Request, res: Response) => {
      const page = await listAssets(core, { ...modelInput(req, res), continuation: continuationOf(req) });
      const base = assetsBaseOf(req);
      const here = publicPathOf(req);
      const token = page.continuationToken;
      res.json({
        assets: page.items.map((view) => assetJsonV1(view, base)),
        pagination: {
          continuation_token: token,
          next_page: token === null ? null : `${here}?continuationToken=${encodeURIComponent(token)}`,
        },
      });
    })
    .post(async (req: Request, res: Response) => {
      const view = await addAsset(core, { ...modelInput(req, res), body: req.body, isV1: true });
      res.status(201).json(assetJsonV1(view, assetsBaseOf(req)));
    })
    .all(methodNotAllowed);
  router
    .route(['/assets/external-id/:externalId', '/assets/:id'])
    .get(async (req: Request, res: Response) => {
      const key = recordKeyFrom(req.params, 'ASSET_NOT_FOUND');
      res.json(assetJsonV1(await getAsset(core, { ...modelInput(req, res), key }), assetsBaseOf(req)));
    })
    .put(async (req: Request, res: Response) => {
      const key = recordKeyFrom(req.params, 'ASSET_NOT_FOUND');
      const result = await upsertAsset(core, {
        ...modelInput(req, res),
        key,
        body: req.body,
        isV1: true,
        isFileOptionalOnUpdate: options.isAssetFileOptionalOnUpdate ?? false,
      });
      res.status(result.isCreated ? 201 : 200).json(assetJsonV1(result.view, assetsBaseOf(req)));
    })
    .delete(async (req: Request, res: Response) => {
      await deleteAsset(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'ASSET_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

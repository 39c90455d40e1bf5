import type { Request, Response } from 'express';
import { Router } from 'express';
import { addAsset, assetJson, deleteAsset, getAsset, listAssets, upsertAsset } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { assetsBaseOf } from '../files/binary-routes.ts';
import type { ManagementServices } from '../services.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';
import { publicOriginOf } from '../public-origin.ts';

/** `/assets` of the Management API v2 (reference §2.8): paged list, add, view, upsert, delete. */
export function assetsRouter(services: ManagementServices): Router {
  const router = Router({ mergeParams: true });
  const { core } = services;
  router
    .route('/assets')
    .get(async (req: Request, res: Response) => {
      const page = await listAssets(core, { ...modelInput(req, res), continuation: continuationOf(req) });
      const base = assetsBaseOf(req);
      res.json({
        assets: page.items.map((view) => assetJson(view, base)),
        pagination: paginationJson(req, page.continuationToken),
      });
    })
    .post(async (req: Request, res: Response) => {
      const view = await addAsset(core, { ...modelInput(req, res), body: req.body });
      res
        .status(201)
        .location(`${publicOriginOf(req)}${req.baseUrl}/assets/${view.asset.id}`)
        .json(assetJson(view, assetsBaseOf(req)));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/assets'))
    .get(async (req: Request, res: Response) => {
      const key = recordKeyFrom(req.params, 'ASSET_NOT_FOUND');
      res.json(assetJson(await getAsset(core, { ...modelInput(req, res), key }), assetsBaseOf(req)));
    })
    .put(async (req: Request, res: Response) => {
      const key = recordKeyFrom(req.params, 'ASSET_NOT_FOUND');
      const result = await upsertAsset(core, {
        ...modelInput(req, res),
        key,
        body: req.body,
        isFileOptionalOnUpdate: services.isAssetFileOptionalOnUpdate ?? false,
      });
      res.status(result.isCreated ? 201 : 200).json(assetJson(result.view, assetsBaseOf(req)));
    })
    .delete(async (req: Request, res: Response) => {
      await deleteAsset(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'ASSET_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

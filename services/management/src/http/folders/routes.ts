import type { Request, Response } from 'express';
import { Router } from 'express';
import { addAssetFolders, assetFoldersJson, listAssetFolders, modifyAssetFolders } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import type { ManagementServices } from '../services.ts';
import { modelInput } from '../shared/model-input.ts';

/** `/folders` of the Management API v2 (reference §2.8, §6.3): the whole tree, not paged. */
export function foldersRouter(services: ManagementServices): Router {
  const router = Router({ mergeParams: true });
  const { core } = services;
  router
    .route('/folders')
    .get(async (req: Request, res: Response) => {
      res.json(assetFoldersJson(await listAssetFolders(core, modelInput(req, res))));
    })
    .post(async (req: Request, res: Response) => {
      const tree = await addAssetFolders(core, { ...modelInput(req, res), body: req.body });
      res.status(201).json(assetFoldersJson(tree));
    })
    .patch(async (req: Request, res: Response) => {
      res.json(assetFoldersJson(await modifyAssetFolders(core, { ...modelInput(req, res), operations: req.body })));
    })
    .all(methodNotAllowed);
  return router;
}

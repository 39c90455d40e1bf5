import { Router } from 'express';
import { collectionsJson, listCollections, setCollections, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

/** `/collections` (reference §2.9, §6.4): the whole list, read and changed as one (not paged). */
export function collectionsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/collections')
    .get(async (req, res) => {
      res.json(collectionsJson(await listCollections(core, modelInput(req, res))));
    })
    .patch(async (req, res) => {
      res.json(collectionsJson(await setCollections(core, { ...modelInput(req, res), operations: req.body })));
    })
    .all(methodNotAllowed);
  return router;
}

import { Router } from 'express';
import { addSpace, deleteSpace, getSpace, listSpaces, modifySpace, spaceJson, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';

/** `/spaces` (reference §2.9, §6.5): list (bare array, not paged), get, add, modify, delete. */
export function spacesRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/spaces')
    .get(async (req, res) => {
      res.json((await listSpaces(core, modelInput(req, res))).map(spaceJson));
    })
    .post(async (req, res) => {
      res.status(201).json(spaceJson(await addSpace(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/spaces'))
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SPACE_NOT_FOUND');
      res.json(spaceJson(await getSpace(core, { ...modelInput(req, res), key })));
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SPACE_NOT_FOUND');
      res.json(spaceJson(await modifySpace(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .delete(async (req, res) => {
      await deleteSpace(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'SPACE_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

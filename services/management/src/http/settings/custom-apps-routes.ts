import { Router } from 'express';
import {
  addCustomApp,
  customAppJson,
  deleteCustomApp,
  getCustomApp,
  listCustomApps,
  modifyCustomApp,
  paginate,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `/custom-apps` (reference §2.13, §6.6): list (paged), get by id or codename, add, modify, delete. */
export function customAppsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/custom-apps')
    .get(async (req, res) => {
      const page = paginate(await listCustomApps(core, modelInput(req, res)), { continuation: continuationOf(req) });
      res.json({ custom_apps: page.items.map(customAppJson), pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(customAppJson(await addCustomApp(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(['/custom-apps/codename/:codename', '/custom-apps/:id'])
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CUSTOM_APP_NOT_FOUND');
      res.json(customAppJson(await getCustomApp(core, { ...modelInput(req, res), key })));
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CUSTOM_APP_NOT_FOUND');
      res.json(customAppJson(await modifyCustomApp(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .delete(async (req, res) => {
      await deleteCustomApp(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'CUSTOM_APP_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

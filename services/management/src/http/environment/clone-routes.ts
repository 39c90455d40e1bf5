import { Router } from 'express';
import { getCloningState, markEnvironmentAsProduction, startClone, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * `POST /clone-environment` (200 with the clone's id and keys; the copy is a background task that
 * any process's runner does — this one's is woken),
 * `GET /environment-cloning-state` and `PUT /mark-environment-as-production` (reference §2.1).
 */
export function cloneRouter(core: CoreDeps, options: { tasks: { wake(): void } | null }): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/clone-environment')
    .post(async (req, res) => {
      const started = await startClone(core, { ...modelInput(req, res), body: req.body });
      res.json({
        id: started.project.id,
        management_api_key: started.keys.management,
        secured_delivery_api_key: started.keys.delivery,
        delivery_preview_api_key: started.keys.preview,
      });
      options.tasks?.wake();
    })
    .all(methodNotAllowed);
  router
    .route('/environment-cloning-state')
    .get(async (req, res) => {
      res.json({ cloning_state: await getCloningState(core, modelInput(req, res)) });
    })
    .all(methodNotAllowed);
  router
    .route('/mark-environment-as-production')
    .put(async (req, res) => {
      await markEnvironmentAsProduction(core, { ...modelInput(req, res), body: req.body });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

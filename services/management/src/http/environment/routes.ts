import { Router } from 'express';
import { deleteEnvironment, getProject, renameEnvironment, type CoreDeps, type Project } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

function environmentJson(project: Project) {
  return { id: project.id, name: project.name, environment: project.environment, is_production: project.isProduction };
}

/**
 * `/v2/projects/{environment_id}`: GET returns the environment's id and names (clients also use it
 * to validate a key); PATCH with `rename_environment` renames the environment; DELETE deletes a
 * non-production environment.
 */
export function environmentRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/')
    .get(async (req, res) => {
      res.json(environmentJson(await getProject(core, modelInput(req, res))));
    })
    .patch(async (req, res) => {
      res.json(environmentJson(await renameEnvironment(core, { ...modelInput(req, res), operations: req.body })));
    })
    .delete(async (req, res) => {
      await deleteEnvironment(core, modelInput(req, res));
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

import { Router } from 'express';
import { getProject, type CoreDeps } from '@lectern/core';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';

/**
 * `GET /v2/projects/{environment_id}`: the environment's id and names. Clients also use it to
 * validate a Management API key.
 */
export function environmentRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/')
    .get(async (req, res) => {
      const actor = locals(res).actor;
      if (!actor) throw new Error('environment route reached without authentication');
      const project = await getProject(core, {
        actor,
        projectId: (req.params as { projectId: string }).projectId.toLowerCase(),
      });
      res.json({
        id: project.id,
        name: project.name,
        environment: project.environment,
        is_production: project.environment === 'Production',
      });
    })
    .all(methodNotAllowed);
  return router;
}

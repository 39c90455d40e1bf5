import { Router } from 'express';
import { z } from 'zod';
import { getProject, type CoreDeps, type RecsTracking } from '@lectern/core';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseBody } from '../parse-body.ts';

const settingsUpdate = z.object({ manual_tracking: z.boolean() }).strict();

/**
 * The recommendation settings of a project (SPEC 4.5 rules 8–9), for the operator:
 * `GET|PUT /admin/projects/{id}/recommendations` `{ "manual_tracking": bool }`. With manual
 * tracking, `recommend/items` records no visit; only the `track/*` calls do.
 */
export function recsSettingsRouter(core: CoreDeps, tracking: RecsTracking): Router {
  const router = Router();
  const actor = (res: Parameters<typeof locals>[0]) =>
    locals(res).actor ?? { type: 'anonymous' as const, projectId: '' };
  router
    .route('/projects/:projectId/recommendations')
    .get(async (req, res) => {
      const project = await getProject(core, { actor: actor(res), projectId: req.params.projectId });
      res.json({ manual_tracking: await tracking.isManualTracking(project.id) });
    })
    .put(async (req, res) => {
      const body = parseBody(settingsUpdate, req.body);
      const project = await getProject(core, { actor: actor(res), projectId: req.params.projectId });
      await tracking.setManualTracking(project.id, body.manual_tracking);
      res.json({ manual_tracking: body.manual_tracking });
    })
    .all(methodNotAllowed);
  return router;
}

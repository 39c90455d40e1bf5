import { Router } from 'express';
import { appUserJson, listProjectUsers, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * `GET /app/api/projects/{projectId}/users` → `{users: [{id, email}]}`: the environment's active
 * users, by e-mail, for the editor's "Contributors" (the Management API has no public list of
 * users). Behind the person's session like the app's other project routes; anyone who may read
 * the project may read it, as everyone on a Kontent.ai project sees who the contributors are.
 */
export function appUsersRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/users')
    .get(async (req, res) => {
      const users = await listProjectUsers(core, modelInput(req, res));
      res.json({ users: users.filter((u) => u.is_active).map(appUserJson) });
    })
    .all(methodNotAllowed);
  return router;
}

import { Router } from 'express';
import { z } from 'zod';
import {
  apiKeyKinds,
  createApiKey,
  createProject,
  deleteEnvironment,
  getProject,
  listApiKeys,
  listProjects,
  regenerateApiKey,
  revokeApiKey,
  updateProject,
  type CoreDeps,
  type RecsTracking,
} from '@lectern/core';
import { requireOperatorToken } from '../auth.ts';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseBody } from '../parse-body.ts';
import { issuedKeyJson, keyJson, projectJson } from './views.ts';
import { webhooksRouter } from '../webhooks/routes.ts';
import { environmentAdminRouter } from './environment-routes.ts';
import { recsSettingsRouter } from './recommendations.ts';

const projectCreate = z.object({
  name: z.string(),
  environment: z.string().min(1).max(200).optional(),
  secure_access: z.boolean().optional(),
});
const projectUpdate = z.object({ name: z.string().optional(), secure_access: z.boolean().optional() });
const keyCreate = z.object({
  kind: z.enum(apiKeyKinds),
  user_email: z.string().optional(),
  validity_days: z.number().int().positive().optional(),
});

/**
 * The operator admin API used by the `lectern` CLI: projects and API keys, environments, users
 * and roles (`environment-routes.ts`), webhooks. Mounted at `/admin`,
 * guarded by the operator token.
 */
export function adminRouter(
  core: CoreDeps,
  operatorToken: string | null,
  options: { tasks?: { wake(): void } | null; recsTracking?: RecsTracking } = {},
): Router {
  const { tasks = null, recsTracking } = options;
  const router = Router();
  router.use(requireOperatorToken(operatorToken));
  const actor = (res: Parameters<typeof locals>[0]) =>
    locals(res).actor ?? { type: 'anonymous' as const, projectId: '' };

  router
    .route('/projects')
    .get(async (_req, res) => {
      res.json({ projects: (await listProjects(core, { actor: actor(res) })).map(projectJson) });
    })
    .post(async (req, res) => {
      const body = parseBody(projectCreate, req.body);
      const project = await createProject(core, {
        actor: actor(res),
        name: body.name,
        ...(body.environment === undefined ? {} : { environment: body.environment }),
        ...(body.secure_access === undefined ? {} : { isSecureAccess: body.secure_access }),
      });
      res.status(201).json(projectJson(project));
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId')
    .get(async (req, res) => {
      res.json(projectJson(await getProject(core, { actor: actor(res), projectId: req.params.projectId })));
    })
    .patch(async (req, res) => {
      const body = parseBody(projectUpdate, req.body);
      const project = await updateProject(core, {
        actor: actor(res),
        projectId: req.params.projectId,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.secure_access === undefined ? {} : { isSecureAccess: body.secure_access }),
      });
      res.json(projectJson(project));
    })
    .delete(async (req, res) => {
      // The environment and everything under it (a production one only when alone in its project).
      await deleteEnvironment(core, { actor: actor(res), projectId: req.params.projectId });
      res.status(204).end();
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId/keys')
    .get(async (req, res) => {
      res.json({
        keys: (await listApiKeys(core, { actor: actor(res), projectId: req.params.projectId })).map(keyJson),
      });
    })
    .post(async (req, res) => {
      const body = parseBody(keyCreate, req.body);
      const issued = await createApiKey(core, {
        actor: actor(res),
        projectId: req.params.projectId,
        kind: body.kind,
        ...(body.user_email === undefined ? {} : { userEmail: body.user_email }),
        ...(body.validity_days === undefined ? {} : { validityDays: body.validity_days }),
      });
      res.status(201).json(issuedKeyJson(issued));
    })
    .all(methodNotAllowed);

  router
    .route('/keys/:keyId/regenerate')
    .post(async (req, res) => {
      res.status(201).json(issuedKeyJson(await regenerateApiKey(core, { actor: actor(res), keyId: req.params.keyId })));
    })
    .all(methodNotAllowed);

  router
    .route('/keys/:keyId/revoke')
    .post(async (req, res) => {
      res.json(keyJson(await revokeApiKey(core, { actor: actor(res), keyId: req.params.keyId })));
    })
    .all(methodNotAllowed);

  router.use(environmentAdminRouter(core, { actor, tasks }));
  if (recsTracking) router.use(recsSettingsRouter(core, recsTracking));

  // Webhooks as the Management API serves them, for the operator (`lectern webhooks …`).
  router.use('/projects/:projectId', webhooksRouter(core));

  return router;
}

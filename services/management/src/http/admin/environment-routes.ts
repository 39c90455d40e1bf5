import { Router, type Response } from 'express';
import { z } from 'zod';
import {
  changeUserRoles,
  getBackgroundTask,
  inviteUser,
  issuePersonLink,
  listProjectUsers,
  getProject,
  listRoles,
  permissionsOfRole,
  startClone,
  type Actor,
  type BackgroundTask,
  type CoreDeps,
} from '@lectern/core';
import { acceptUrl } from '../app-api/links.ts';
import { methodNotAllowed } from '../errors.ts';
import { publicOriginOf } from '../public-origin.ts';
import { parseBody } from '../parse-body.ts';
import { projectJson } from './views.ts';

const cloneBody = z.object({
  name: z.string(),
  copy_content: z.boolean().optional(),
  user_email: z.string().optional(),
});
const rolesBody = z.object({ roles: z.array(z.string()).min(1) });
const inviteBody = rolesBody.extend({ email: z.string() });
const linkBody = z.object({ purpose: z.enum(['invite', 'reset']) });

export function taskJson(t: BackgroundTask) {
  return {
    id: t.id,
    kind: t.kind,
    project_id: t.projectId,
    status: t.status,
    progress: t.progress,
    attempts: t.attempts,
    error: t.error,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** Every collection and language, in the given roles (role ids). */
function groupsOf(roles: readonly string[]) {
  return [{ collections: [], roles: roles.map((id) => ({ id, languages: [] })) }];
}

/**
 * The operator's environment work for the `lectern` CLI (mounted in the admin API): clone an
 * environment (a background task; `GET /tasks/{id}` reads its progress), list and invite users (with an invitation link), issue their one-time links and change their roles, list roles with their permissions.
 */
export function environmentAdminRouter(
  core: CoreDeps,
  options: { actor: (res: Response) => Actor; tasks: { wake(): void } | null },
): Router {
  const router = Router();
  const actor = options.actor;

  router
    .route('/projects/:projectId/clone')
    .post(async (req, res) => {
      const body = parseBody(cloneBody, req.body);
      const started = await startClone(core, {
        actor: actor(res),
        projectId: req.params.projectId,
        body: { name: body.name, copy_data_options: { content_items_assets: body.copy_content ?? true } },
        ...(body.user_email === undefined ? {} : { keyOwnerEmail: body.user_email }),
      });
      options.tasks?.wake();
      res.status(202).json({
        project: projectJson(started.project),
        task_id: started.taskId,
        management_api_key: started.keys.management,
        delivery_api_key: started.keys.delivery,
        preview_api_key: started.keys.preview,
      });
    })
    .all(methodNotAllowed);

  router
    .route('/tasks/:taskId')
    .get(async (req, res) => {
      res.json(taskJson(await getBackgroundTask(core, { actor: actor(res), taskId: req.params.taskId })));
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId/users')
    .get(async (req, res) => {
      res.json({ users: await listProjectUsers(core, { actor: actor(res), projectId: req.params.projectId }) });
    })
    .post(async (req, res) => {
      const body = parseBody(inviteBody, req.body);
      const projectId = req.params.projectId;
      await inviteUser(core, {
        actor: actor(res),
        projectId,
        body: { email: body.email, collection_groups: groupsOf(body.roles) },
      });
      const users = await listProjectUsers(core, { actor: actor(res), projectId });
      // The invitation link: the person chooses a password there (and signs in to the editor).
      const link = await issuePersonLink(core, { actor: actor(res), projectId, email: body.email, purpose: 'invite' });
      res.status(201).json({
        ...users.find((u) => u.email === body.email.toLowerCase()),
        invitation_url: acceptUrl(publicOriginOf(req), link.token),
        invitation_expires_at: link.expiresAt.toISOString(),
      });
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId/users/:email/links')
    .post(async (req, res) => {
      const { purpose } = parseBody(linkBody, req.body);
      const link = await issuePersonLink(core, {
        actor: actor(res),
        projectId: req.params.projectId,
        email: req.params.email,
        purpose,
      });
      res.status(201).json({
        email: link.email,
        purpose: link.purpose,
        url: acceptUrl(publicOriginOf(req), link.token),
        expires_at: link.expiresAt.toISOString(),
      });
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId/users/:email/roles')
    .put(async (req, res) => {
      const body = parseBody(rolesBody, req.body);
      const projectId = req.params.projectId;
      const email = req.params.email.toLowerCase();
      await changeUserRoles(core, {
        actor: actor(res),
        projectId,
        user: { email },
        body: { collection_groups: groupsOf(body.roles) },
      });
      const users = await listProjectUsers(core, { actor: actor(res), projectId });
      res.json(users.find((u) => u.email === email));
    })
    .all(methodNotAllowed);

  router
    .route('/projects/:projectId/roles')
    .get(async (req, res) => {
      const input = { actor: actor(res), projectId: req.params.projectId };
      await getProject(core, input);
      const roles = await listRoles(core, input);
      res.json({
        roles: roles.map((r) => ({ ...r, permissions: permissionsOfRole(r.name.toLowerCase().replaceAll(' ', '-')) })),
      });
    })
    .all(methodNotAllowed);

  return router;
}

import { Router, type Request } from 'express';
import {
  changeUserRoles,
  getSubscriptionProject,
  getSubscriptionUser,
  inviteUser,
  listSubscriptionProjects,
  listSubscriptionUsers,
  paginate,
  projectUserJson,
  setUserActive,
  type Actor,
  type CoreDeps,
} from '@lectern/core';
import { requireOperatorToken } from '../auth.ts';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

const userPaths = (suffix: string) => [`/users/email/:email${suffix}`, `/users/:userId${suffix}`];

function userOf(req: Request): { id: string } | { email: string } {
  const email = req.params['email'];
  return typeof email === 'string' ? { email } : { id: String(req.params['userId']) };
}

/** `POST /users` and `PUT /users/{id | email/…}/roles` of an environment (reference §2.12). */
export function projectUsersRouter(
  core: CoreDeps,
  options: {
    /** Called after an invitation is stored (e.g. to e-mail the person their link); its failure is its own. */
    onInvited?: (invited: { actor: Actor; projectId: string; email: string }) => Promise<void>;
  } = {},
): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/users')
    .post(async (req, res) => {
      const input = modelInput(req, res);
      const record = await inviteUser(core, { ...input, body: req.body });
      await options.onInvited?.({ actor: input.actor, projectId: input.projectId, email: record.body.email });
      res.status(201).json(projectUserJson(record));
    })
    .all(methodNotAllowed);
  router
    .route(userPaths('/roles'))
    .put(async (req, res) => {
      const record = await changeUserRoles(core, { ...modelInput(req, res), user: userOf(req), body: req.body });
      res.json(projectUserJson(record));
    })
    .all(methodNotAllowed);
  return router;
}

/**
 * The Subscription API under `/v2/subscriptions/{id}` (reference §2.12), for the operator: its
 * API key is the operator token. Projects and users are paged (100).
 */
export function subscriptionsRouter(core: CoreDeps, operatorToken: string | null): Router {
  const router = Router({ mergeParams: true });
  router.use(requireOperatorToken(operatorToken));
  const input = (req: Request, res: Parameters<typeof locals>[0]) => ({
    actor: locals(res).actor as NonNullable<ReturnType<typeof locals>['actor']>,
    subscriptionId: String(req.params['subscriptionId']),
  });
  router
    .route('/projects')
    .get(async (req, res) => {
      const page = paginate(await listSubscriptionProjects(core, input(req, res)), {
        continuation: continuationOf(req),
      });
      res.json({ projects: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  router
    .route('/projects/:projectId')
    .get(async (req, res) => {
      res.json(await getSubscriptionProject(core, { ...input(req, res), projectId: String(req.params['projectId']) }));
    })
    .all(methodNotAllowed);
  router
    .route('/users')
    .get(async (req, res) => {
      const page = paginate(await listSubscriptionUsers(core, input(req, res)), { continuation: continuationOf(req) });
      res.json({ users: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  router
    .route(userPaths(''))
    .get(async (req, res) => {
      res.json(await getSubscriptionUser(core, { ...input(req, res), user: userOf(req) }));
    })
    .all(methodNotAllowed);
  for (const [action, isActive] of [
    ['activate', true],
    ['deactivate', false],
  ] as const)
    router
      .route(userPaths(`/${action}`))
      .put(async (req, res) => {
        await setUserActive(core, { ...input(req, res), user: userOf(req), isActive });
        res.status(204).end();
      })
      .all(methodNotAllowed);
  return router;
}

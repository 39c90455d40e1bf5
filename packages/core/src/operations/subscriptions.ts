import { auditObject } from '../audit/audit-entry.ts';
import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import type { Project } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import { zeroId } from '../model/defaults.ts';
import type { LanguageBody } from '../model/languages.ts';
import { listRolesOf } from '../model/settings/roles.ts';
import { settingId } from '../model/settings/setting-store.ts';
import { idFromExternalId } from '../model/shared/index.ts';
import type { UnitOfWork } from '../ports/store.ts';
import type { CollectionGroup, ProjectUserBody } from './project-users.ts';
import { requireOperator } from './require-operator.ts';

/*
 * The Subscription API (reference §2.12) over one subscription holding every project of this
 * Lectern installation, for the operator (its API key is the operator token). A Kontent.ai
 * project is a group of environments (an environment and its clones); its id is the first
 * environment's. Users are the invited users of every environment and the owners of active
 * management keys who were not invited (project managers of their environment, subscription
 * admins).
 */

export const subscriptionId = idFromExternalId({ projectId: zeroId, kind: 'subscription', externalId: 'lectern' });

function requireSubscription(actor: Actor, id: string): void {
  requireOperator(actor);
  if (id.toLowerCase() !== subscriptionId)
    throw new LecternError('SUBSCRIPTION_NOT_FOUND', {
      message: `The subscription was not found. This Lectern has one subscription: ${subscriptionId}.`,
    });
}

interface Group {
  root: Project;
  environments: Project[];
}

async function groups(tx: UnitOfWork): Promise<Group[]> {
  const projects = await tx.projects.list();
  const byRoot = new Map<string, Project[]>();
  for (const p of projects) {
    const found = await tx.model.find<{ root: string }>(p.id, 'setting', { id: settingId(p.id, 'environment_group') });
    const root = found?.body.root ?? p.id;
    byRoot.set(root, [...(byRoot.get(root) ?? []), p]);
  }
  return [...byRoot.entries()].map(([root, environments]) => ({
    root: projects.find((p) => p.id === root) ?? (environments[0] as Project),
    environments,
  }));
}

function projectJson(g: Group) {
  return {
    id: g.root.id,
    name: g.root.name,
    is_active: true,
    environments: g.environments.map((e) => ({ id: e.id, name: e.environment })),
  };
}

export async function listSubscriptionProjects(deps: CoreDeps, input: { actor: Actor; subscriptionId: string }) {
  requireSubscription(input.actor, input.subscriptionId);
  return deps.store.transaction(async (tx) => (await groups(tx)).map(projectJson));
}

export async function getSubscriptionProject(
  deps: CoreDeps,
  input: { actor: Actor; subscriptionId: string; projectId: string },
) {
  requireSubscription(input.actor, input.subscriptionId);
  const found = await deps.store.transaction(async (tx) =>
    (await groups(tx)).find((g) => g.root.id === input.projectId.toLowerCase()),
  );
  if (!found) throw new LecternError('PROJECT_NOT_FOUND');
  return projectJson(found);
}

interface Membership {
  environment: Project;
  isActive: boolean;
  groups: CollectionGroup[];
}

/** Every user of the subscription with their memberships, by user id. */
async function members(tx: UnitOfWork) {
  const out = new Map<string, { id: string; email: string; name: string; invited: boolean; of: Membership[] }>();
  const add = (user: { id: string; email: string; name: string }, m: Membership, invited: boolean) => {
    const entry = out.get(user.id) ?? { ...user, invited, of: [] };
    entry.invited = entry.invited && invited;
    if (!entry.of.some((x) => x.environment.id === m.environment.id)) entry.of.push(m);
    out.set(user.id, entry);
  };
  for (const p of await tx.projects.list()) {
    const invited = await tx.model.list<ProjectUserBody>(p.id, 'project_user');
    for (const key of await tx.apiKeys.listByProject(p.id)) {
      if (key.kind !== 'management' || key.revokedAt !== null || key.ownerUserId === null) continue;
      // An invited user's key acts with the user's roles (see permissions.ts).
      if (invited.some((d) => d.id === key.ownerUserId)) continue;
      const user = await tx.users.get(key.ownerUserId);
      const pm = idFromExternalId({ projectId: p.id, kind: 'role', externalId: 'project-manager' });
      if (user)
        add(
          user,
          { environment: p, isActive: true, groups: [{ collections: [], roles: [{ id: pm, languages: [] }] }] },
          false,
        );
    }
    for (const doc of invited) {
      const user = await tx.users.get(doc.id);
      if (user) add(user, { environment: p, isActive: doc.body.is_active, groups: doc.body.collection_groups }, true);
    }
  }
  return out;
}

async function userJson(
  tx: UnitOfWork,
  all: Group[],
  u: { id: string; email: string; name: string; invited: boolean; of: Membership[] },
) {
  const [first, ...rest] = u.name.includes('@') ? [undefined] : u.name.split(' ');
  const projects = [];
  for (const g of all) {
    const environments = [];
    for (const m of u.of.filter((x) => g.environments.some((e) => e.id === x.environment.id))) {
      const roles = listRolesOf(m.environment.id);
      const languages = await tx.model.list<LanguageBody>(m.environment.id, 'language');
      environments.push({
        id: m.environment.id,
        name: m.environment.environment,
        is_user_active: m.isActive,
        collection_groups: m.groups.map((cg) => ({
          collections: cg.collections,
          roles: cg.roles.map((r) => ({
            ...(roles.find((x) => x.id === r.id) ?? { id: r.id, name: '' }),
            languages: (r.languages.length === 0
              ? languages
              : languages.filter((l) => r.languages.some((x) => x.id === l.id))
            ).map((l) => ({
              id: l.id,
              codename: l.codename,
              name: l.body.name,
              is_active: l.body.is_active,
              ...(l.externalId === null ? {} : { external_id: l.externalId }),
            })),
          })),
        })),
      });
    }
    if (environments.length > 0) projects.push({ id: g.root.id, name: g.root.name, environments });
  }
  return {
    id: u.id,
    email: u.email,
    ...(first === undefined ? {} : { first_name: first, last_name: rest.join(' ') }),
    has_pending_invitation: u.invited,
    projects,
  };
}

export async function listSubscriptionUsers(deps: CoreDeps, input: { actor: Actor; subscriptionId: string }) {
  requireSubscription(input.actor, input.subscriptionId);
  return deps.store.transaction(async (tx) => {
    const all = await groups(tx);
    const out = [];
    for (const u of (await members(tx)).values()) out.push(await userJson(tx, all, u));
    return out;
  });
}

async function findMember(tx: UnitOfWork, user: { id: string } | { email: string }) {
  const all = await members(tx);
  const found =
    'id' in user ? all.get(user.id.toLowerCase()) : [...all.values()].find((u) => u.email === user.email.toLowerCase());
  if (!found) throw new LecternError('USER_NOT_FOUND');
  return found;
}

export async function getSubscriptionUser(
  deps: CoreDeps,
  input: { actor: Actor; subscriptionId: string; user: { id: string } | { email: string } },
) {
  requireSubscription(input.actor, input.subscriptionId);
  return deps.store.transaction(async (tx) => userJson(tx, await groups(tx), await findMember(tx, input.user)));
}

/**
 * PUT …/users/{user}/activate | deactivate: the user's invitations in every environment become
 * active or inactive. A management key owner is a subscription admin (229).
 */
export async function setUserActive(
  deps: CoreDeps,
  input: { actor: Actor; subscriptionId: string; user: { id: string } | { email: string }; isActive: boolean },
): Promise<void> {
  requireSubscription(input.actor, input.subscriptionId);
  await deps.store.transaction(async (tx) => {
    const member = await findMember(tx, input.user);
    if (!member.invited) throw new LecternError('SUBSCRIPTION_ADMIN_NOT_CHANGEABLE');
    for (const m of member.of) {
      const doc = await tx.model.find<ProjectUserBody>(
        m.environment.id,
        'project_user',
        { id: member.id },
        { isForUpdate: true },
      );
      if (doc)
        await tx.model.update({
          ...doc,
          body: { ...doc.body, is_active: input.isActive },
          lastModified: deps.clock.now(),
        });
    }
    tx.audit.note({
      projectId: member.of[0]?.environment.id ?? null,
      action: input.isActive ? 'user.activate' : 'user.deactivate',
      object: auditObject('user', { id: member.id }),
      summary: { environments: member.of.map((m) => m.environment.id) },
    });
  });
}

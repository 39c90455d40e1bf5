import { LecternError } from '@lectern/errors';
import { userIdOf } from '../domain/actor.ts';
import type { ModelRecord } from '../domain/model-record.ts';
import type { User } from '../domain/project.ts';
import type { CoreDeps } from '../deps.ts';
import { resolveModelReference } from '../model/collections/model-fields.ts';
import { isRoleId, listRolesOf, roleId } from '../model/settings/roles.ts';
import {
  assertMayChange,
  assertModelAccess,
  at,
  isRecord,
  Problems,
  readReference,
  type ModelInput,
} from '../model/shared/index.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { auditObject } from '../audit/audit-entry.ts';

/*
 * Users of an environment (reference §2.12 "Invite a user", "Change a user's role"): one
 * `project_user` document per user, its id the user's, holding the collection groups (roles per
 * collections and languages) and whether the user is active. Inviting creates the user (by
 * e-mail) when new. The owners of management keys are the environment's project managers and
 * need no document.
 */

export interface CollectionGroup {
  collections: { id: string }[];
  roles: { id: string; languages: { id: string }[] }[];
}

export interface ProjectUserBody {
  email: string;
  collection_groups: CollectionGroup[];
  is_active: boolean;
  invited_at: string;
}

export type ProjectUserRecord = ModelRecord<ProjectUserBody>;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function projectUserJson(r: ProjectUserRecord) {
  return { user_id: r.id, collection_groups: r.body.collection_groups };
}

async function readGroups(
  tx: UnitOfWork,
  projectId: string,
  raw: unknown,
  problems: Problems,
): Promise<CollectionGroup[]> {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add('collection_groups', 'Provide at least one collection group {collections, roles}.');
    return [];
  }
  const groups: CollectionGroup[] = [];
  for (const [i, g] of raw.entries()) {
    const path = at('collection_groups', i);
    const group = isRecord(g) ? g : {};
    const collections: { id: string }[] = [];
    const rawCollections = group['collections'];
    if (!Array.isArray(rawCollections))
      problems.add(at(path, 'collections'), 'must be an array ([] for all collections)');
    else
      for (const [j, c] of rawCollections.entries()) {
        const id = await resolveModelReference(tx, {
          projectId,
          kind: 'collection',
          noun: 'collection',
          value: c,
          path: at(at(path, 'collections'), j),
          problems,
        });
        if (id !== null) collections.push({ id });
      }
    const roles: CollectionGroup['roles'] = [];
    const rawRoles = group['roles'];
    if (!Array.isArray(rawRoles) || rawRoles.length === 0)
      problems.add(at(path, 'roles'), 'Provide at least one role.');
    else
      for (const [j, r] of rawRoles.entries()) {
        const rolePath = at(at(path, 'roles'), j);
        const ref = readReference(r, rolePath, problems);
        const id = ref && 'id' in ref ? ref.id : ref && 'codename' in ref ? roleId(projectId, ref.codename) : null;
        if (ref && (id === null || !isRoleId(projectId, id))) problems.add(rolePath, 'The role was not found.');
        const languages: { id: string }[] = [];
        const rawLanguages = isRecord(r) ? r['languages'] : undefined;
        if (!Array.isArray(rawLanguages))
          problems.add(at(rolePath, 'languages'), 'must be an array ([] for all languages)');
        else
          for (const [k, l] of rawLanguages.entries()) {
            const lid = await resolveModelReference(tx, {
              projectId,
              kind: 'language',
              noun: 'language',
              value: l,
              path: at(at(rolePath, 'languages'), k),
              problems,
            });
            if (lid !== null) languages.push({ id: lid });
          }
        if (id !== null && isRoleId(projectId, id)) roles.push({ id, languages });
      }
    groups.push({ collections, roles });
  }
  return groups;
}

async function ensureUser(deps: CoreDeps, tx: UnitOfWork, email: string): Promise<User> {
  return (
    (await tx.users.findByEmail(email)) ??
    (await tx.users.insert({ id: deps.ids.uuid(), email, name: email, createdAt: deps.clock.now() }))
  );
}

/** POST /users: invites the user (created when new) with the collection groups; 400 when already in. */
export async function inviteUser(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<ProjectUserRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  return deps.store.transaction(async (tx) => {
    await tx.model.lockKind(input.projectId, 'project_user');
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    const email = body['email'];
    if (typeof email !== 'string' || !emailPattern.test(email))
      problems.add('email', 'Provide a valid e-mail address.');
    const groups = await readGroups(tx, input.projectId, body['collection_groups'], problems);
    problems.throwIfAny();
    const user = await ensureUser(deps, tx, (email as string).toLowerCase());
    if (await tx.model.find(input.projectId, 'project_user', { id: user.id }))
      throw new LecternError('INVALID_REQUEST_BODY', {
        message: `This project already contains active or invited user with email ${user.email}.`,
      });
    const now = deps.clock.now();
    const record: ProjectUserRecord = {
      projectId: input.projectId,
      kind: 'project_user',
      id: user.id,
      codename: `user_${user.id.replaceAll('-', '')}`,
      externalId: null,
      body: { email: user.email, collection_groups: groups, is_active: true, invited_at: now.toISOString() },
      lastModified: now,
    };
    await tx.model.insert(record);
    tx.audit.note({
      projectId: input.projectId,
      action: 'user.invite',
      object: auditObject('user', { id: user.id, codename: user.email }),
      summary: { roles: groups.flatMap((g) => g.roles.map((r) => r.id)) },
    });
    return record;
  });
}

/** PUT /users/{id | email/…}/roles: replaces the collection groups (117 for the caller's own user). */
export async function changeUserRoles(
  deps: CoreDeps,
  input: ModelInput & { user: { id: string } | { email: string }; body: unknown },
): Promise<ProjectUserRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  return deps.store.transaction(async (tx) => {
    const user = 'id' in input.user ? await tx.users.get(input.user.id) : await tx.users.findByEmail(input.user.email);
    const current = user
      ? await tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id: user.id }, { isForUpdate: true })
      : null;
    if (!user || !current) throw new LecternError('USER_NOT_FOUND');
    if (userIdOf(input.actor) === user.id) throw new LecternError('OWN_ROLE_NOT_CHANGEABLE');
    const problems = new Problems();
    const groups = await readGroups(
      tx,
      input.projectId,
      isRecord(input.body) ? input.body['collection_groups'] : undefined,
      problems,
    );
    problems.throwIfAny();
    const next: ProjectUserRecord = {
      ...current,
      body: { ...current.body, collection_groups: groups },
      lastModified: deps.clock.now(),
    };
    await tx.model.update(next);
    tx.audit.note({
      projectId: input.projectId,
      action: 'user.roles_change',
      object: auditObject('user', { id: user.id, codename: user.email }),
      summary: {
        roles: {
          from: current.body.collection_groups.flatMap((g) => g.roles.map((r) => r.id)),
          to: groups.flatMap((g) => g.roles.map((r) => r.id)),
        },
      },
    });
    return next;
  });
}

/** A person of an environment as the operator sees them (`lectern users list`). */
export interface ProjectUserSummary {
  readonly user_id: string;
  readonly email: string;
  /** Role names; key owners never invited are project managers. */
  readonly roles: string[];
  readonly is_active: boolean;
  /** `invited` (a user document) or `key_owner` (owns a management key, never invited). */
  readonly source: 'invited' | 'key_owner';
}

/** A person of the environment as the editor lists them (`GET /app/api/projects/{id}/users`). */
export function appUserJson(u: ProjectUserSummary) {
  return { id: u.user_id, email: u.email };
}

export type AppUserJson = ReturnType<typeof appUserJson>;

/**
 * The environment's users: those invited (with their roles' names) and the owners of its
 * management keys who were never invited (project managers), by e-mail.
 */
export async function listProjectUsers(deps: CoreDeps, input: ModelInput): Promise<ProjectUserSummary[]> {
  assertModelAccess(input.actor, input.projectId);
  const names = new Map(listRolesOf(input.projectId).map((r) => [r.id, r.name]));
  return deps.store.transaction(async (tx) => {
    if (!(await tx.projects.get(input.projectId))) throw new LecternError('PROJECT_NOT_FOUND');
    const out: ProjectUserSummary[] = [];
    for (const doc of await tx.model.list<ProjectUserBody>(input.projectId, 'project_user')) {
      const roles = new Set(doc.body.collection_groups.flatMap((g) => g.roles.map((r) => names.get(r.id) ?? r.id)));
      out.push({
        user_id: doc.id,
        email: doc.body.email,
        roles: [...roles],
        is_active: doc.body.is_active,
        source: 'invited',
      });
    }
    const seen = new Set(out.map((u) => u.user_id));
    for (const key of await tx.apiKeys.listByProject(input.projectId)) {
      if (key.kind !== 'management' || key.ownerUserId === null || seen.has(key.ownerUserId)) continue;
      if (key.revokedAt !== null) continue;
      seen.add(key.ownerUserId);
      const user = await tx.users.get(key.ownerUserId);
      if (user)
        out.push({
          user_id: user.id,
          email: user.email,
          roles: ['Project manager'],
          is_active: true,
          source: 'key_owner',
        });
    }
    return out.sort((a, b) => a.email.localeCompare(b.email));
  });
}

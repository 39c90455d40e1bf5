import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import type { CoreDeps } from '../deps.ts';
import { roleId } from '../model/settings/roles.ts';
import type { ProjectUserBody } from './project-users.ts';

/*
 * What a management key may change, from the roles of the user it acts as (reference §2.12).
 * A user invited to the environment (a `project_user` document) has the permissions of their
 * roles in any collection group; an inactive one has none. The owner of a management key who was
 * never invited is the environment's project manager. Reading is always allowed.
 */

export type Permission = 'manage_content' | 'manage_model' | 'manage_environment';

const byRole: Record<string, readonly Permission[]> = {
  'project-manager': ['manage_content', 'manage_model', 'manage_environment'],
  developer: ['manage_content', 'manage_model'],
  'content-creator': ['manage_content'],
  reviewer: [],
};

export async function permissionsOf(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string },
): Promise<Set<Permission>> {
  const all = new Set<Permission>(byRole['project-manager']);
  const actor = input.actor;
  if (actor.type !== 'api_key' || actor.userId === null) return all;
  const doc = await deps.store.transaction((tx) =>
    tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id: actor.userId as string }),
  );
  if (!doc) return all;
  const out = new Set<Permission>();
  if (!doc.body.is_active) return out;
  for (const group of doc.body.collection_groups)
    for (const role of group.roles)
      for (const [key, permissions] of Object.entries(byRole))
        if (roleId(input.projectId, key) === role.id) for (const p of permissions) out.add(p);
  return out;
}

/** 403 (error_code 16) unless the actor's user holds the permission. */
export async function assertPermission(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; permission: Permission },
): Promise<void> {
  if (!(await permissionsOf(deps, input)).has(input.permission))
    throw new LecternError('PERMISSION_DENIED', {
      message: `You do not have sufficient permissions to perform requested action (${input.permission.replace('_', ' ')}).`,
    });
}

import type { Permission } from '../domain/actor.ts';
import { roleId } from '../model/settings/roles.ts';
import type { UnitOfWork } from '../ports/store.ts';
import type { ProjectUserBody } from './project-users.ts';

/*
 * What a management key may change, from the roles of the user it acts as (reference §2.12).
 * A user invited to the environment (a `project_user` document) has the permissions of their
 * roles in any collection group; an inactive one has none. The owner of a management key who was
 * never invited is the environment's project manager. Reading is always allowed. The permissions
 * travel with the actor (`authenticate` resolves them); the operations check them
 * (`assertMayChange`).
 */

const byRole: Record<string, readonly Permission[]> = {
  'project-manager': ['manage_content', 'manage_model', 'manage_environment'],
  developer: ['manage_content', 'manage_model'],
  'content-creator': ['manage_content'],
  reviewer: [],
};

/**
 * The role ids of `userId` in the project, from its `project_user` document: null when the user was
 * never invited, none when inactive.
 */
export async function roleIdsOfUser(
  tx: UnitOfWork,
  input: { projectId: string; userId: string },
): Promise<ReadonlySet<string> | null> {
  const doc = await tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id: input.userId });
  return roleIdsOf(doc?.body ?? null);
}

/** The role ids a `project_user` document gives: null for no document, none when inactive. */
function roleIdsOf(doc: ProjectUserBody | null): ReadonlySet<string> | null {
  if (!doc) return null;
  if (!doc.is_active) return new Set();
  return new Set(doc.collection_groups.flatMap((g) => g.roles.map((r) => r.id)));
}

/**
 * `permissionsOfUser` from the user's `project_user` document already read (null: never invited),
 * for `authenticate`, which reads it with the key.
 */
export function permissionsOfUserDocument(
  projectId: string,
  userId: string | null,
  doc: ProjectUserBody | null,
): Permission[] {
  return permissionsOfRoles(projectId, userId === null ? null : roleIdsOf(doc));
}

function permissionsOfRoles(projectId: string, roles: ReadonlySet<string> | null): Permission[] {
  if (roles === null) return [...(byRole['project-manager'] ?? [])];
  const out = new Set<Permission>();
  for (const [key, permissions] of Object.entries(byRole))
    if (roles.has(roleId(projectId, key))) for (const p of permissions) out.add(p);
  return [...out];
}

/** The permissions of `userId` in the project (all for no user: an operator-issued key without owner). */
export async function permissionsOfUser(
  tx: UnitOfWork,
  input: { projectId: string; userId: string | null },
): Promise<Permission[]> {
  if (input.userId === null) return permissionsOfRoles(input.projectId, null);
  return permissionsOfRoles(
    input.projectId,
    await roleIdsOfUser(tx, { projectId: input.projectId, userId: input.userId }),
  );
}

/** The permissions of a built-in role by its key (`content-creator`), for people (the CLI). */
export function permissionsOfRole(codename: string): readonly Permission[] {
  return byRole[codename] ?? [];
}

/** A person's standing in a project: their role names and permissions; null when not an active invited user. */
export async function membershipOfPerson(
  tx: UnitOfWork,
  input: { projectId: string; userId: string },
): Promise<{ roleIds: string[]; permissions: Permission[] } | null> {
  // Unlike a key's owner, a person reaches only projects they were invited to, while active.
  const doc = await tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id: input.userId });
  if (!doc || !doc.body.is_active) return null;
  const roleIds = new Set<string>();
  const out = new Set<Permission>();
  for (const group of doc.body.collection_groups)
    for (const role of group.roles) {
      roleIds.add(role.id);
      for (const [key, permissions] of Object.entries(byRole))
        if (roleId(input.projectId, key) === role.id) for (const p of permissions) out.add(p);
    }
  return { roleIds: [...roleIds], permissions: [...out] };
}

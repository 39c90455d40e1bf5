import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import { assertModelAccess, idFromExternalId, type ModelInput } from '../shared/index.ts';

/*
 * Roles (reference §2.12 "List roles", "Retrieve a role"). Every Lectern environment has the same
 * built-in roles, with ids derived from the environment id (stable, distinct per environment,
 * no storage). Only the Project manager role has a codename (`project-manager`), as at Kontent.ai;
 * a management key acts as a project manager. Roles cannot be created or changed over the API.
 */

export interface RoleJson {
  id: string;
  name: string;
  codename?: string;
}

const builtIn: readonly { key: string; name: string; codename?: string }[] = [
  { key: 'project-manager', name: 'Project manager', codename: 'project-manager' },
  { key: 'developer', name: 'Developer' },
  { key: 'content-creator', name: 'Content creator' },
  { key: 'reviewer', name: 'Reviewer' },
];

/** The id of a built-in role in an environment (`project-manager`, `developer`, …). */
export function roleId(projectId: string, key: string): string {
  return idFromExternalId({ projectId, kind: 'role', externalId: key });
}

/** The roles of an environment. */
export function listRolesOf(projectId: string): RoleJson[] {
  return builtIn.map((r) => ({
    id: roleId(projectId, r.key),
    name: r.name,
    ...(r.codename === undefined ? {} : { codename: r.codename }),
  }));
}

export async function listRoles(_deps: CoreDeps, input: ModelInput): Promise<RoleJson[]> {
  assertModelAccess(input.actor, input.projectId);
  return listRolesOf(input.projectId);
}

/** One role by id or codename (only the Project manager has one); 404 with error_code 116 otherwise. */
export async function getRole(_deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<RoleJson> {
  assertModelAccess(input.actor, input.projectId);
  const key = input.key;
  const found = listRolesOf(input.projectId).find((r) =>
    'id' in key ? r.id === key.id : 'codename' in key ? r.codename === key.codename : false,
  );
  if (!found) throw new LecternError('ROLE_NOT_FOUND');
  return found;
}

/** Whether `id` is the id of a role of the environment. */
export function isRoleId(projectId: string, id: string): boolean {
  return listRolesOf(projectId).some((r) => r.id === id);
}

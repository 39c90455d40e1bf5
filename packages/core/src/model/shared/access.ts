import { LecternError } from '@lectern/errors';
import type { Actor, Permission } from '../../domain/actor.ts';
import type { CoreDeps } from '../../deps.ts';
import type { ModelKind } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';

/**
 * Content model operations run for the operator, a management key of the same project or a
 * person signed in to that project; everyone else is refused.
 */
export function assertModelAccess(actor: Actor, projectId: string): void {
  if (actor.type === 'operator') return;
  if (actor.type === 'api_key' && actor.keyKind === 'management' && actor.projectId === projectId) return;
  if (actor.type === 'person' && actor.projectId === projectId) return;
  throw new LecternError('PROJECT_ACCESS_DENIED');
}

const permissionWords: Record<Permission, string> = {
  manage_content: 'manage content',
  manage_model: 'manage content model',
  manage_environment: 'manage environment settings',
};

/**
 * The one rule for every change: `assertModelAccess`, then 403 (PERMISSION_DENIED, error_code
 * 16) unless the actor may `permission` — a management key by its user's roles, a person by
 * their own (both carried by the actor); the operator may everything. Operations that change content, the content model or
 * environment settings call this before they read or change anything, so every entry point
 * (Management v1/v2, the admin API, the console) is held to it.
 */
export function assertMayChange(actor: Actor, projectId: string, permission: Permission): void {
  assertModelAccess(actor, projectId);
  if ((actor.type === 'api_key' || actor.type === 'person') && !actor.permissions.includes(permission))
    throw new LecternError('PERMISSION_DENIED', {
      message: `You do not have sufficient permissions to perform requested action (${permissionWords[permission]}).`,
    });
}

/** The permission a write of each kind of model document needs. */
export const permissionOfKind: Readonly<Record<ModelKind, Permission>> = {
  language: 'manage_model',
  content_type: 'manage_model',
  snippet: 'manage_model',
  taxonomy: 'manage_model',
  collection: 'manage_model',
  workflow: 'manage_model',
  space: 'manage_model',
  custom_app: 'manage_environment',
  setting: 'manage_environment',
  project_user: 'manage_environment',
  // Starting a validation only reads the content; the task document is its answer.
  validation_task: 'manage_content',
  rendition: 'manage_content',
};

/** What every content model operation receives. */
export interface ModelInput {
  readonly actor: Actor;
  readonly projectId: string;
}

/**
 * Runs a write of one kind of model document for `input.actor`: the access and permission check
 * (`permissionOfKind`), then one
 * transaction that first takes the kind's lock, so writers of that kind serialize (codename and
 * reference checks see every committed sibling).
 */
export async function writeModel<T>(
  deps: CoreDeps,
  input: ModelInput,
  kind: ModelKind,
  work: (tx: UnitOfWork) => Promise<T>,
): Promise<T> {
  assertMayChange(input.actor, input.projectId, permissionOfKind[kind]);
  return deps.store.transaction(async (tx) => {
    await tx.model.lockKind(input.projectId, kind);
    return work(tx);
  });
}

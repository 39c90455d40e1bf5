import { LecternError } from '@lectern/errors';
import type { Actor } from '../../domain/actor.ts';
import type { CoreDeps } from '../../deps.ts';
import type { ModelKind } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';

/**
 * Content model operations run for the operator or for a management key of the same project;
 * everyone else is refused.
 */
export function assertModelAccess(actor: Actor, projectId: string): void {
  if (actor.type === 'operator') return;
  if (actor.type === 'api_key' && actor.keyKind === 'management' && actor.projectId === projectId) return;
  throw new LecternError('PROJECT_ACCESS_DENIED');
}

/** What every content model operation receives. */
export interface ModelInput {
  readonly actor: Actor;
  readonly projectId: string;
}

/**
 * Runs a write of one kind of model document for `input.actor`: the access check, then one
 * transaction that first takes the kind's lock, so writers of that kind serialize (codename and
 * reference checks see every committed sibling).
 */
export async function writeModel<T>(
  deps: CoreDeps,
  input: ModelInput,
  kind: ModelKind,
  work: (tx: UnitOfWork) => Promise<T>,
): Promise<T> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    await tx.model.lockKind(input.projectId, kind);
    return work(tx);
  });
}

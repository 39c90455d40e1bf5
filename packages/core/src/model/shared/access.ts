import { LecternError } from '@lectern/errors';
import type { Actor } from '../../domain/actor.ts';

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

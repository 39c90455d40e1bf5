import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';

/** Operator-only operations (projects, keys) refuse every other actor. */
export function requireOperator(actor: Actor): void {
  if (actor.type !== 'operator')
    throw new LecternError('PROJECT_ACCESS_DENIED', { message: 'Only the operator may do this.' });
}

import { LecternError } from '@lectern/errors';

/** INVALID_QUERY with one problem: a Delivery query (or the language it names) the API refuses. */
export function invalidQuery(message: string): LecternError {
  return new LecternError('INVALID_QUERY', { problems: [{ message }] });
}

import { ApiError } from '../api/client.ts';

/** An error in the API's own words: its message, then each validation error (with its path). */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const details = (error.body.validation_errors ?? []).map((v) => (v.path ? `${v.path}: ${v.message}` : v.message));
  return [error.body.message, ...details].join(' ');
}

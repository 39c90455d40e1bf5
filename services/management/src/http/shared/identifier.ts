import { isUuid, type RecordKey } from '@lectern/core';
import { LecternError, type ErrorCode } from '@lectern/errors';

/**
 * The three path forms of a resource identifier (reference §1.2): `<base>/<id>`,
 * `<base>/codename/<codename>` and `<base>/external-id/<external id>`. Register a route on all
 * three with `router.route(identifierPaths('/types'))`, then read it with `recordKeyFrom`.
 */
export function identifierPaths(base: string): string[] {
  return [`${base}/codename/:codename`, `${base}/external-id/:externalId`, `${base}/:id`];
}

/** The record key named by the path; a malformed id is `notFound` (no such object can exist). */
export function recordKeyFrom(params: Record<string, unknown>, notFound: ErrorCode): RecordKey {
  if (typeof params['codename'] === 'string') return { codename: params['codename'] };
  if (typeof params['externalId'] === 'string') return { externalId: params['externalId'] };
  const id = typeof params['id'] === 'string' ? params['id'] : '';
  if (!isUuid(id))
    throw new LecternError(notFound, {
      message: `'${id}' is not an id. Use an id, codename/<codename> or external-id/<external id>.`,
    });
  return { id: id.toLowerCase() };
}

import type { NextFunction, Request, Response } from 'express';
import { findUnstorableStrings } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { checkUrl } from '@lectern/http-kit';

/**
 * Refuses a URL no route could read before the router decodes it: a path segment that is not
 * valid percent-encoding (400 MALFORMED_URL), a `%00` in a path segment (400 INVALID_IDENTIFIER)
 * or in the query string (400 INVALID_QUERY).
 */
export function urlGuard(req: Request, _res: Response, next: NextFunction): void {
  next(checkUrl(req.originalUrl) ?? undefined);
}

/**
 * Refuses a JSON body holding a string no store can keep, whatever the field: U+0000 or a lone
 * UTF-16 surrogate, in a value or a property name (400 INVALID_REQUEST_BODY, each one listed with
 * its path). Checked before any handler, so such a request stores nothing on any engine.
 */
export function bodyGuard(req: Request, _res: Response, next: NextFunction): void {
  const found = req.body === undefined ? [] : findUnstorableStrings(req.body);
  if (found.length === 0) return next();
  next(
    new LecternError('INVALID_REQUEST_BODY', {
      problems: found.map((f) => (f.path === undefined ? { message: f.message } : f)),
    }),
  );
}

import type { NextFunction, Request, Response } from 'express';
import { findUnstorableStrings } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { checkRequest } from '@lectern/http-kit';

/**
 * Refuses a request no route could read before the router decodes it: URL and headers over
 * 16 KiB (431), a path segment that is not valid percent-encoding (400 MALFORMED_URL), a `%00` in
 * a path segment (400 INVALID_IDENTIFIER) or in the query string (400 INVALID_QUERY).
 */
export function urlGuard(req: Request, _res: Response, next: NextFunction): void {
  next(checkRequest({ method: req.method, url: req.originalUrl, rawHeaders: req.rawHeaders }) ?? undefined);
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

/**
 * A body whose Content-Length is over `limitBytes`: 413 at once, before body-parser, which would
 * first wait for the whole body (forever, from a client that claimed more than it sends). The
 * connection closes after the answer, since the body stays unread.
 */
export function bodySizeGuard(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = Number(req.headers['content-length']);
    if (!Number.isFinite(length) || length <= limitBytes) return next();
    res.set('connection', 'close');
    next(
      new LecternError('PAYLOAD_TOO_LARGE', {
        message: `The request body is ${length} bytes; this server accepts at most ${limitBytes}.`,
      }),
    );
  };
}

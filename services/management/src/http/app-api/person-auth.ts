import type { NextFunction, Request, Response } from 'express';
import { authenticatePerson, type CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { locals } from '../context.ts';
import { readCookie, sameSecret } from '../web-session/cookies.ts';

/** The editor's session cookie (Path=/app, HttpOnly, SameSite=Strict, Secure over HTTPS). */
export const appSessionCookie = 'lectern_app';
/** The header every change carries: the session's CSRF token (from POST or GET /app/api/session). */
export const csrfHeader = 'x-csrf-token';

export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * The check of every project route of the editor's API (`/app/api/v2/projects/:projectId/…`, the
 * Management API v2 routes, and `/app/api/projects/:projectId/…`, the app's own): a live session
 * (401 SESSION_REQUIRED otherwise), the session's CSRF token in `x-csrf-token` on every request
 * that is not GET or HEAD (403 CSRF_TOKEN_INVALID otherwise, before anything is read or changed),
 * and an active invited user of the project (403 PROJECT_ACCESS_DENIED otherwise). Sets
 * `res.locals.actor` to the person, whose permissions come from their roles at this moment.
 */
export function requirePersonSession(core: CoreDeps) {
  return async (req: Request<{ projectId: string }>, res: Response, next: NextFunction): Promise<void> => {
    const { actor, session } = await authenticatePerson(core, {
      token: readCookie(req, appSessionCookie),
      projectId: req.params.projectId.toLowerCase(),
    });
    if (!isSafeMethod(req.method)) {
      const presented = req.get(csrfHeader);
      if (presented === undefined || !sameSecret(presented, session.csrfToken))
        throw new LecternError('CSRF_TOKEN_INVALID');
    }
    locals(res).actor = actor;
    next();
  };
}

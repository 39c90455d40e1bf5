import { timingSafeEqual, createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { authenticate, operator, type CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { locals } from './context.ts';

/**
 * Management key check for every route under `/v{1,2}/projects/:projectId` (SPEC 5): sets
 * `res.locals.actor` or fails with the catalogue error the request deserves.
 */
export function requireManagementKey(core: CoreDeps) {
  return async (req: Request<{ projectId: string }>, res: Response, next: NextFunction): Promise<void> => {
    locals(res).actor = await authenticate(core, {
      api: 'management',
      projectId: req.params.projectId.toLowerCase(),
      authorization: req.headers.authorization,
    });
    next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The admin API takes the operator token (constant-time comparison of digests). */
export function requireOperatorToken(token: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const presented = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token === null || !presented || !timingSafeEqual(digest(presented), digest(token))) {
      throw new LecternError('OPERATOR_TOKEN_INVALID');
    }
    locals(res).actor = operator;
    next();
  };
}

import type { NextFunction, Request, Response } from 'express';
import { runAudited, type AuditInterface } from '@lectern/core';
import { locals } from '../context.ts';

/** The interface a request came through, by its path (the mounts of `buildManagementApp`). */
export function interfaceOf(path: string): AuditInterface {
  if (path.startsWith('/v1/')) return 'management_api_v1';
  if (path.startsWith('/v2/')) return 'management_api_v2';
  if (path.startsWith('/app/')) return 'editor';
  if (path.startsWith('/console')) return 'console';
  if (path.startsWith('/admin')) return 'admin_api';
  if (/^\/(?:[^/]+\/)?mcp(?:\/|$)/.test(path)) return 'mcp';
  return 'system';
}

/**
 * Opens the audit scope of the request (issue 31): every change the request makes is recorded
 * with its interface, its request id and the actor its authentication sets later in
 * `res.locals.actor`. Mounted after the body parsers, so the route handlers run inside it.
 */
export function auditScope() {
  return (req: Request, res: Response, next: NextFunction): void => {
    runAudited(
      { via: interfaceOf(req.path), requestId: locals(res).requestId, actor: () => locals(res).actor ?? null },
      next,
    );
  };
}

import type { NextFunction, Request, Response } from 'express';
import { assertPermission, type CoreDeps, type Permission } from '@lectern/core';
import { locals } from './context.ts';

const model = /^\/(types|snippets|taxonomies|collections|workflows?|languages|spaces)(\/|$)/;
const environment =
  /^\/(preview-configuration|live-preview-configuration|web-spotlight|custom-apps|users|clone-environment|mark-environment-as-production)(\/|$)/;
/** POST routes that only read. */
const reads = /^\/(items-with-variant\/(filter|bulk-get)|validate|validate-async)\/?$/;

/** The permission a write under `/v2/projects/{id}` needs (by path), or null for reads. */
export function permissionFor(method: string, path: string): Permission | null {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (method === 'POST' && reads.test(path)) return null;
  if (path === '/' || path === '') return 'manage_environment';
  if (model.test(path)) return 'manage_model';
  if (environment.test(path)) return 'manage_environment';
  return 'manage_content';
}

/**
 * Refuses a write the key's user may not do (403, error_code 16): content (items, variants,
 * assets, files, folders), content model, or environment settings, by the user's roles.
 */
export function requirePermission(core: CoreDeps) {
  return async (req: Request<{ projectId: string }>, res: Response, next: NextFunction): Promise<void> => {
    const permission = permissionFor(req.method, req.path);
    const actor = locals(res).actor;
    if (permission !== null && actor)
      await assertPermission(core, { actor, projectId: req.params.projectId.toLowerCase(), permission });
    next();
  };
}

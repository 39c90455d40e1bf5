import type { Request, Response } from 'express';
import type { ModelInput } from '@lectern/core';
import { locals } from '../context.ts';

/** Actor and project of a request under `/v2/projects/:projectId` (set by the key check). */
export function modelInput(req: Request, res: Response): ModelInput {
  const actor = locals(res).actor;
  if (!actor) throw new Error('model route reached without authentication');
  return { actor, projectId: String((req.params as { projectId?: string }).projectId).toLowerCase() };
}

import { Router } from 'express';
import type { ManagementServices } from '../services.ts';

/** `/folders` of the Management API v2. Not built yet: unknown paths fall through to 404. */
export function foldersRouter(_services: ManagementServices): Router {
  return Router({ mergeParams: true });
}

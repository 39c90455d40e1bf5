import { Router } from 'express';
import type { ManagementServices } from '../services.ts';

/** Management API v1 `/items` (SPEC 9). Not built yet: unknown paths fall through to 404. */
export function v1ItemsRouter(_services: ManagementServices): Router {
  return Router({ mergeParams: true });
}

import { Router } from 'express';
import type { ManagementServices } from '../services.ts';

/** Management API v1 `/assets` (SPEC 9). Not built yet: unknown paths fall through to 404. */
export function v1AssetsRouter(_services: ManagementServices): Router {
  return Router({ mergeParams: true });
}

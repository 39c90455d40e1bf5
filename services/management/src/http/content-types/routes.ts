import { Router } from 'express';
import type { CoreDeps } from '@lectern/core';

/** `/content-types` of the Management API v2. Not built yet: unknown paths fall through to 404. */
export function contentTypesRouter(_core: CoreDeps): Router {
  return Router({ mergeParams: true });
}

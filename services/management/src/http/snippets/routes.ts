import { Router } from 'express';
import type { CoreDeps } from '@lectern/core';

/** `/snippets` of the Management API v2. Not built yet: unknown paths fall through to 404. */
export function snippetsRouter(_core: CoreDeps): Router {
  return Router({ mergeParams: true });
}

import { Router } from 'express';
import { contentTypeChangeImpact, snippetChangeImpact, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * `POST /app/api/projects/{projectId}/types/{key}/impact` and `…/snippets/{key}/impact` (a Lectern
 * extension for the editor's model screens, issue 32): the body is the JSON Patch the editor is
 * about to send to `PATCH …/types/{key}` (or `…/snippets/{key}`); the answer says which items and
 * variants the change would break (docs/editor-api.md). Nothing is saved. Refused as the PATCH is
 * (the same 400s for malformed operations, 403 without "manage content model").
 */
export function appModelImpactRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route(identifierPaths('/types').map((p) => `${p}/impact`))
    .post(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CONTENT_TYPE_NOT_FOUND');
      res.json(await contentTypeChangeImpact(core, { ...modelInput(req, res), key, operations: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/snippets').map((p) => `${p}/impact`))
    .post(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SNIPPET_NOT_FOUND');
      res.json(await snippetChangeImpact(core, { ...modelInput(req, res), key, operations: req.body }));
    })
    .all(methodNotAllowed);
  return router;
}

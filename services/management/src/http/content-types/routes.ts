import { Router } from 'express';
import {
  addContentType,
  contentTypeJson,
  deleteContentType,
  getContentType,
  listContentTypes,
  modifyContentType,
  paginate,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `/types` of the Management API v2 (reference §2.5): list (paged), get, add, modify, delete. */
export function contentTypesRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/types')
    .get(async (req, res) => {
      const page = paginate(await listContentTypes(core, modelInput(req, res)), { continuation: continuationOf(req) });
      res.json({ types: page.items.map(contentTypeJson), pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(contentTypeJson(await addContentType(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/types'))
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CONTENT_TYPE_NOT_FOUND');
      res.json(contentTypeJson(await getContentType(core, { ...modelInput(req, res), key })));
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CONTENT_TYPE_NOT_FOUND');
      res.json(contentTypeJson(await modifyContentType(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .delete(async (req, res) => {
      const key = recordKeyFrom(req.params, 'CONTENT_TYPE_NOT_FOUND');
      await deleteContentType(core, { ...modelInput(req, res), key });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

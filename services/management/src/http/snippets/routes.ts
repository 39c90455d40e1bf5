import { Router } from 'express';
import {
  addSnippet,
  deleteSnippet,
  getSnippet,
  listSnippets,
  modifySnippet,
  paginate,
  snippetJson,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `/snippets` of the Management API v2 (reference §2.5): list (paged), get, add, modify, delete. */
export function snippetsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/snippets')
    .get(async (req, res) => {
      const page = paginate(await listSnippets(core, modelInput(req, res)), { continuation: continuationOf(req) });
      res.json({ snippets: page.items.map(snippetJson), pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(snippetJson(await addSnippet(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/snippets'))
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SNIPPET_NOT_FOUND');
      res.json(snippetJson(await getSnippet(core, { ...modelInput(req, res), key })));
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SNIPPET_NOT_FOUND');
      res.json(snippetJson(await modifySnippet(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .delete(async (req, res) => {
      const key = recordKeyFrom(req.params, 'SNIPPET_NOT_FOUND');
      await deleteSnippet(core, { ...modelInput(req, res), key });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

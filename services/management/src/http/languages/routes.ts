import { Router } from 'express';
import {
  addLanguage,
  getLanguage,
  languageJson,
  listLanguages,
  modifyLanguage,
  paginate,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `/languages` (reference §2.7): list (paged), get, add, modify. Languages are never deleted, only deactivated. */
export function languagesRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/languages')
    .get(async (req, res) => {
      const page = paginate(await listLanguages(core, modelInput(req, res)), { continuation: continuationOf(req) });
      res.json({ languages: page.items.map(languageJson), pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(languageJson(await addLanguage(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/languages'))
    .get(async (req, res) => {
      res.json(
        languageJson(
          await getLanguage(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'LANGUAGE_NOT_FOUND') }),
        ),
      );
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'LANGUAGE_NOT_FOUND');
      res.json(languageJson(await modifyLanguage(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .all(methodNotAllowed);
  return router;
}

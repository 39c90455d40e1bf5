import { Router } from 'express';
import {
  addTaxonomy,
  deleteTaxonomy,
  getTaxonomy,
  listTaxonomies,
  modifyTaxonomy,
  paginate,
  taxonomyJson,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `/taxonomies` (reference §2.6): list (paged), get, add, modify (§6.2 dialect), delete. */
export function taxonomiesRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/taxonomies')
    .get(async (req, res) => {
      const page = paginate(await listTaxonomies(core, modelInput(req, res)), { continuation: continuationOf(req) });
      res.json({ taxonomies: page.items.map(taxonomyJson), pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(taxonomyJson(await addTaxonomy(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(identifierPaths('/taxonomies'))
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'TAXONOMY_NOT_FOUND');
      res.json(taxonomyJson(await getTaxonomy(core, { ...modelInput(req, res), key })));
    })
    .patch(async (req, res) => {
      const key = recordKeyFrom(req.params, 'TAXONOMY_NOT_FOUND');
      res.json(taxonomyJson(await modifyTaxonomy(core, { ...modelInput(req, res), key, operations: req.body })));
    })
    .delete(async (req, res) => {
      await deleteTaxonomy(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'TAXONOMY_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

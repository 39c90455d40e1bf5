import { Router } from 'express';
import { bulkGetItemsWithVariant, filterItemsWithVariant, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/** `POST /items-with-variant/filter` and `/bulk-get` (reference §2.3): 50 a page, `x-continuation`. */
export function itemsWithVariantRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/items-with-variant/filter')
    .post(async (req, res) => {
      const page = await filterItemsWithVariant(core, {
        ...modelInput(req, res),
        body: req.body,
        continuation: continuationOf(req),
      });
      res.json({ variants: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  router
    .route('/items-with-variant/bulk-get')
    .post(async (req, res) => {
      const page = await bulkGetItemsWithVariant(core, {
        ...modelInput(req, res),
        body: req.body,
        continuation: continuationOf(req),
      });
      res.json({ data: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  return router;
}

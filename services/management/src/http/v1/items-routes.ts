import { Router, type Request } from 'express';
import { addItem, deleteItem, getItem, listItems, listVariantsOfItem, upsertItem } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { routeVariant } from '../variants/variant-routes.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf } from '../shared/paging.ts';
import type { ManagementServices } from '../services.ts';
import { itemKeyOf, itemPaths, itemVariantsPaths } from '../variants/paths.ts';
import { publicPathOf } from '../public-origin.ts';

/** v1 paging: the `continuationToken` query; `next_page` is the full URL with it (reference §7.1). */
function v1Pagination(req: Request, token: string | null) {
  if (token === null) return { continuation_token: null, next_page: null };
  const base = publicPathOf(req);
  return { continuation_token: token, next_page: `${base}?continuationToken=${encodeURIComponent(token)}` };
}

/**
 * Management API v1 items and variants (SPEC 9, reference §7.1): items without collection and
 * spaces, codenames regenerated on rename; variants `{elements, item, language, last_modified}`
 * with elements keyed by codename. v2-only input is refused with 400.
 */
export function v1ItemsRouter({ core }: ManagementServices): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/items')
    .get(async (req, res) => {
      const page = await listItems(core, {
        ...modelInput(req, res),
        version: 'v1',
        continuation: continuationOf(req, { isQueryFirst: true }),
      });
      res.json({ items: page.items, pagination: v1Pagination(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(await addItem(core, { ...modelInput(req, res), version: 'v1', body: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route(itemPaths)
    .get(async (req, res) => {
      res.json(await getItem(core, { ...modelInput(req, res), version: 'v1', key: itemKeyOf(req) }));
    })
    .put(async (req, res) => {
      const input = { ...modelInput(req, res), version: 'v1' as const, key: itemKeyOf(req), body: req.body };
      const result = await upsertItem(core, input);
      res.status(result.isCreated ? 201 : 200).json(result.item);
    })
    .delete(async (req, res) => {
      await deleteItem(core, { ...modelInput(req, res), key: itemKeyOf(req) });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  router
    .route(itemVariantsPaths)
    .get(async (req, res) => {
      res.json(await listVariantsOfItem(core, { ...modelInput(req, res), itemKey: itemKeyOf(req), version: 'v1' }));
    })
    .all(methodNotAllowed);
  routeVariant(router, core, 'v1');
  return router;
}

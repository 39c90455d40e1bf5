import { Router, type Request, type Response } from 'express';
import {
  addItem,
  deleteItem,
  deleteVariant,
  getItem,
  getVariant,
  listItems,
  listVariantsOfItem,
  upsertItem,
  upsertVariant,
  type VariantInput,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import type { ManagementServices } from '../services.ts';
import { itemKeyOf, itemPaths, itemVariantsPaths, languageKeyOf, variantPaths } from '../variants/paths.ts';

function variantInput(req: Request, res: Response): VariantInput {
  return { ...modelInput(req, res), itemKey: itemKeyOf(req), languageKey: languageKeyOf(req), version: 'v1' };
}

/** v1 paging: the `continuationToken` query; `next_page` is the full URL with it (reference §7.1). */
function v1Pagination(req: Request, token: string | null) {
  if (token === null) return { continuation_token: null, next_page: null };
  const base = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}${req.path}`.replace(/\/$/, '');
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
      const token = req.query['continuationToken'] ?? req.header('x-continuation');
      const page = await listItems(core, {
        ...modelInput(req, res),
        version: 'v1',
        continuation: typeof token === 'string' && token !== '' ? token : undefined,
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
  router
    .route(variantPaths())
    .get(async (req, res) => {
      res.json(await getVariant(core, variantInput(req, res)));
    })
    .put(async (req, res) => {
      const result = await upsertVariant(core, { ...variantInput(req, res), body: req.body });
      res.status(result.isCreated ? 201 : 200).json(result.variant);
    })
    .delete(async (req, res) => {
      await deleteVariant(core, variantInput(req, res));
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

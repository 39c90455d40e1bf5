import { Router } from 'express';
import { addItem, deleteItem, getItem, listItems, upsertItem } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';
import type { ManagementServices } from '../services.ts';
import { itemKeyOf, itemPaths } from '../variants/paths.ts';

/** `/items` of the Management API v2 (SPEC 4.1, reference §2.2): list (paged), add, get, upsert, delete. */
export function itemsRouter({ core }: ManagementServices): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/items')
    .get(async (req, res) => {
      const page = await listItems(core, { ...modelInput(req, res), continuation: continuationOf(req) });
      res.json({ items: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .post(async (req, res) => {
      res.status(201).json(await addItem(core, { ...modelInput(req, res), body: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route(itemPaths)
    .get(async (req, res) => {
      res.json(await getItem(core, { ...modelInput(req, res), key: itemKeyOf(req) }));
    })
    .put(async (req, res) => {
      const result = await upsertItem(core, { ...modelInput(req, res), key: itemKeyOf(req), body: req.body });
      res.status(result.isCreated ? 201 : 200).json(result.item);
    })
    .delete(async (req, res) => {
      await deleteItem(core, { ...modelInput(req, res), key: itemKeyOf(req) });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

import { Router, type Request } from 'express';
import {
  addRendition,
  getRendition,
  listRenditions,
  modifyRendition,
  renditionJson,
  type CoreDeps,
  type RecordKey,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

const base = identifierPaths('/assets').map((p) => `${p}/renditions`);

function renditionKey(req: Request): RecordKey {
  const ext = req.params['renditionExternalId'];
  if (typeof ext === 'string') return { externalId: ext };
  return recordKeyFrom({ id: req.params['renditionId'] }, 'RENDITION_NOT_FOUND');
}

/** `/assets/{asset}/renditions[/{id | external-id/…}]` (reference §2.8): list (paged), get, add, modify. */
export function renditionsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  const input = (req: Request, res: Parameters<typeof modelInput>[1]) => ({
    ...modelInput(req, res),
    assetKey: recordKeyFrom(req.params, 'ASSET_NOT_FOUND'),
  });
  router
    .route(base)
    .get(async (req, res) => {
      const page = await listRenditions(core, { ...input(req, res), continuation: continuationOf(req) });
      res.json({
        asset_renditions: page.items.map(renditionJson),
        pagination: paginationJson(req, page.continuationToken),
      });
    })
    .post(async (req, res) => {
      res.status(201).json(renditionJson(await addRendition(core, { ...input(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route([...base.map((p) => `${p}/external-id/:renditionExternalId`), ...base.map((p) => `${p}/:renditionId`)])
    .get(async (req, res) => {
      res.json(renditionJson(await getRendition(core, { ...input(req, res), key: renditionKey(req) })));
    })
    .put(async (req, res) => {
      res.json(
        renditionJson(await modifyRendition(core, { ...input(req, res), key: renditionKey(req), body: req.body })),
      );
    })
    .all(methodNotAllowed);
  return router;
}

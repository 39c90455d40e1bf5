import { Router } from 'express';
import { getVariantVersion, listVariantVersions, restoreVariantVersion, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';
import { variantPaths } from './paths.ts';
import { variantInput } from './variant-routes.ts';

/**
 * The version history of a variant (Lectern extension, docs/history.md): the versions newest
 * first (50 a page, `x-continuation`), one version as the variant it was, and its restore as a
 * new version. Served with the other v2 routes, so under `/app/api/v2/…` to signed-in people too.
 */
export function variantVersionsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route(variantPaths('/versions'))
    .get(async (req, res) => {
      const page = await listVariantVersions(core, {
        ...variantInput(req, res, 'v2'),
        continuation: continuationOf(req),
      });
      res.json({ versions: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  router
    .route(variantPaths('/versions/:versionId'))
    .get(async (req, res) => {
      res.json(
        await getVariantVersion(core, { ...variantInput(req, res, 'v2'), versionId: String(req.params['versionId']) }),
      );
    })
    .all(methodNotAllowed);
  router
    .route(variantPaths('/versions/:versionId/restore'))
    .post(async (req, res) => {
      const restored = await restoreVariantVersion(core, {
        ...variantInput(req, res, 'v2'),
        versionId: String(req.params['versionId']),
      });
      res.status(200).json({ ...restored.variant, version: restored.version });
    })
    .all(methodNotAllowed);
  return router;
}

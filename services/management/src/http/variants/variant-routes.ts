import type { Request, Response, Router } from 'express';
import { deleteVariant, getVariantWithEtag, upsertVariant, type CoreDeps, type VariantInput } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { itemKeyOf, languageKeyOf, variantPaths } from './paths.ts';

/** The item, language and API version of a request under `/items/{item}/variants/{language}`. */
export function variantInput(req: Request, res: Response, version: VariantInput['version']): VariantInput {
  return { ...modelInput(req, res), itemKey: itemKeyOf(req), languageKey: languageKeyOf(req), version };
}

/**
 * GET, PUT (upsert: 201 created, 200 updated) and DELETE of one variant, the same in v1 and v2;
 * the version decides the element value forms. Lectern extension: GET and PUT answer the
 * variant's `ETag`; a PUT with `If-Match` is refused (412) when the variant changed since.
 */
export function routeVariant(router: Router, core: CoreDeps, version: VariantInput['version']): void {
  router
    .route(variantPaths())
    .get(async (req, res) => {
      const { variant, etag } = await getVariantWithEtag(core, variantInput(req, res, version));
      res.set('etag', etag).json(variant);
    })
    .put(async (req, res) => {
      const ifMatch = req.get('if-match');
      const result = await upsertVariant(core, {
        ...variantInput(req, res, version),
        body: req.body,
        ...(ifMatch === undefined ? {} : { ifMatch }),
      });
      res
        .status(result.isCreated ? 201 : 200)
        .set('etag', result.etag)
        .json(result.variant);
    })
    .delete(async (req, res) => {
      await deleteVariant(core, variantInput(req, res, version));
      res.status(204).end();
    })
    .all(methodNotAllowed);
}

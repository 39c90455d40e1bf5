import type { Request, Response, Router } from 'express';
import { deleteVariant, getVariant, upsertVariant, type CoreDeps, type VariantInput } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { itemKeyOf, languageKeyOf, variantPaths } from './paths.ts';

/** The item, language and API version of a request under `/items/{item}/variants/{language}`. */
export function variantInput(req: Request, res: Response, version: VariantInput['version']): VariantInput {
  return { ...modelInput(req, res), itemKey: itemKeyOf(req), languageKey: languageKeyOf(req), version };
}

/**
 * GET, PUT (upsert: 201 created, 200 updated) and DELETE of one variant, the same in v1 and v2;
 * the version decides the element value forms.
 */
export function routeVariant(router: Router, core: CoreDeps, version: VariantInput['version']): void {
  router
    .route(variantPaths())
    .get(async (req, res) => {
      res.json(await getVariant(core, variantInput(req, res, version)));
    })
    .put(async (req, res) => {
      const result = await upsertVariant(core, { ...variantInput(req, res, version), body: req.body });
      res.status(result.isCreated ? 201 : 200).json(result.variant);
    })
    .delete(async (req, res) => {
      await deleteVariant(core, variantInput(req, res, version));
      res.status(204).end();
    })
    .all(methodNotAllowed);
}

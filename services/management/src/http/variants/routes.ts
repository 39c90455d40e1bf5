import { Router } from 'express';
import {
  cancelScheduledPublish,
  cancelScheduledUnpublish,
  changeWorkflow,
  createNewVersion,
  getVariant,
  listVariantsBy,
  listVariantsOfItem,
  publishVariant,
  unpublishVariant,
  schedulePublishAndUnpublish,
  unpublishToDraft,
  type CoreDeps,
  type VariantInput,
  zeroId,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { routeVariant, variantInput } from './variant-routes.ts';
import { identifierPaths, recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';
import type { ManagementServices } from '../services.ts';
import { itemKeyOf, itemVariantsPaths, variantPaths } from './paths.ts';

type Action = (core: CoreDeps, input: VariantInput & { body?: unknown }) => Promise<void>;

/** Workflow actions on a variant (reference §2.4): each answers 204 and takes an empty body. */
const actions: Record<string, Action> = {
  publish: publishVariant,
  'unpublish-and-archive': unpublishVariant,
  'cancel-scheduled-publish': cancelScheduledPublish,
  'cancel-scheduled-unpublish': cancelScheduledUnpublish,
  'new-version': createNewVersion,
  'change-workflow': changeWorkflow,
  unpublish: unpublishToDraft,
  'schedule-publish-and-unpublish': schedulePublishAndUnpublish,
};

/**
 * Language variants of the Management API v2 (reference §2.3, §2.4): upsert, get (latest or
 * published), delete, the workflow actions, and the lists by item (bare array), type, collection
 * and space (paged, 50 per page).
 */
export function variantsRouter({ core }: ManagementServices): Router {
  const router = Router({ mergeParams: true });
  router
    .route(itemVariantsPaths)
    .get(async (req, res) => {
      res.json(await listVariantsOfItem(core, { ...modelInput(req, res), itemKey: itemKeyOf(req), version: 'v2' }));
    })
    .all(methodNotAllowed);
  for (const [name, action] of Object.entries(actions)) {
    router
      .route(variantPaths(`/${name}`))
      .put(async (req, res) => {
        await action(core, { ...variantInput(req, res, 'v2'), body: req.body });
        res.status(204).end();
      })
      .all(methodNotAllowed);
  }
  // Legacy `PUT …/workflow/{step}`: a step of the default workflow by id or `codename/<codename>`.
  router
    .route([...variantPaths('/workflow/codename/:stepCodename'), ...variantPaths('/workflow/:stepId')])
    .put(async (req, res) => {
      const step =
        req.params['stepCodename'] !== undefined
          ? { codename: req.params['stepCodename'] }
          : { id: req.params['stepId'] };
      const body = { workflow_identifier: { id: zeroId }, step_identifier: step };
      await changeWorkflow(core, { ...variantInput(req, res, 'v2'), body });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  router
    .route(variantPaths('/published'))
    .get(async (req, res) => {
      res.json(await getVariant(core, { ...variantInput(req, res, 'v2'), isPublished: true }));
    })
    .all(methodNotAllowed);
  routeVariant(router, core, 'v2');
  const lists = [
    ['/types', 'content_type', 'CONTENT_TYPE_NOT_FOUND'],
    ['/collections', 'collection', 'COLLECTION_NOT_FOUND'],
    ['/spaces', 'space', 'SPACE_NOT_FOUND'],
    ['/types', 'components', 'CONTENT_TYPE_NOT_FOUND'],
  ] as const;
  for (const [base, by, notFound] of lists) {
    router
      .route(identifierPaths(base).map((p) => `${p}/${by === 'components' ? 'components' : 'variants'}`))
      .get(async (req, res) => {
        const page = await listVariantsBy(core, {
          ...modelInput(req, res),
          by,
          key: recordKeyFrom(req.params, notFound),
          continuation: continuationOf(req),
          pageSize: 50,
        });
        res.json({ variants: page.items, pagination: paginationJson(req, page.continuationToken) });
      })
      .all(methodNotAllowed);
  }
  return router;
}

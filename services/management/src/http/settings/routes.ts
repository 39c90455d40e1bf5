import { Router } from 'express';
import {
  activateWebSpotlight,
  changeLivePreview,
  deactivateWebSpotlight,
  getLivePreview,
  getPreviewConfiguration,
  getRole,
  getWebSpotlight,
  listRoles,
  modifyPreviewConfiguration,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * Environment settings (reference §2.12, §2.13): `/preview-configuration`,
 * `/live-preview-configuration`, `/web-spotlight/{status,activate,deactivate}` and `/roles`.
 */
export function settingsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/preview-configuration')
    .get(async (req, res) => {
      res.json(await getPreviewConfiguration(core, modelInput(req, res)));
    })
    .put(async (req, res) => {
      res.json(await modifyPreviewConfiguration(core, { ...modelInput(req, res), body: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route('/live-preview-configuration')
    .get(async (req, res) => {
      res.json(await getLivePreview(core, modelInput(req, res)));
    })
    .put(async (req, res) => {
      res.json(await changeLivePreview(core, { ...modelInput(req, res), body: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route('/web-spotlight/status')
    .get(async (req, res) => {
      res.json(await getWebSpotlight(core, modelInput(req, res)));
    })
    .all(methodNotAllowed);
  router
    .route('/web-spotlight/activate')
    .put(async (req, res) => {
      res.json(await activateWebSpotlight(core, { ...modelInput(req, res), body: req.body }));
    })
    .all(methodNotAllowed);
  router
    .route('/web-spotlight/deactivate')
    .put(async (req, res) => {
      res.json(await deactivateWebSpotlight(core, modelInput(req, res)));
    })
    .all(methodNotAllowed);
  router
    .route('/roles')
    .get(async (req, res) => {
      res.json({ roles: await listRoles(core, modelInput(req, res)) });
    })
    .all(methodNotAllowed);
  router
    .route(['/roles/codename/:codename', '/roles/:id'])
    .get(async (req, res) => {
      res.json(await getRole(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'ROLE_NOT_FOUND') }));
    })
    .all(methodNotAllowed);
  return router;
}

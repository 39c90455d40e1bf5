import { Router } from 'express';
import {
  addWorkflow,
  deleteWorkflow,
  getDefaultWorkflow,
  getWorkflow,
  listWorkflows,
  updateWorkflow,
  workflowJson,
  workflowStepsJson,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { recordKeyFrom } from '../shared/identifier.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * `/workflows` (reference §2.10): list (bare array, not paged), add, get, update (PUT), delete;
 * workflows are named by id or `codename/<codename>`. Also the legacy `/workflow`: the default
 * workflow's steps with the system steps.
 */
export function workflowsRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/workflow')
    .get(async (req, res) => {
      res.json(workflowStepsJson(await getDefaultWorkflow(core, modelInput(req, res))));
    })
    .all(methodNotAllowed);
  router
    .route('/workflows')
    .get(async (req, res) => {
      res.json((await listWorkflows(core, modelInput(req, res))).map(workflowJson));
    })
    .post(async (req, res) => {
      res.status(201).json(workflowJson(await addWorkflow(core, { ...modelInput(req, res), body: req.body })));
    })
    .all(methodNotAllowed);
  router
    .route(['/workflows/codename/:codename', '/workflows/:id'])
    .get(async (req, res) => {
      const key = recordKeyFrom(req.params, 'WORKFLOW_NOT_FOUND');
      res.json(workflowJson(await getWorkflow(core, { ...modelInput(req, res), key })));
    })
    .put(async (req, res) => {
      const key = recordKeyFrom(req.params, 'WORKFLOW_NOT_FOUND');
      res.json(workflowJson(await updateWorkflow(core, { ...modelInput(req, res), key, body: req.body })));
    })
    .delete(async (req, res) => {
      await deleteWorkflow(core, { ...modelInput(req, res), key: recordKeyFrom(req.params, 'WORKFLOW_NOT_FOUND') });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

import { Router } from 'express';
import {
  getProject,
  getValidationTask,
  listValidationIssues,
  startValidation,
  validateProjectContent,
  validationTaskJson,
  type CoreDeps,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf, paginationJson } from '../shared/paging.ts';

/**
 * `POST /validate` (the report at once) and `POST /validate-async` with
 * `GET /validate-async/tasks/{id}[/issues]` (reference §2.1): the task is a background task that
 * any process's runner does after the 202 (this one's is woken); the status routes read it.
 */
export function validateRouter(core: CoreDeps, options: { tasks: { wake(): void } | null }): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/validate')
    .post(async (req, res) => {
      const input = modelInput(req, res);
      const project = await getProject(core, input);
      const report = await validateProjectContent(core, input);
      res.json({
        project: {
          id: project.id,
          name: project.name,
          environment: project.environment,
          is_production: project.isProduction,
        },
        variant_issues: report.variantIssues,
        type_issues: report.typeIssues,
      });
    })
    .all(methodNotAllowed);
  router
    .route('/validate-async')
    .post(async (req, res) => {
      const input = modelInput(req, res);
      const task = await startValidation(core, input);
      res.status(202).json(validationTaskJson(task));
      options.tasks?.wake();
    })
    .all(methodNotAllowed);
  router
    .route('/validate-async/tasks/:taskId')
    .get(async (req, res) => {
      const task = await getValidationTask(core, { ...modelInput(req, res), taskId: String(req.params['taskId']) });
      res.json(validationTaskJson(task));
    })
    .all(methodNotAllowed);
  router
    .route('/validate-async/tasks/:taskId/issues')
    .get(async (req, res) => {
      const page = await listValidationIssues(core, {
        ...modelInput(req, res),
        taskId: String(req.params['taskId']),
        continuation: continuationOf(req),
      });
      res.json({ issues: page.items, pagination: paginationJson(req, page.continuationToken) });
    })
    .all(methodNotAllowed);
  return router;
}

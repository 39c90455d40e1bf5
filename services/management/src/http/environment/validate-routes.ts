import { Router } from 'express';
import { getProject, validateProjectContent, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

/** `POST /validate` (reference "Validate content"): the report of the project's content, at once. */
export function validateRouter(core: CoreDeps): Router {
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
  return router;
}

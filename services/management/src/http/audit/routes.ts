import { Router, type Request, type Response } from 'express';
import { exportAuditLog, listAuditLog, type Actor, type AuditFilters, type CoreDeps } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';
import { continuationOf } from '../shared/paging.ts';
import { locals } from '../context.ts';
import { requireOperatorToken } from '../auth.ts';

function filtersOf(req: Request): AuditFilters {
  const q = req.query;
  return {
    user_id: q['user_id'],
    key_id: q['key_id'],
    object_id: q['object_id'],
    object_kind: q['object_kind'],
    action: q['action'],
    from: q['from'],
    to: q['to'],
  };
}

async function sendPage(
  core: CoreDeps,
  req: Request,
  res: Response,
  input: { actor: Actor; projectId: string | null },
) {
  const page = await listAuditLog(core, { ...input, filters: filtersOf(req), continuation: continuationOf(req) });
  res.json({
    entries: page.entries,
    pagination: {
      continuation_token: page.continuationToken,
      next_page: page.continuationToken === null ? null : req.originalUrl,
    },
  });
}

/**
 * Streams the export as JSON lines (`application/x-ndjson`), newest first. The first batch is read
 * before the headers go, so a refusal (access, a bad filter) still answers in the API's error body.
 */
async function sendExport(
  core: CoreDeps,
  req: Request,
  res: Response,
  input: { actor: Actor; projectId: string | null },
) {
  const entries = exportAuditLog(core, { ...input, filters: filtersOf(req) });
  let next = await entries.next();
  res.status(200).set({
    'content-type': 'application/x-ndjson; charset=utf-8',
    'content-disposition': 'attachment; filename="audit-log.jsonl"',
    'cache-control': 'no-store',
  });
  while (!next.done) {
    if (!res.write(`${JSON.stringify(next.value)}\n`)) await new Promise((r) => res.once('drain', r));
    if (res.destroyed) return;
    next = await entries.next();
  }
  res.end();
}

/**
 * The audit log of a project (a Lectern extension under the Management API's conventions): the
 * list, paged with `x-continuation`, and the export. Reading only: every other method is 405, and
 * no route anywhere changes the log.
 */
export function auditLogRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/audit-log')
    .get((req, res) => sendPage(core, req, res, modelInput(req, res)))
    .all(methodNotAllowed);
  router
    .route('/audit-log/export')
    .get((req, res) => sendExport(core, req, res, modelInput(req, res)))
    .all(methodNotAllowed);
  return router;
}

/** The operator's view (admin API): every project's entries and those of no project, or one project's. */
export function adminAuditRouter(core: CoreDeps, operatorToken: string | null): Router {
  const router = Router();
  const auth = requireOperatorToken(operatorToken);
  const actorOf = (res: Response) => locals(res).actor as Actor;
  const project = (req: Request) => (req.params['projectId'] ? String(req.params['projectId']).toLowerCase() : null);
  router
    .route(['/audit-log', '/projects/:projectId/audit-log'])
    .get(auth, (req, res) => sendPage(core, req, res, { actor: actorOf(res), projectId: project(req) }))
    .all(methodNotAllowed);
  router
    .route(['/audit-log/export', '/projects/:projectId/audit-log/export'])
    .get(auth, (req, res) => sendExport(core, req, res, { actor: actorOf(res), projectId: project(req) }))
    .all(methodNotAllowed);
  return router;
}

import { Router, type Request, type Response } from 'express';
import {
  createCommentThread,
  deleteComment,
  editComment,
  listCommentThreads,
  replyToCommentThread,
  setCommentThreadResolved,
  type CoreDeps,
} from '@lectern/core';
import type { Logger } from '@lectern/http-kit';
import { methodNotAllowed } from '../errors.ts';
import { variantInput } from '../variants/variant-routes.ts';
import { variantPaths } from '../variants/paths.ts';
import { sendMentionMails, type MentionMailer } from './comment-mail.ts';

export interface CommentsRouterDeps {
  readonly core: CoreDeps;
  readonly logger: Logger;
  /** Mentions are e-mailed through it (LECTERN_SMTP_URL); null: no e-mail. */
  readonly mailer: MentionMailer | null;
}

const threadOf = (req: Request) => String(req.params['threadId']);
const commentOf = (req: Request) => String(req.params['commentId']);

/**
 * Comments on a language variant, a Lectern extension under the Management API's conventions
 * (docs/comments.md): `…/items/{item}/variants/{language}/comments` lists (GET) and opens (POST)
 * threads; `…/comments/{thread}/replies` (POST) replies; `…/resolve` and `…/reopen` (PUT);
 * `…/comments/{thread}/comments/{comment}` edits (PUT) and deletes (DELETE) one's own comment.
 */
export function commentsRouter(deps: CommentsRouterDeps): Router {
  const { core } = deps;
  const router = Router({ mergeParams: true });
  const thread = (req: Request, res: Response) => ({ ...variantInput(req, res, 'v2'), threadId: threadOf(req) });
  const mail = (req: Request, res: Response, notices: Parameters<typeof sendMentionMails>[2]['notices']) =>
    sendMentionMails(deps.mailer, deps.logger, { projectId: variantInput(req, res, 'v2').projectId, notices });
  router
    .route(variantPaths('/comments'))
    .get(async (req, res) => {
      res.json(await listCommentThreads(core, variantInput(req, res, 'v2')));
    })
    .post(async (req, res) => {
      const written = await createCommentThread(core, { ...variantInput(req, res, 'v2'), body: req.body });
      mail(req, res, written.notices);
      res.status(201).json(written.thread);
    })
    .all(methodNotAllowed);
  router
    .route(variantPaths('/comments/:threadId/replies'))
    .post(async (req, res) => {
      const written = await replyToCommentThread(core, { ...thread(req, res), body: req.body });
      mail(req, res, written.notices);
      res.status(201).json(written.thread);
    })
    .all(methodNotAllowed);
  for (const [action, isResolved] of [
    ['resolve', true],
    ['reopen', false],
  ] as const)
    router
      .route(variantPaths(`/comments/:threadId/${action}`))
      .put(async (req, res) => {
        res.json(await setCommentThreadResolved(core, { ...thread(req, res), isResolved }));
      })
      .all(methodNotAllowed);
  router
    .route(variantPaths('/comments/:threadId/comments/:commentId'))
    .put(async (req, res) => {
      const written = await editComment(core, { ...thread(req, res), commentId: commentOf(req), body: req.body });
      mail(req, res, written.notices);
      res.json(written.thread);
    })
    .delete(async (req, res) => {
      await deleteComment(core, { ...thread(req, res), commentId: commentOf(req) });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}

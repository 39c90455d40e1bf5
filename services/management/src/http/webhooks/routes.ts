import { Router, type Request, type Response } from 'express';
import {
  addWebhook,
  changeWebhookUrl,
  deleteWebhook,
  getWebhook,
  legacyWebhookJson,
  listWebhookNotifications,
  listWebhooks,
  resetWebhook,
  setWebhookEnabled,
  webhookJson,
  webhookNotificationJson,
  type CoreDeps,
  type WebhookFormat,
  type WebhookRecord,
} from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import { modelInput } from '../shared/model-input.ts';

/**
 * `/webhooks-vnext` (current format) and the legacy `/webhooks` (management-api.md §2.11): add,
 * list (bare array), get, enable, disable, delete; and the Lectern extensions of SPEC 3.1 and 6.8:
 * `POST …/{id}/reset`, `PUT …/{id}/url` and `GET …/{id}/notifications?filter=all|failed|failing`.
 */
export function webhooksRouter(core: CoreDeps): Router {
  const router = Router({ mergeParams: true });
  const families: [string, WebhookFormat, (w: WebhookRecord) => object][] = [
    ['/webhooks-vnext', 'vnext', webhookJson],
    ['/webhooks', 'legacy', legacyWebhookJson],
  ];
  for (const [base, format, json] of families) {
    const input = (req: Request, res: Response) => ({ ...modelInput(req, res), format });
    const one = (req: Request, res: Response) => ({ ...input(req, res), id: String(req.params['webhookId']) });
    router
      .route(base)
      .get(async (req, res) => {
        res.json((await listWebhooks(core, input(req, res))).map(json));
      })
      .post(async (req, res) => {
        res.status(201).json(json(await addWebhook(core, { ...input(req, res), body: req.body })));
      })
      .all(methodNotAllowed);
    router
      .route(`${base}/:webhookId`)
      .get(async (req, res) => {
        res.json(json(await getWebhook(core, one(req, res))));
      })
      .delete(async (req, res) => {
        await deleteWebhook(core, one(req, res));
        res.status(204).end();
      })
      .all(methodNotAllowed);
    for (const [action, isEnabled] of [
      ['enable', true],
      ['disable', false],
    ] as const)
      router
        .route(`${base}/:webhookId/${action}`)
        .put(async (req, res) => {
          await setWebhookEnabled(core, { ...one(req, res), isEnabled });
          res.status(204).end();
        })
        .all(methodNotAllowed);
    router
      .route(`${base}/:webhookId/reset`)
      .post(async (req, res) => {
        await resetWebhook(core, one(req, res));
        res.status(204).end();
      })
      .all(methodNotAllowed);
    router
      .route(`${base}/:webhookId/url`)
      .put(async (req, res) => {
        res.json(json(await changeWebhookUrl(core, { ...one(req, res), body: req.body })));
      })
      .all(methodNotAllowed);
    router
      .route(`${base}/:webhookId/notifications`)
      .get(async (req, res) => {
        const list = await listWebhookNotifications(core, { ...one(req, res), filter: req.query['filter'] });
        res.json({ notifications: list.map(webhookNotificationJson) });
      })
      .all(methodNotAllowed);
  }
  return router;
}

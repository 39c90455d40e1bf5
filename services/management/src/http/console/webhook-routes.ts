import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import {
  addWebhook,
  editWebhook,
  getProject,
  getWebhook,
  listWebhookNotifications,
  listWebhooks,
  resetWebhook,
  setWebhookEnabled,
  webhookObjectTypes,
} from '@lectern/core';
import { noticeOf } from './project-routes.ts';
import { consoleState, field, type ConsoleOptions } from './request-state.ts';
import { webhookEditPage } from './webhook-edit-page.ts';
import { webhookPage, webhooksPage, type DebugFilter } from './webhooks-pages.ts';

const notices: Readonly<Record<string, string>> = {
  created: 'Webhook registered. It is ready for its first message.',
  enabled: 'Webhook enabled: later changes are notified.',
  disabled: 'Webhook disabled: its unsent notifications were deleted.',
  reset: 'Webhook reset: the retry policy restarts and the last failed notification is sent again.',
  edited: 'Webhook saved.',
};

/** Every value of a repeated form field. */
function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

type StoredSection = { filters?: unknown; actions?: { action?: string; transition_to?: unknown }[] };

/**
 * The form's trigger selection as the `delivery_triggers` of a `/webhooks-vnext` body. An edit
 * keeps what the form does not show: each section's filters and the workflow steps of
 * `workflow_step_changed` (set through the Management API).
 */
function deliveryTriggers(req: Request, current?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const chosen = fields(req, 'trigger');
  const triggers: Record<string, unknown> = { slot: field(req, 'slot'), events: field(req, 'events') };
  for (const type of webhookObjectTypes) {
    const stored = current?.[type] as StoredSection | undefined;
    const actions = chosen
      .filter((c) => c.startsWith(`${type}:`))
      .map((c) => c.slice(type.length + 1))
      .map((action) => {
        const transitions = stored?.actions?.find((a) => a.action === action)?.transition_to;
        return Array.isArray(transitions) && transitions.length > 0
          ? { action, transition_to: transitions }
          : { action };
      });
    if (actions.length > 0)
      triggers[type] = {
        enabled: true,
        actions,
        ...(stored?.filters === undefined ? {} : { filters: stored.filters }),
      };
  }
  return triggers;
}

/** Webhooks as the `/webhooks-vnext` API registers them, through the same core operations. */
export function webhookRoutes(options: ConsoleOptions): Router {
  const { core } = options;
  const router = Router();
  const base = (res: Response, projectId: string) => ({
    actor: consoleState(res).signedIn.actor,
    projectId,
    format: 'vnext' as const,
  });
  const one = (req: Request<{ projectId: string; webhookId: string }>, res: Response) => ({
    ...base(res, req.params.projectId),
    id: req.params.webhookId,
  });
  const ctxFor = async (res: Response, projectId: string) => {
    const project = await getProject(core, { actor: consoleState(res).signedIn.actor, projectId });
    return {
      project,
      ctx: { ...consoleState(res).ctx, project: { id: project.id, name: project.name, section: 'webhooks' as const } },
    };
  };
  const back = (req: Request<{ projectId: string; webhookId?: string }>, code: string) =>
    `/console/projects/${req.params.projectId}/webhooks${req.params.webhookId ? `/${req.params.webhookId}` : ''}?notice=${code}`;

  router.get('/projects/:projectId/webhooks', async (req, res) => {
    const { project, ctx } = await ctxFor(res, req.params.projectId);
    const webhooks = await listWebhooks(core, base(res, project.id));
    const notice = noticeOf(req.query['notice'], notices);
    res.type('html').send(webhooksPage(ctx, { project, webhooks, ...(notice === undefined ? {} : { notice }) }).value);
  });
  router.post('/projects/:projectId/webhooks', async (req, res) => {
    const secret = field(req, 'secret')?.trim();
    const webhook = await addWebhook(core, {
      ...base(res, req.params.projectId),
      body: {
        name: field(req, 'name'),
        url: field(req, 'url'),
        secret: secret === undefined || secret === '' ? randomBytes(32).toString('base64') : secret,
        delivery_triggers: deliveryTriggers(req),
      },
    });
    res.redirect(303, `/console/projects/${req.params.projectId}/webhooks/${webhook.id}?notice=created`);
  });
  router.get('/projects/:projectId/webhooks/:webhookId', async (req, res) => {
    const { project, ctx } = await ctxFor(res, req.params.projectId);
    const raw = req.query['filter'];
    const filter: DebugFilter = raw === 'failed' || raw === 'failing' ? raw : 'all';
    const webhook = await getWebhook(core, one(req, res));
    const notifications = await listWebhookNotifications(core, { ...one(req, res), filter });
    const notice = noticeOf(req.query['notice'], notices);
    res
      .type('html')
      .send(
        webhookPage(ctx, { project, webhook, filter, notifications, ...(notice === undefined ? {} : { notice }) })
          .value,
      );
  });
  for (const [action, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(`/projects/:projectId/webhooks/:webhookId/${action}`, async (req, res) => {
      await setWebhookEnabled(core, { ...one(req, res), isEnabled });
      res.redirect(303, back(req, `${action}d`));
    });
  }
  router.post('/projects/:projectId/webhooks/:webhookId/reset', async (req, res) => {
    await resetWebhook(core, one(req, res));
    res.redirect(303, back(req, 'reset'));
  });
  router.get('/projects/:projectId/webhooks/:webhookId/edit', async (req, res) => {
    const { project, ctx } = await ctxFor(res, req.params.projectId);
    const webhook = await getWebhook(core, one(req, res));
    res.type('html').send(webhookEditPage(ctx, { project, webhook }).value);
  });
  router.post('/projects/:projectId/webhooks/:webhookId/edit', async (req, res) => {
    const current = await getWebhook(core, one(req, res));
    const secret = field(req, 'secret')?.trim();
    await editWebhook(core, {
      ...one(req, res),
      body: {
        name: field(req, 'name'),
        url: field(req, 'url'),
        ...(secret === undefined || secret === '' ? {} : { secret }),
        delivery_triggers: deliveryTriggers(req, current.triggers),
      },
    });
    res.redirect(303, back(req, 'edited'));
  });
  return router;
}

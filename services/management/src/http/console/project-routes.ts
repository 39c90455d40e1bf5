import { Router, type Response } from 'express';
import {
  apiKeyKinds,
  createApiKey,
  createProject,
  getProject,
  listApiKeys,
  listProjects,
  projectOverview,
  regenerateApiKey,
  revokeApiKey,
  updateProject,
  type ApiKeyKind,
} from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { ProcessMetrics } from '@lectern/http-kit';
import { keysPage } from './keys-page.ts';
import { overviewFragment, overviewPage, projectsPage, type Lags } from './projects-pages.ts';
import { consoleState, field, type ConsoleOptions } from './request-state.ts';

/** Notices after a redirect, by code (never text from the URL). */
const notices: Readonly<Record<string, string>> = {
  created: 'Project created.',
  saved: 'Settings saved.',
  revoked: 'Key revoked.',
};

export function noticeOf(code: unknown, table: Readonly<Record<string, string>>): string | undefined {
  return typeof code === 'string' ? table[code] : undefined;
}

/** The value of a gauge this process exports (summed over labels), or null when it exports none. */
async function gauge(metrics: ProcessMetrics, name: string): Promise<number | null> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) return null;
  const { values } = await metric.get();
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v.value, 0);
}

/** The lag gauges of `/metrics`, read the same way a scrape reads them. */
async function readLags(metrics: ProcessMetrics): Promise<Lags> {
  return {
    relay: await gauge(metrics, 'lectern_outbox_relay_lag_events'),
    relayOldestSeconds: await gauge(metrics, 'lectern_outbox_relay_oldest_pending_seconds'),
    consumer: await gauge(metrics, 'lectern_event_consumer_lag_events'),
    index: await gauge(metrics, 'lectern_index_watermark_lag_events'),
  };
}

const isOn = (value: string | undefined) => value === 'on' || value === 'true';

export function projectRoutes(options: ConsoleOptions): Router {
  const { core, metrics, recsTracking } = options;
  const router = Router();
  const actorOf = (res: Response) => consoleState(res).signedIn.actor;
  const ctxOf = (res: Response) => consoleState(res).ctx;
  const projectFor = async (res: Response, projectId: string) => getProject(core, { actor: actorOf(res), projectId });
  const sendHtml = (res: Response, body: { value: string }, status = 200) =>
    res.status(status).type('html').send(body.value);

  router.get('/projects', async (req, res) => {
    const scope = consoleState(res).signedIn.projectId;
    if (scope !== null) return res.redirect(303, `/console/projects/${scope}`);
    const projects = await listProjects(core, { actor: actorOf(res) });
    const notice = noticeOf(req.query['notice'], notices);
    sendHtml(res, projectsPage(ctxOf(res), { projects, ...(notice === undefined ? {} : { notice }) }));
  });
  router.post('/projects', async (req, res) => {
    const project = await createProject(core, {
      actor: actorOf(res),
      name: field(req, 'name') ?? '',
      isSecureAccess: isOn(field(req, 'secure_access')),
    });
    res.redirect(303, `/console/projects/${project.id}?notice=created`);
  });

  router.get('/projects/:projectId', async (req, res) => {
    const project = await projectFor(res, req.params.projectId);
    const [overview, lags] = [
      await projectOverview(core, { actor: actorOf(res), projectId: project.id }),
      await readLags(metrics),
    ];
    const fragment = overviewFragment(overview, lags, core.clock.now());
    const notice = noticeOf(req.query['notice'], notices);
    const ctx = { ...ctxOf(res), project: { id: project.id, name: project.name, section: 'overview' as const } };
    const isManualTracking = recsTracking ? await recsTracking.isManualTracking(project.id) : null;
    sendHtml(
      res,
      overviewPage(ctx, { project, fragment, isManualTracking, ...(notice === undefined ? {} : { notice }) }),
    );
  });
  router.post('/projects/:projectId', async (req, res) => {
    const name = field(req, 'name');
    await updateProject(core, {
      actor: actorOf(res),
      projectId: req.params.projectId,
      ...(name === undefined ? {} : { name }),
      isSecureAccess: isOn(field(req, 'secure_access')),
    });
    // After the project's own settings: updateProject has checked that this actor may change them.
    await recsTracking?.setManualTracking(req.params.projectId, isOn(field(req, 'manual_tracking')));
    res.redirect(303, `/console/projects/${req.params.projectId}?notice=saved`);
  });

  const showKeys = async (
    res: Response,
    projectId: string,
    extra: { issued?: Awaited<ReturnType<typeof createApiKey>>; notice?: string },
    status = 200,
  ) => {
    const project = await projectFor(res, projectId);
    const keys = await listApiKeys(core, { actor: actorOf(res), projectId: project.id });
    const ctx = { ...ctxOf(res), project: { id: project.id, name: project.name, section: 'keys' as const } };
    sendHtml(res, keysPage(ctx, { project, keys, ...extra }), status);
  };
  router.get('/projects/:projectId/keys', async (req, res) => {
    const notice = noticeOf(req.query['notice'], notices);
    await showKeys(res, req.params.projectId, notice === undefined ? {} : { notice });
  });
  router.post('/projects/:projectId/keys', async (req, res) => {
    const kind = field(req, 'kind') ?? '';
    if (!(apiKeyKinds as readonly string[]).includes(kind)) {
      throw new LecternError('INVALID_REQUEST_BODY', {
        problems: [{ path: 'kind', message: `must be one of ${apiKeyKinds.join(', ')}` }],
      });
    }
    const email = field(req, 'user_email')?.trim();
    const days = field(req, 'validity_days')?.trim();
    const validityDays = days === undefined || days === '' ? undefined : Number(days);
    const issued = await createApiKey(core, {
      actor: actorOf(res),
      projectId: req.params.projectId,
      kind: kind as ApiKeyKind,
      ...(email === undefined || email === '' ? {} : { userEmail: email }),
      ...(validityDays === undefined ? {} : { validityDays }),
    });
    // The value is in this response only: shown once, never in a URL or a cache.
    await showKeys(res, req.params.projectId, { issued }, 201);
  });
  router.post('/projects/:projectId/keys/:keyId/regenerate', async (req, res) => {
    await requireKeyOfProject(res, req.params.projectId, req.params.keyId);
    const issued = await regenerateApiKey(core, { actor: actorOf(res), keyId: req.params.keyId });
    await showKeys(res, req.params.projectId, { issued }, 201);
  });
  router.post('/projects/:projectId/keys/:keyId/revoke', async (req, res) => {
    await requireKeyOfProject(res, req.params.projectId, req.params.keyId);
    await revokeApiKey(core, { actor: actorOf(res), keyId: req.params.keyId });
    res.redirect(303, `/console/projects/${req.params.projectId}/keys?notice=revoked`);
  });

  /** A key is acted on from its own project's page only. */
  async function requireKeyOfProject(res: Response, projectId: string, keyId: string): Promise<void> {
    const keys = await listApiKeys(core, { actor: actorOf(res), projectId });
    if (!keys.some((k) => k.id === keyId)) throw new LecternError('API_KEY_NOT_FOUND');
  }
  return router;
}

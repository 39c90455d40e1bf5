import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { operator, regenerateApiKey, updateProject } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness } from '@lectern/http-kit';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildDeliveryApp, type DeliveryChannel } from './app.ts';

let core: TestCore;
const apps = {} as Record<DeliveryChannel, FastifyInstance>;

beforeAll(async () => {
  core = await openTestCore();
  for (const channel of ['production', 'preview'] as const) {
    apps[channel] = buildDeliveryApp({
      channel,
      core,
      signals: core.store.signals,
      metrics: createProcessMetrics(),
      readiness: createReadiness([() => core.store.ping()]),
      logger: createLogger({ level: 'silent' }),
    });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.close()));
  await core.store.close();
});

async function get(channel: DeliveryChannel, url: string, key?: string) {
  const res = await apps[channel].inject({
    method: 'GET',
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/** Authentication passed when the answer is anything but 401/403 (content routes come with the index). */
const passedAuth = (status: number) => status !== 401 && status !== 403;

describe('Delivery Preview API authentication (SPEC 5)', () => {
  it('always needs a preview key, and answers in the SPEC 7.3 shape', async () => {
    const { projectId } = await seedProject(core, ['preview_primary']);
    const res = await get('preview', `/${projectId}/items`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      message: expect.any(String),
      request_id: expect.any(String),
      error_code: 2,
      specific_code: 0,
    });
  });

  it('accepts the primary and the secondary preview key, and no other kind', async () => {
    const { projectId, keys } = await seedProject(core, [
      'preview_primary',
      'preview_secondary',
      'delivery_primary',
      'management',
    ]);
    expect(passedAuth((await get('preview', `/${projectId}/items`, keys.preview_primary?.value)).status)).toBe(true);
    expect(passedAuth((await get('preview', `/${projectId}/items`, keys.preview_secondary?.value)).status)).toBe(true);
    expect((await get('preview', `/${projectId}/items`, keys.delivery_primary?.value)).status).toBe(401);
    expect((await get('preview', `/${projectId}/items`, keys.management?.value)).status).toBe(401);
  });

  it("refuses another project's preview key with 403", async () => {
    const a = await seedProject(core, ['preview_primary']);
    const b = await seedProject(core, []);
    const res = await get('preview', `/${b.projectId}/items`, a.keys.preview_primary?.value);
    expect(res.status).toBe(403);
    expect(res.body['error_code']).toBe(3);
  });

  it('refuses a regenerated key with 401 (SPEC 3.3)', async () => {
    const { projectId, keys } = await seedProject(core, ['preview_primary']);
    const fresh = await regenerateApiKey(core, { actor: operator, keyId: keys.preview_primary?.id as string });
    expect((await get('preview', `/${projectId}/items`, keys.preview_primary?.value)).status).toBe(401);
    expect(passedAuth((await get('preview', `/${projectId}/items`, fresh.secret)).status)).toBe(true);
  });
});

describe('Delivery API access (SPEC 5)', () => {
  it('is public while secure access is off, and 404s for unknown projects', async () => {
    const { projectId } = await seedProject(core, []);
    const res = await get('production', `/${projectId}/items`);
    expect(passedAuth(res.status)).toBe(true);
    const unknown = await get('production', '/00000000-0000-4000-8000-0000000000aa/items');
    expect(unknown.status).toBe(404);
    expect(unknown.body['error_code']).toBe(104);
    expect((await get('production', '/not-a-project/items')).status).toBe(404);
  });

  it('needs a delivery key once secure access is on', async () => {
    const { projectId, keys } = await seedProject(core, ['delivery_primary', 'delivery_secondary', 'preview_primary']);
    await updateProject(core, { actor: operator, projectId, isSecureAccess: true });
    expect((await get('production', `/${projectId}/items`)).status).toBe(401);
    expect((await get('production', `/${projectId}/items`, keys.preview_primary?.value)).status).toBe(401);
    expect(passedAuth((await get('production', `/${projectId}/items`, keys.delivery_primary?.value)).status)).toBe(
      true,
    );
    expect(passedAuth((await get('production', `/${projectId}/items`, keys.delivery_secondary?.value)).status)).toBe(
      true,
    );
  });

  it('serves health, readiness and metrics without a key', async () => {
    expect((await get('preview', '/healthz')).status).toBe(200);
    expect((await get('preview', '/readyz')).status).toBe(200);
    const metrics = await apps.preview.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('service="preview"');
  });
});

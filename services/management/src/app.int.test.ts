import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createLogger, createProcessMetrics, createReadiness, type Readiness } from '@lectern/http-kit';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildManagementApp } from './app.ts';

const operatorToken = 'operator-token-for-tests-0123456789abcdef';
const uuid = /^[0-9a-f-]{36}$/;
let core: TestCore;
let app: Express;
let readiness: Readiness;

beforeAll(async () => {
  core = await openTestCore();
  readiness = createReadiness([() => core.store.ping()]);
  app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness,
    logger: createLogger({ level: 'silent' }),
    operatorToken,
  });
});
afterAll(async () => {
  await core.store.close();
});

const admin = (method: 'get' | 'post' | 'patch', path: string) =>
  request(app)[method](`/admin${path}`).set('authorization', `Bearer ${operatorToken}`);

async function projectCount(): Promise<number> {
  return (await core.store.transaction((tx) => tx.projects.list())).length;
}

describe('Management API authentication (SPEC 5, 7.2)', () => {
  it('answers a request without a key with 401 in the SPEC 7.2 shape', async () => {
    const { projectId } = await seedProject(core, []);
    const res = await request(app).get(`/v2/projects/${projectId}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ request_id: expect.stringMatching(uuid), error_code: 1, message: expect.any(String) });
  });

  it('returns the environment for a management key, with the scheme in any case', async () => {
    const { projectId, keys } = await seedProject(core, ['management']);
    const res = await request(app)
      .get(`/v2/projects/${projectId}`)
      .set('authorization', `bearer ${keys.management?.value}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: projectId, name: 'Test project', environment: 'Production', is_production: true });
  });

  it('refuses unknown, malformed and wrong-kind keys with 401', async () => {
    const { projectId, keys } = await seedProject(core, ['management', 'preview_primary']);
    const good = keys.management?.value as string;
    const tampered = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    for (const value of ['nonsense', tampered, keys.preview_primary?.value]) {
      const res = await request(app).get(`/v2/projects/${projectId}`).set('authorization', `Bearer ${value}`);
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBeGreaterThan(0);
    }
    const basic = await request(app).get(`/v2/projects/${projectId}`).set('authorization', `Basic ${good}`);
    expect(basic.status).toBe(401);
  });

  it("refuses another project's key with 403", async () => {
    const a = await seedProject(core, ['management']);
    const b = await seedProject(core, []);
    const res = await request(app)
      .get(`/v2/projects/${b.projectId}`)
      .set('authorization', `Bearer ${a.keys.management?.value}`);
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe(4);
  });

  it('refuses a regenerated key with 403 and error_code 7; the new key works (SPEC 3.2)', async () => {
    const { projectId, keys } = await seedProject(core, ['management']);
    const regenerated = await admin('post', `/keys/${keys.management?.id}/regenerate`);
    expect(regenerated.status).toBe(201);
    const old = await request(app)
      .get(`/v2/projects/${projectId}`)
      .set('authorization', `Bearer ${keys.management?.value}`);
    expect(old.status).toBe(403);
    expect(old.body.error_code).toBe(7);
    const fresh = await request(app)
      .get(`/v2/projects/${projectId}`)
      .set('authorization', `Bearer ${regenerated.body.api_key}`);
    expect(fresh.status).toBe(200);
  });

  it('refuses an expired key; management keys last 4,000 days by default', async () => {
    const { projectId } = await seedProject(core, []);
    const created = await admin('post', `/projects/${projectId}/keys`).send({
      kind: 'management',
      user_email: 'expiry@example.com',
    });
    expect(created.status).toBe(201);
    const lifetimeDays = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000;
    expect(lifetimeDays).toBe(4000);
    const auth = `Bearer ${created.body.api_key}`;
    core.clock.advance(3999 * 86_400_000);
    expect((await request(app).get(`/v2/projects/${projectId}`).set('authorization', auth)).status).toBe(200);
    core.clock.advance(2 * 86_400_000);
    const expired = await request(app).get(`/v2/projects/${projectId}`).set('authorization', auth);
    expect(expired.status).toBe(401);
    expect(expired.body.error_code).toBe(8);
    const listed = await admin('get', `/projects/${projectId}/keys`);
    expect(listed.body.keys[0].status).toBe('expired');
    core.clock.set(new Date('2026-01-01T00:00:00Z'));
  });

  it('authenticates before routing: unknown paths under a project need a key first', async () => {
    const { projectId, keys } = await seedProject(core, ['management']);
    expect((await request(app).get(`/v2/projects/${projectId}/no-such-thing`)).status).toBe(401);
    const res = await request(app)
      .get(`/v2/projects/${projectId}/no-such-thing`)
      .set('authorization', `Bearer ${keys.management?.value}`);
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBeGreaterThan(0);
    const post = await request(app)
      .post(`/v2/projects/${projectId}`)
      .set('authorization', `Bearer ${keys.management?.value}`);
    expect(post.status).toBe(405);
  });
});

describe('admin API', () => {
  it('needs the operator token', async () => {
    const res = await request(app).get('/admin/projects').set('authorization', 'Bearer wrong-token');
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe(9);
  });

  it('lists every problem of a bad body and stores nothing', async () => {
    const before = await projectCount();
    const res = await admin('post', '/projects').send({ name: 5, secure_access: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe(5);
    expect(res.body.validation_errors.map((v: { path: string }) => v.path).sort()).toEqual(['name', 'secure_access']);
    const blank = await admin('post', '/projects').send({ name: '   ' });
    expect(blank.status).toBe(400);
    const malformed = await admin('post', '/projects').set('content-type', 'application/json').send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe(5);
    expect(await projectCount()).toBe(before);
  });

  it('creates, renames and switches secure access on a project', async () => {
    const created = await admin('post', '/projects').send({ name: 'Site', environment: 'Staging' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Site', environment: 'Staging', secure_access: false });
    const updated = await admin('patch', `/projects/${created.body.id}`).send({ secure_access: true, name: 'Site 2' });
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Site 2', secure_access: true });
    const missing = await admin('patch', '/projects/00000000-0000-4000-8000-000000000000').send({ name: 'x' });
    expect(missing.status).toBe(404);
    const notUuid = await admin('get', '/projects/not-a-uuid');
    expect(notUuid.status).toBe(404);
  });

  it('keeps one active key per slot: a second create conflicts, regenerate replaces', async () => {
    const { projectId, keys } = await seedProject(core, ['preview_primary']);
    const again = await admin('post', `/projects/${projectId}/keys`).send({ kind: 'preview_primary' });
    expect(again.status).toBe(409);
    const secondary = await admin('post', `/projects/${projectId}/keys`).send({ kind: 'preview_secondary' });
    expect(secondary.status).toBe(201);
    const noUser = await admin('post', `/projects/${projectId}/keys`).send({ kind: 'management' });
    expect(noUser.status).toBe(400);
    expect(noUser.body.validation_errors[0].path).toBe('user');
    const badKind = await admin('post', `/projects/${projectId}/keys`).send({ kind: 'root' });
    expect(badKind.status).toBe(400);
    const listed = await admin('get', `/projects/${projectId}/keys`);
    expect(listed.body.keys.map((k: { kind: string }) => k.kind).sort()).toEqual([
      'preview_primary',
      'preview_secondary',
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(keys.preview_primary?.value);
  });

  it('lets only one of several concurrent regenerations of a key win', async () => {
    const { projectId, keys } = await seedProject(core, ['delivery_primary']);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => admin('post', `/keys/${keys.delivery_primary?.id}/regenerate`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const active = (await admin('get', `/projects/${projectId}/keys`)).body.keys.filter(
      (k: { status: string }) => k.status === 'active',
    );
    expect(active).toHaveLength(1);
  });
});

describe('operations endpoints', () => {
  it('serves health, readiness and request metrics', async () => {
    // The same liveness answer as every Fastify listener's (http-kit's livenessOfProcess).
    expect((await request(app).get('/healthz')).body).toEqual({
      status: 'ok',
      max_event_loop_delay_ms: expect.any(Number),
    });
    expect((await request(app).get('/readyz')).status).toBe(200);
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toMatch(
      /lectern_http_request_duration_seconds_count\{service="management",method="GET",route="\/readyz",status="200"\} \d+/,
    );
    readiness.drain();
    expect((await request(app).get('/readyz')).status).toBe(503);
  });
});

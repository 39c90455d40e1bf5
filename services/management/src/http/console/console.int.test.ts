import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWebhook, getProject, getWebhook, listApiKeys, listProjects, operator, revokeApiKey } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { createSqlRecsTracking } from '@lectern/recs-sql';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildManagementApp, createManagementServer } from '../../app.ts';

const operatorToken = 'console-test-operator-token-0123456789';
let core: TestCore;
let server: Listening;
let base: string;
let projectId: string;
let managementKey: { id: string; value: string };
let recsTracking: ReturnType<typeof createSqlRecsTracking>;

beforeAll(async () => {
  core = await openTestCore();
  recsTracking = createSqlRecsTracking({ db: core.store.db as never });
  const app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness: createReadiness([() => core.store.ping()]),
    logger: createLogger({ level: 'silent' }),
    operatorToken,
    trustedProxies: ['loopback'],
    recsTracking,
  });
  server = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0 });
  base = server.url;
  const seeded = await seedProject(core, ['management']);
  projectId = seeded.projectId;
  managementKey = seeded.keys.management as { id: string; value: string };
});
afterAll(async () => {
  await server.close();
  await core.store.close();
});

/** A browser's share of the console: its cookie jar and the last CSRF token it saw. */
class Browser {
  readonly cookies = new Map<string, string>();
  csrf = '';
  private readonly headers: Record<string, string>;
  constructor(headers: Record<string, string> = {}) {
    this.headers = headers;
  }

  async request(path: string, init: { method?: string; form?: Record<string, string> | URLSearchParams } = {}) {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...this.headers,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';') as [string];
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const body = await response.text();
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? this.csrf;
    return { status: response.status, headers: response.headers, body, location: response.headers.get('location') };
  }

  async signIn(token: string) {
    await this.request('/console/sign-in');
    return this.request('/console/sign-in', { form: { _csrf: this.csrf, token } });
  }
}

describe('the operator console', () => {
  it('sends a stranger to sign in, under a CSP without inline script', async () => {
    const browser = new Browser();
    const home = await browser.request('/console/projects');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/console/sign-in');
    const signIn = await browser.request('/console/sign-in');
    const csp = signIn.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // Every script element loads a file; none carries code.
    expect(signIn.body).toMatch(/<script src="\/console\/assets\/console\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(signIn.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(signIn.body).not.toMatch(/\son[a-z]+=/);
  });

  it('signs the operator in with an HttpOnly, SameSite=Strict cookie, Secure over HTTPS', async () => {
    const plain = new Browser();
    await plain.request('/console/sign-in');
    const answer = await plain.request('/console/sign-in', { form: { _csrf: plain.csrf, token: operatorToken } });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/console/projects');
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('lectern_console='));
    expect(cookie).toMatch(/; Path=\/console; HttpOnly; SameSite=Strict$/);
    expect((await plain.request('/console/projects')).body).toContain('Test project');

    const tls = new Browser({ 'x-forwarded-proto': 'https' });
    await tls.request('/console/sign-in');
    const secure = await tls.request('/console/sign-in', { form: { _csrf: tls.csrf, token: operatorToken } });
    const secureCookie = secure.headers.getSetCookie().find((c) => c.startsWith('lectern_console='));
    expect(secureCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('refuses a wrong token and a sign-in without its form token', async () => {
    const browser = new Browser();
    expect((await browser.signIn('not-the-token')).status).toBe(401);
    const forged = new Browser();
    const answer = await forged.request('/console/sign-in', { form: { _csrf: 'x', token: operatorToken } });
    expect(answer.status).toBe(403);
    expect(forged.cookies.has('lectern_console')).toBe(false);
  });

  it('refuses every change without the session CSRF token, and changes nothing', async () => {
    const browser = new Browser();
    await browser.signIn(operatorToken);
    const before = (await listProjects(core, { actor: operator })).length;
    const missing = await browser.request('/console/projects', { form: { name: 'No token' } });
    expect(missing.status).toBe(403);
    expect(missing.body).toContain('security token');
    const wrong = await browser.request('/console/projects', { form: { name: 'Wrong token', _csrf: 'a'.repeat(43) } });
    expect(wrong.status).toBe(403);
    // Another session's token is no good either.
    const other = new Browser();
    await other.signIn(operatorToken);
    await other.request('/console/projects');
    const stolen = await browser.request('/console/projects', { form: { name: 'Stolen token', _csrf: other.csrf } });
    expect(stolen.status).toBe(403);
    expect((await listProjects(core, { actor: operator })).length).toBe(before);

    await browser.request('/console/projects');
    const created = await browser.request('/console/projects', { form: { name: 'With token', _csrf: browser.csrf } });
    expect(created.status).toBe(303);
    expect((await listProjects(core, { actor: operator })).map((p) => p.name)).toContain('With token');
  });

  it('shows a receiver response with HTML and script as text', async () => {
    const webhook = await addWebhook(core, {
      actor: operator,
      projectId,
      format: 'vnext',
      body: {
        name: '<i>hook</i>',
        url: 'https://example.com/hook',
        secret: 's',
        delivery_triggers: { slot: 'published', events: 'all' },
      },
    });
    const now = core.clock.now();
    await core.store.transaction(async (tx) => {
      await tx.webhookQueue.enqueue([
        {
          projectId,
          webhookId: webhook.id,
          id: crypto.randomUUID(),
          eventSeq: 1,
          kind: 'content_item',
          body: {},
          createdAt: now,
        },
      ]);
      const [due] = await tx.webhookQueue.due({ projectId, webhookId: webhook.id, now, limit: 10 });
      await tx.webhookQueue.recordAttempt({
        ids: [due?.id as string],
        at: now,
        status: 500,
        response: '<script>alert("owned")</script><img src=x onerror=alert(1)>',
        isAccepted: false,
        durationMs: 3,
        nextAttemptAt: new Date(now.getTime() + 60_000),
      });
    });
    const browser = new Browser();
    await browser.signIn(operatorToken);
    const pageHtml = (await browser.request(`/console/projects/${projectId}/webhooks/${webhook.id}?filter=failing`))
      .body;
    expect(pageHtml).toContain(
      '&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(pageHtml).not.toContain('<script>alert');
    expect(pageHtml).not.toContain('<img src=x');
    expect(pageHtml).toContain('&lt;i&gt;hook&lt;/i&gt;');
    expect(pageHtml).toContain(`<td data-label="Attempts">1</td>`); // one attempt
  });

  it('limits a management key to its own project and ends the session when the key is revoked', async () => {
    const other = await seedProject(core, []);
    const browser = new Browser();
    const signedIn = await browser.signIn(managementKey.value);
    expect(signedIn.location).toBe(`/console/projects/${projectId}`);
    expect((await browser.request('/console/projects')).location).toBe(`/console/projects/${projectId}`);
    const overview = await browser.request(`/console/projects/${projectId}`);
    expect(overview.status).toBe(200);
    expect(overview.body).toContain('Content types');
    expect((await browser.request(`/console/projects/${other.projectId}`)).status).toBe(403);
    // Keys are the operator's (the same core rule as the admin API).
    expect((await browser.request(`/console/projects/${projectId}/keys`)).status).toBe(403);

    await revokeApiKey(core, { actor: operator, keyId: managementKey.id });
    expect((await browser.request(`/console/projects/${projectId}`)).location).toBe('/console/sign-in');
  });

  it('renames a project, turns secure access on, and regenerates and revokes keys through the core', async () => {
    const browser = new Browser();
    await browser.signIn(operatorToken);
    const seeded = await seedProject(core, ['delivery_primary']);
    const page = `/console/projects/${seeded.projectId}`;
    await browser.request(page);
    expect((await browser.request(page)).body).toMatch(/name="manual_tracking" value="on"\s*\/>/);
    const saved = await browser.request(page, {
      form: { _csrf: browser.csrf, name: 'Renamed', secure_access: 'on', manual_tracking: 'on' },
    });
    expect(saved.status).toBe(303);
    const project = await getProject(core, { actor: operator, projectId: seeded.projectId });
    expect([project.name, project.isSecureAccess]).toEqual(['Renamed', true]);
    // Recommendations now record visits only when the site says so, and the box shows it.
    expect(await recsTracking.isManualTracking(seeded.projectId)).toBe(true);
    expect((await browser.request(page)).body).toMatch(/name="manual_tracking" value="on"\s*checked/);
    // A bad name is a 400 page that names the problem, and changes nothing.
    const bad = await browser.request(page, { form: { _csrf: browser.csrf, name: '   ' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('must be 1 to 200 characters');
    expect((await getProject(core, { actor: operator, projectId: seeded.projectId })).name).toBe('Renamed');
    expect(await recsTracking.isManualTracking(seeded.projectId)).toBe(true);

    const old = seeded.keys.delivery_primary as { id: string; value: string };
    await browser.request(`${page}/keys`);
    const regenerated = await browser.request(`${page}/keys/${old.id}/regenerate`, { form: { _csrf: browser.csrf } });
    expect(regenerated.status).toBe(201);
    expect(regenerated.headers.get('cache-control')).toBe('no-store');
    const shown = /id="issued-key"[^>]*>([^<]+)</.exec(regenerated.body)?.[1] as string;
    const keys = await listApiKeys(core, { actor: operator, projectId: seeded.projectId });
    expect(keys.find((k) => k.id === old.id)?.status).toBe('revoked');
    const fresh = keys.find((k) => k.status === 'active') as { id: string };
    expect(shown).toContain(fresh.id.replaceAll('-', ''));
    expect((await browser.request(`${page}/keys`)).body).not.toContain(shown);

    const revoked = await browser.request(`${page}/keys/${fresh.id}/revoke`, { form: { _csrf: browser.csrf } });
    expect(revoked.status).toBe(303);
    const after = await listApiKeys(core, { actor: operator, projectId: seeded.projectId });
    expect(after.every((k) => k.status === 'revoked')).toBe(true);
    // A key of another project is not acted on from this one.
    const stray = await browser.request(`/console/projects/${projectId}/keys/${old.id}/revoke`, {
      form: { _csrf: browser.csrf },
    });
    expect(stray.status).toBe(404);
  });

  it('edits a webhook: name, URL and triggers change; secret, filters and workflow steps are kept', async () => {
    const hook = await addWebhook(core, {
      actor: operator,
      projectId,
      format: 'vnext',
      body: {
        name: 'Before',
        url: 'https://example.com/before',
        secret: 'kept-secret',
        delivery_triggers: {
          slot: 'published',
          events: 'specific',
          content_item: {
            enabled: true,
            actions: [
              {
                action: 'workflow_step_changed',
                transition_to: [
                  { workflow_identifier: { codename: 'default' }, step_identifier: { codename: 'published' } },
                ],
              },
            ],
            filters: { languages: [{ codename: 'default' }] },
          },
        },
      },
    });
    const browser = new Browser();
    await browser.signIn(operatorToken);
    const edit = `/console/projects/${projectId}/webhooks/${hook.id}/edit`;
    const form = await browser.request(edit);
    expect(form.body).toMatch(/value="content_item:workflow_step_changed"\s+checked/);
    const body = new URLSearchParams({
      _csrf: browser.csrf,
      name: 'After',
      url: 'https://example.com/after',
      secret: '',
    });
    body.append('slot', 'preview');
    body.append('events', 'specific');
    body.append('trigger', 'content_item:workflow_step_changed');
    body.append('trigger', 'asset:deleted');
    expect((await browser.request(edit, { form: body })).status).toBe(303);
    const after = await getWebhook(core, { actor: operator, projectId, format: 'vnext', id: hook.id });
    expect([after.name, after.url, after.secret]).toEqual(['After', 'https://example.com/after', 'kept-secret']);
    const triggers = after.triggers as Record<string, { enabled: boolean; actions: unknown[]; filters?: unknown }>;
    expect(triggers['slot']).toBe('preview');
    expect(triggers['content_item']?.actions).toEqual(
      (hook.triggers['content_item'] as { actions: unknown[] }).actions,
    );
    expect(triggers['content_item']?.filters).toEqual((hook.triggers['content_item'] as { filters: unknown }).filters);
    expect(triggers['asset']).toMatchObject({ enabled: true, actions: [{ action: 'deleted' }] });
    // A dead webhook given a new URL is revived (SPEC 3.1); the same URL leaves it dead.
    await core.store.transaction((tx) =>
      tx.webhooks.updateHealth(projectId, hook.id, {
        health: 'dead',
        failingSince: core.clock.now(),
        lastAcceptedAt: null,
        resetHandledAt: null,
        failureMailedAt: null,
      }),
    );
    const same = new URLSearchParams(body);
    same.set('_csrf', browser.csrf);
    await browser.request(edit, { form: same });
    const health = async () =>
      (await getWebhook(core, { actor: operator, projectId, format: 'vnext', id: hook.id })).health;
    expect(await health()).toBe('dead');
    same.set('url', 'https://example.com/revived');
    await browser.request(edit, { form: same });
    expect(await health()).toBe('unknown');
    // Nothing chosen is a 400 page naming the problem; the webhook stays as it was.
    const none = await browser.request(edit, {
      form: { _csrf: browser.csrf, name: 'X', url: 'https://example.com/x', slot: 'published', events: 'specific' },
    });
    expect(none.status).toBe(400);
    expect(none.body).toContain('Select at least one trigger');
    expect((await getWebhook(core, { actor: operator, projectId, format: 'vnext', id: hook.id })).name).toBe('After');
  });

  it('serves its script and stylesheet with a year of caching', async () => {
    const browser = new Browser();
    const signIn = await browser.request('/console/sign-in');
    for (const path of signIn.body.match(/\/console\/assets\/console\.[0-9a-f]{12}\.(?:js|css)/g) ?? []) {
      const asset = await browser.request(path);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect(signIn.body.match(/\/console\/assets\//g)?.length).toBe(2);
  });
});

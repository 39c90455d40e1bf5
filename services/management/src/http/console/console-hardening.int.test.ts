import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildManagementApp, createManagementServer, type ManagementAppOptions } from '../../app.ts';

/*
 * Issue 27, findings 7, 9 and 10: console sign-in is throttled per client, cookies are Secure
 * whenever the public URL is https, and one management key cannot end other people's sessions.
 */

const operatorToken = 'hardening-test-operator-token-0123456789';
let core: TestCore;
const servers: Listening[] = [];

beforeAll(async () => {
  core = await openTestCore();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await core.store.close();
});

async function startConsole(options: Partial<ManagementAppOptions> = {}) {
  const logger = createLogger({ level: 'silent' });
  const app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger,
    operatorToken,
    ...options,
  });
  const server = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0 });
  servers.push(server);
  return { base: server.url, logger };
}

/** One browser: a cookie jar and the last CSRF token it saw; `headers` go with every request. */
function browser(base: string, headers: Record<string, string> = {}) {
  const cookies = new Map<string, string>();
  let csrf = '';
  const request = async (path: string, form?: Record<string, string>) => {
    const response = await fetch(`${base}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...headers,
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';') as [string];
      const at = pair.indexOf('=');
      if (pair.slice(at + 1) === '') cookies.delete(pair.slice(0, at));
      else cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const body = await response.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    return {
      status: response.status,
      headers: response.headers,
      body,
      setCookies,
      location: response.headers.get('location'),
    };
  };
  return {
    request,
    cookies,
    async signIn(token: string) {
      await request('/console/sign-in');
      return request('/console/sign-in', { _csrf: csrf, token });
    },
  };
}

describe('console sign-in throttling (finding 7)', () => {
  it('answers 429 with Retry-After after 5 failures from one client, even for the right token, and not for other clients', async () => {
    const { base } = await startConsole({ trustedProxies: ['loopback'] });
    const attacker = browser(base, { 'x-forwarded-for': '198.51.100.7' });
    for (let i = 0; i < 5; i++) expect((await attacker.signIn(`guess-${i}`)).status).toBe(401);
    const locked = await attacker.signIn('guess-5');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(locked.body).toContain('Too many failed sign-ins');
    expect((await attacker.signIn(operatorToken)).status).toBe(429);
    const operator = browser(base, { 'x-forwarded-for': '203.0.113.20' });
    expect((await operator.signIn(operatorToken)).status).toBe(303);
  });
});

describe('console cookies behind a TLS proxy (finding 9)', () => {
  it('are Secure when the public URL is https, though the proxy is not trusted', async () => {
    const { base, logger } = await startConsole({ publicUrl: 'https://manage.example.com' });
    const warn = vi.spyOn(logger, 'warn');
    const signedIn = await browser(base, { 'x-forwarded-proto': 'https' }).signIn(operatorToken);
    expect(signedIn.status).toBe(303);
    const session = signedIn.setCookies.find((c) => c.startsWith('lectern_console='));
    expect(session).toMatch(/; Secure/);
    expect(warn).not.toHaveBeenCalled();
  });

  it('are not Secure over plain HTTP without a public URL, and an untrusted X-Forwarded-Proto: https is warned about once', async () => {
    const { base, logger } = await startConsole();
    const warn = vi.spyOn(logger, 'warn');
    const plain = await browser(base).signIn(operatorToken);
    expect(plain.setCookies.find((c) => c.startsWith('lectern_console='))).not.toMatch(/Secure/);
    expect(warn).not.toHaveBeenCalled();
    await browser(base, { 'x-forwarded-proto': 'https' }).signIn(operatorToken);
    await browser(base, { 'x-forwarded-proto': 'https' }).signIn(operatorToken);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toContain('LECTERN_MANAGEMENT_PUBLIC_URL');
  });
});

describe('console sessions per credential (finding 10)', () => {
  it("end only a key's own oldest sessions past 20, never the operator's", async () => {
    const { base } = await startConsole();
    const { projectId, keys } = await seedProject(core, ['management']);
    const key = keys.management?.value ?? '';
    const operator = browser(base);
    expect((await operator.signIn(operatorToken)).status).toBe(303);
    const keyBrowsers = [];
    for (let i = 0; i < 25; i++) {
      const b = browser(base);
      expect((await b.signIn(key)).location).toBe(`/console/projects/${projectId}`);
      keyBrowsers.push(b);
    }
    const stillIn = async (b: ReturnType<typeof browser>) => (await b.request('/console/projects')).status === 200;
    expect(await stillIn(operator)).toBe(true);
    const states = await Promise.all(
      keyBrowsers.map(async (b) => (await b.request(`/console/projects/${projectId}`)).status),
    );
    expect(states.slice(0, 5)).toEqual([303, 303, 303, 303, 303]);
    expect(states.slice(5).every((s) => s === 200)).toBe(true);
  });
});

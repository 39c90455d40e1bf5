import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';
import { startLocalProvider, type LocalProvider } from '../../../test/oidc-provider.ts';

/*
 * OpenID: single sign-on in Chromium, against `lectern start` and a real OpenID provider on a
 * loopback port (npm oidc-provider, its own sign-in and consent pages). Password sign-in is turned
 * off; the provider's `groups` claim maps `lectern-writers` to Content creator in one environment.
 */

const cli = fileURLToPath(new URL('../../../../../services/lectern/src/cli.ts', import.meta.url));
const providerName = 'Acme ID';

function lectern(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`lectern ${args.join(' ')}: ${err}`))));
  });
}

describe.skipIf(chromiumPath === null)('OpenID', () => {
  let provider: LocalProvider;
  let stack: EditorStack;
  let browser: Browser;
  let dataDir: string;
  let projectId: string;
  const callbacks: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-openid-'));
    provider = await startLocalProvider({
      ada: { email: 'Ada@Example.com', emailVerified: true, name: 'Ada Lovelace', groups: ['lectern-writers'] },
      eve: { email: 'eve@example.com', emailVerified: false, name: 'Eve', groups: ['lectern-writers'] },
      olga: { email: 'olga@example.com', emailVerified: true, name: 'Olga', groups: ['lectern-operators'] },
    });
    projectId = (
      JSON.parse(await lectern(['project', 'create', 'Docs', '--data-dir', dataDir, '--json'])) as { id: string }
    ).id;
    const secretFile = join(dataDir, 'oidc-client-secret');
    writeFileSync(secretFile, `${provider.clientSecret}\n`, { mode: 0o600 });
    // `lectern start` (started by the harness) inherits this worker's environment.
    Object.assign(process.env, {
      LECTERN_OIDC_ISSUER: provider.issuer,
      LECTERN_OIDC_CLIENT_ID: provider.clientId,
      LECTERN_OIDC_CLIENT_SECRET_FILE: secretFile,
      LECTERN_OIDC_SCOPES: 'openid email profile groups',
      LECTERN_OIDC_PROVIDER_NAME: providerName,
      LECTERN_OIDC_ROLE_CLAIM: 'groups',
      LECTERN_OIDC_ROLE_MAP: `lectern-writers=${projectId}:content-creator`,
      LECTERN_OIDC_OPERATOR_VALUE: 'lectern-operators',
      LECTERN_PASSWORD_SIGN_IN: 'false',
    });
    [stack, browser] = await Promise.all([startEditorStack({ dataDir, projectId }), launchBrowser()]);
    provider.setRedirectUris([`${stack.origin}/app/api/sso/callback`, `${stack.origin}/console/sso/callback`]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await provider?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const newPage = async (): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    page.on('request', (r) => {
      if (r.url().startsWith(`${stack.origin}/app/api/sso/callback`)) callbacks.push(r.url());
    });
    return page;
  };

  /** From the sign-in screen (the editor's, or the console's) through the provider's own sign-in and consent pages. */
  const signInAtProvider = async (page: Page, login: string, from = `${stack.appUrl}/sign-in`) => {
    await page.goto(from);
    await page.getByRole('link', { name: `Sign in with ${providerName}` }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any password the test provider takes');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  };

  const sessionStatus = (page: Page) => page.evaluate(async () => (await fetch('/app/api/session')).status);

  it('offers only "Sign in with <provider>" when password sign-in is off, and the password route refuses', async () => {
    const page = await newPage();
    await page.goto(`${stack.appUrl}/sign-in`);
    await expect.poll(() => page.getByRole('link', { name: `Sign in with ${providerName}` }).count()).toBe(1);
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-sso');
    const refused = await fetch(`${stack.origin}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'whatever it is' }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain('turned off');
    // An invitation link cannot set a password either: its page says so and leads to the provider.
    await page.goto(await stack.invite('newcomer@example.com', 'reviewer'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    expect(await page.textContent('main')).toContain('turned off');
    expect(await page.getByLabel('New password').count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('link', { name: `Sign in with ${providerName}` }).count()).toBe(1);
    await page.context().close();
  });

  it('signs in through the provider: creates the user with the mapped role and lands in the project', async () => {
    const page = await newPage();
    await signInAtProvider(page, 'ada');
    await page.waitForURL(`${stack.appUrl}/p/${projectId}/**`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Content inventory');
    // Matched by e-mail in lower case, whatever case the provider sends.
    expect(await page.getByRole('banner').textContent()).toContain('ada@example.com');
    const session = await page.evaluate(async () => (await fetch('/app/api/session')).json());
    expect(session).toMatchObject({
      user: { email: 'ada@example.com' },
      projects: [{ id: projectId, name: 'Docs', roles: ['Content creator'] }],
    });
    const users = JSON.parse(await lectern(['users', 'list', projectId, '--data-dir', dataDir, '--json'])) as {
      email: string;
      roles: string[];
    }[];
    expect(users.find((u) => u.email === 'ada@example.com')?.roles).toEqual(['Content creator']);
    await page.context().close();
  });

  it('refuses a replayed answer of the provider and a forged state', async () => {
    const used = callbacks.find((u) => u.includes('code='));
    expect(used).toBeDefined();
    const page = await newPage();
    // The answer that signed Ada in, replayed in another browser: no sign-in of it was started here.
    await page.goto(used ?? '');
    await page.waitForURL(`${stack.appUrl}/sign-in?sso_error=SSO_STATE_INVALID`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not started here');
    expect(await sessionStatus(page)).toBe(401);

    // A sign-in started here, answered with another state than the one it sent.
    await page.goto(`${stack.appUrl}/sign-in`);
    const authorization = page.waitForRequest((r) => r.url().startsWith(`${provider.issuer}/auth`));
    await page.getByRole('link', { name: `Sign in with ${providerName}` }).click();
    const sent = new URL((await authorization).url()).searchParams.get('state');
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    expect(sent).toBeTruthy();
    await page.goto(`${stack.origin}/app/api/sso/callback?code=forged-code&state=forged-${sent}`);
    await page.waitForURL(`${stack.appUrl}/sign-in?sso_error=SSO_STATE_INVALID`);
    expect(await sessionStatus(page)).toBe(401);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses a person whose e-mail the provider has not verified, and creates no one', async () => {
    const page = await newPage();
    await signInAtProvider(page, 'eve');
    await page.waitForURL(`${stack.appUrl}/sign-in?sso_error=SSO_EMAIL_NOT_VERIFIED`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not verified');
    expect(await sessionStatus(page)).toBe(401);
    const users = JSON.parse(await lectern(['users', 'list', projectId, '--data-dir', dataDir, '--json'])) as {
      email: string;
    }[];
    expect(users.map((u) => u.email)).not.toContain('eve@example.com');
    await page.context().close();
  });

  it('signs an operator in to the console through the provider, and refuses a person it does not name', async () => {
    const page = await newPage();
    await page.goto(`${stack.origin}/console/sign-in`);
    expect(await axeViolations(page)).toEqual([]);
    await signInAtProvider(page, 'olga', `${stack.origin}/console/sign-in`);
    await page.waitForURL(`${stack.origin}/console/projects`);
    expect(await page.getByRole('link', { name: 'Docs' }).count()).toBe(1);
    await page.context().close();

    const writer = await newPage();
    await signInAtProvider(writer, 'ada', `${stack.origin}/console/sign-in`);
    await writer.waitForURL(`${stack.origin}/console/sign-in?sso_error=SSO_NOT_OPERATOR`);
    expect(await writer.textContent('body')).toContain('does not make you an operator');
    await writer.goto(`${stack.origin}/console/projects`);
    expect(new URL(writer.url()).pathname).toBe('/console/sign-in');
    await writer.context().close();
  });
});

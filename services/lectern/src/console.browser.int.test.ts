import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';
import { findChromium, launchChromium, screenshot } from './testing/console-browser.ts';

const operatorToken = 'browser-test-operator-token-0123456789';
const executable = findChromium();
if (executable === null) {
  if (process.env['CI'] === 'true') throw new Error('chromium is missing: scripts/lib/browser.sh installs it');
  console.warn('SKIPPING the console browser tests: no chromium on PATH (./scripts/test installs it)');
}

/** A webhook receiver on 127.0.0.1 that answers 200, or 500 with an HTML body when told to fail. */
interface Receiver {
  readonly url: string;
  readonly bodies: unknown[];
  isFailing: boolean;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const bodies: unknown[] = [];
  const state = { isFailing: false };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      if (state.isFailing) res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>down</h1><script>alert(1)</script>');
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A Management API call with a key, as a client makes it. */
async function mapi(base: string, key: string, path: string, method: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(executable === null)('the console in headless Chromium', () => {
  let dataDir: string;
  let server: EmbeddedServer;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;
  let console_: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-console-'));
    const config = loadConfig({
      settings: startSettings,
      env: {
        LECTERN_DATA_DIR: dataDir,
        LECTERN_PORT_BASE: '0',
        LECTERN_LOG_LEVEL: 'silent',
        LECTERN_DEMO: 'false',
        LECTERN_OPERATOR_TOKEN: operatorToken,
        LECTERN_WEBHOOKS_ALLOW_PRIVATE: 'true',
      },
    });
    server = await startEmbedded(config);
    console_ = `${server.urls.management}/console`;
    receiver = await startReceiver();
    browser = await launchChromium(executable as string);
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.urls.management });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in, creates a project and keys, registers a webhook, and follows a publish on the overview', async () => {
    await page.goto(console_);
    await expect.poll(() => page.url()).toContain('/console/sign-in');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Operator token or management API key').fill(operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();

    await page.getByLabel('Name').fill('Console e2e');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Console e2e: overview' }).waitFor();
    const projectId = /projects\/([0-9a-f-]{36})/.exec(page.url())?.[1] as string;
    expect(projectId).toBeTruthy();

    // A management key, shown once, copied with the copy button.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Kind').selectOption('management');
    await page.getByLabel(/User e-mail/).fill('editor@example.com');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = (await page.locator('#issued-key').textContent()) as string;
    expect(shown.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy the new key' }).click();
    await page.getByRole('button', { name: 'Copied to the clipboard' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(shown);
    await page.getByLabel('Kind').selectOption('delivery_primary');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'keys');
    // Shown once: the list never carries a value again.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Keys', level: 2 }).waitFor();
    expect(await page.locator('#issued-key').count()).toBe(0);

    // The new key works on the Management API.
    const base = `${server.urls.management}/v2/projects/${projectId}`;
    expect((await mapi(base, shown, '/types', 'GET')).status).toBe(200);

    // A webhook for published content items, against the local receiver.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name').fill('Local receiver');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByText('Ready for message').first().waitFor();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await screenshot(page, 'webhooks');
    // Edit: add a trigger, keep the rest.
    await page.getByRole('link', { name: 'Edit Local receiver' }).click();
    await page.getByRole('group', { name: 'content item' }).getByLabel('created').check();
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Webhook saved.').waitFor();
    await page.getByRole('link', { name: 'Edit Local receiver' }).click();
    expect(await page.getByRole('group', { name: 'content item' }).getByLabel('created').isChecked()).toBe(true);
    expect(await page.getByRole('group', { name: 'content item' }).getByLabel('published', { exact: true }).isChecked()).toBe(true);

    // The overview refreshes itself while content is published through the Management API.
    await page.getByRole('link', { name: 'Overview' }).click();
    const stat = (name: string) => page.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]');
    expect(await stat('Published variants').textContent()).toBe('0');
    expect(
      (
        await mapi(base, shown, '/types', 'POST', {
          name: 'Note',
          codename: 'note',
          elements: [{ name: 'Title', codename: 'title', type: 'text' }],
        })
      ).status,
    ).toBe(201);
    for (const [path, method, body] of [
      ['/items', 'POST', { name: 'Hello', codename: 'hello', type: { codename: 'note' } }],
      ['/items/codename/hello/variants/codename/default', 'PUT', { elements: [{ element: { codename: 'title' }, value: 'Hi' }] }],
      ['/items/codename/hello/variants/codename/default/publish', 'PUT', undefined],
    ] as const)
      expect((await mapi(base, shown, path, method, body)).status).toBeLessThan(300);
    await expect.poll(() => stat('Published variants').textContent(), { timeout: 25_000, interval: 500 }).toBe('1');
    expect(await stat('Content items').textContent()).toBe('1');
    await expect.poll(() => stat('Delivery index').textContent(), { timeout: 25_000, interval: 500 }).toBe('0 events');
    await screenshot(page, 'overview');

    // Whether recommendation requests record visits is a project setting too.
    const manualTracking = page.getByLabel('Track visits manually');
    expect(await manualTracking.isChecked()).toBe(false);
    await manualTracking.check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await page.getByLabel('Track visits manually').isChecked()).toBe(true);
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings');

    // The embedded webhook worker delivers the publish: the list turns the webhook green by itself.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const health = () => page.locator('.health').first().textContent();
    await expect.poll(health, { timeout: 30_000, interval: 500 }).toBe('Working');
    expect(receiver.bodies.length).toBeGreaterThan(0);

    // The receiver fails: the next publish turns the webhook red and fills the debug list, whose
    // response column shows the receiver's HTML as text.
    receiver.isFailing = true;
    const variant = '/items/codename/hello/variants/codename/default';
    for (const [path, method, body] of [
      [`${variant}/new-version`, 'PUT', undefined],
      [variant, 'PUT', { elements: [{ element: { codename: 'title' }, value: 'Hi again' }] }],
      [`${variant}/publish`, 'PUT', undefined],
    ] as const)
      expect((await mapi(base, shown, path, method, body)).status).toBeLessThan(300);
    await expect.poll(health, { timeout: 30_000, interval: 500 }).toBe('Failing');
    await page.getByRole('link', { name: 'Local receiver', exact: true }).click();
    await page.getByRole('link', { name: 'Actively failing' }).click();
    await expect.poll(() => page.locator('#notifications tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.locator('pre.response').first().textContent()).toBe('<h1>down</h1><script>alert(1)</script>');
    expect(await page.locator('#notifications h1, #notifications script').count()).toBe(0);

    // The receiver recovers; a reset sends the last failed notification again and it is accepted.
    receiver.isFailing = false;
    const delivered = receiver.bodies.length;
    await page.getByRole('button', { name: 'Reset Local receiver' }).click();
    await page.getByText('Webhook reset').waitFor();
    await expect.poll(() => receiver.bodies.length, { timeout: 30_000, interval: 500 }).toBeGreaterThan(delivered);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(health, { timeout: 30_000, interval: 500 }).toBe('Working');

    // Disable and enable from the list; reset; the debug list's three filters.
    await page.getByRole('button', { name: 'Disable Local receiver' }).click();
    await page.getByText('Disabled', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Enable Local receiver' }).click();
    await page.getByRole('button', { name: 'Disable Local receiver' }).waitFor();
    await page.getByRole('button', { name: 'Reset Local receiver' }).click();
    await page.getByText('Webhook reset').waitFor();
    for (const filter of ['Failed at any time', 'Actively failing', 'All']) {
      await page.getByRole('link', { name: filter }).click();
      await expect.poll(() => page.getByRole('link', { name: filter }).getAttribute('aria-current')).toBe('page');
    }

    // Phone width: nothing is cut off horizontally but the tables, which scroll in their box.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone');
    await page.setViewportSize({ width: 1100, height: 800 });
  });

  it('is usable by keyboard alone: sign out, and sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab'); // the brand link
    await page.keyboard.press('Tab'); // the token field
    await page.keyboard.type(operatorToken);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { addWebhook, createApiKey, operator, type WebhookRecord } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { buildManagementApp, createManagementServer } from '@lectern/management';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { findChromium, launchChromium, screenshot } from './testing/console-browser.ts';

/*
 * The webhook pages in Chromium with delivery results written the way the delivery worker writes
 * them, through the webhook repository ports (health columns, queue attempts): SPEC 3.1's
 * colours, the SPEC 6.8 debug list and its filters, a receiver's HTML shown as text, and reset.
 */

const operatorToken = 'health-test-operator-token-0123456789';
const executable = findChromium();

describe.skipIf(executable === null)('webhook health and the debug list in headless Chromium', () => {
  let core: TestCore;
  let server: Listening;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  let webhook: WebhookRecord;

  /** What the worker records: one POST's outcome for one notification, and the webhook's health. */
  async function deliver(options: { kind: string; status: number; response: string; health: WebhookRecord['health'] }) {
    const now = core.clock.now();
    await core.store.transaction(async (tx) => {
      await tx.webhookQueue.enqueue([
        { projectId, webhookId: webhook.id, id: crypto.randomUUID(), eventSeq: 100 + Math.floor(Math.random() * 1e6), kind: options.kind, body: {}, createdAt: now },
      ]);
      const due = await tx.webhookQueue.due({ projectId, webhookId: webhook.id, now, limit: 10 });
      const isAccepted = options.status < 300;
      await tx.webhookQueue.recordAttempt({
        ids: due.map((n) => n.id),
        at: now,
        status: options.status,
        response: options.response,
        isAccepted,
        durationMs: 12,
        nextAttemptAt: isAccepted ? null : new Date(now.getTime() + 60_000),
      });
      await tx.webhooks.updateHealth(projectId, webhook.id, {
        health: options.health,
        failingSince: isAccepted ? null : now,
        lastAcceptedAt: isAccepted ? now : null,
        resetHandledAt: null,
        failureMailedAt: null,
      });
    });
  }

  beforeAll(async () => {
    core = await openTestCore();
    const app = buildManagementApp({
      core,
      metrics: createProcessMetrics(),
      readiness: createReadiness([() => core.store.ping()]),
      logger: createLogger({ level: 'silent' }),
      operatorToken,
    });
    server = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0 });
    projectId = (await seedProject(core, [])).projectId;
    webhook = await addWebhook(core, {
      actor: operator,
      projectId,
      format: 'vnext',
      body: { name: 'Shop cache', url: 'https://shop.example.com/hook', secret: 's', delivery_triggers: { slot: 'published', events: 'all' } },
    });
    browser = await launchChromium(executable as string);
    page = await (await browser.newContext({ viewport: { width: 1100, height: 800 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await core?.store.close();
  });

  const badge = () => page.locator('.health').first();
  const colour = () => page.evaluate<string>("getComputedStyle(document.querySelector('.health')).color");

  it('goes from ready to working to failing, lists the failures as text, and resets', async () => {
    const { secret: key } = await createApiKey(core, { actor: operator, projectId, kind: 'management', userEmail: 'ops@example.com' });
    // A project's management key signs in to that project alone.
    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel('Operator token or management API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    expect(await page.getByRole('link', { name: 'Projects' }).count()).toBe(0);
    expect(await badge().textContent()).toBe('Ready for message');
    const grey = await colour();

    await page.getByRole('link', { name: 'Shop cache', exact: true }).click();
    await deliver({ kind: 'content_item', status: 200, response: 'ok', health: 'working' });
    // The page refreshes itself: no reload.
    await expect.poll(() => badge().textContent(), { timeout: 15_000 }).toBe('Working');
    expect(await colour()).toBe('rgb(30, 122, 52)');

    await deliver({ kind: 'content_item', status: 500, response: '<h1>down</h1><script>alert(1)</script>', health: 'failing' });
    await expect.poll(() => badge().textContent(), { timeout: 15_000 }).toBe('Failing');
    expect(await colour()).toBe('rgb(179, 38, 30)');
    expect(await colour()).not.toBe(grey);
    await expect.poll(() => page.locator('#notifications tbody tr').count(), { timeout: 15_000 }).toBe(2);
    // The receiver's HTML is text on the page, never markup.
    expect(await page.locator('pre.response').first().textContent()).toBe('<h1>down</h1><script>alert(1)</script>');
    expect(await page.locator('#notifications h1, #notifications script').count()).toBe(0);
    await screenshot(page, 'webhook-failing');

    const rows = () => page.locator('#notifications tbody tr').count();
    await page.getByRole('link', { name: 'Actively failing' }).click();
    expect(await rows()).toBe(1);
    await page.getByRole('link', { name: 'Failed at any time' }).click();
    expect(await rows()).toBe(1);
    await page.getByRole('link', { name: 'All' }).click();
    expect(await rows()).toBe(2);

    await page.getByRole('button', { name: 'Reset Shop cache' }).click();
    await page.getByText('Webhook reset').waitFor();
    expect(await badge().textContent()).toBe('Ready for message');
    expect(await colour()).toBe(grey);

    await page.getByRole('button', { name: 'Disable Shop cache' }).click();
    expect(await badge().textContent()).toBe('Disabled');
  });
});

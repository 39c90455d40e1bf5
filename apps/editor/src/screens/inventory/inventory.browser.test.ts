import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  seedNotes,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';

/*
 * The Content inventory in Chromium against `lectern start`, over the demo project plus 130
 * notes (three pages of 50): filters, debounced search and sort kept in the URL, paging forward
 * and back, an item created through the Management API appearing without a reload, "Create
 * new", not-translated items with their fallback language, keyboard use, axe, and a phone.
 */

const password = 'correct horse battery staple';
const noteCount = 130;

describe.skipIf(chromiumPath === null)('the Content inventory', () => {
  let stack: EditorStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let contentUrl: string;
  let noteTypeId: string;

  /** The names in the table's first column, in order. */
  const names = () => page.locator('tbody th[scope=row] a').allTextContents();
  const status = () => page.locator('.inventory-status').textContent();

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    contentUrl = `${stack.appUrl}/p/${stack.projectId}/default/content`;
    noteTypeId = (await seedNotes(stack, { count: noteCount, prefix: 'Inventory note' })).typeId;
    context = await browser.newContext();
    page = await context.newPage();
    await acceptInvitation(page, await stack.invite('editor@example.com', 'content-creator'), password);
    await page.waitForURL(contentUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('lists every item with its type, step and dates, passes axe, and pages through a filter by content type', async () => {
    await expect.poll(status).toMatch(/^Page 1: 50 items$/);
    const firstRow = page.locator('tbody tr').first();
    expect(await firstRow.locator('td').nth(0).textContent()).toBeTruthy();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'inventory');

    await page.locator('summary', { hasText: 'Content types' }).click();
    await page.getByRole('checkbox', { name: 'Note' }).check();
    await page.waitForURL(new RegExp(`types=${noteTypeId}`));
    await expect.poll(status).toBe('Page 1: 50 items');
    expect((await names()).every((n) => n.startsWith('Inventory note'))).toBe(true);
    const seen = new Set(await names());
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(status).toBe('Page 2: 50 items');
    for (const name of await names()) seen.add(name);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(status).toBe('Page 3: 30 items (last page)');
    for (const name of await names()) seen.add(name);
    expect(seen.size).toBe(noteCount);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(status).toBe('Page 2: 50 items');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(status).toBe('Page 1: 50 items');
  });

  it('sorts by name both ways, searches by name after a pause, and keeps it all in the URL', async () => {
    await page.goto(`${contentUrl}?types=${noteTypeId}`);
    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL(/sort=name&dir=asc/);
    await expect.poll(async () => (await names())[0]).toBe('Inventory note 000');
    expect(await page.locator('th[aria-sort=ascending]').textContent()).toContain('Name');
    await page.getByRole('button', { name: 'Name' }).click();
    await expect.poll(async () => (await names())[0]).toBe('Inventory note 129');

    await page.getByLabel('Search by name').fill('note 12');
    await page.waitForURL(/q=note\+12/);
    await expect.poll(names).toEqual(Array.from({ length: 10 }, (_, i) => `Inventory note ${129 - i}`));
    await page.reload();
    expect(await page.getByLabel('Search by name').inputValue()).toBe('note 12');
    await expect.poll(names).toEqual(Array.from({ length: 10 }, (_, i) => `Inventory note ${129 - i}`));
    await page.goBack();
    await expect.poll(async () => (await names()).length).toBe(50);
  });

  it('shows an item created through the Management API without a reload', async () => {
    await page.goto(`${contentUrl}?types=${noteTypeId}&q=arrival`);
    await expect.poll(status).toBe('Page 1: 0 items (last page)');
    await seedNotes(stack, { count: 1, prefix: 'Live arrival' });
    await expect.poll(names, { timeout: 10_000 }).toEqual(['Live arrival 000']);
  });

  it('creates an item with "Create new" and opens it', async () => {
    await page.goto(contentUrl);
    await page.getByRole('button', { name: 'Create new' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new content item' });
    await dialog.getByLabel('Content type').selectOption({ label: 'Note' });
    await dialog.getByLabel('Name').fill('Made in the editor');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/items\/[0-9a-f-]{36}$/);
    const itemId = page.url().split('/').pop() ?? '';
    const item = await stack.mapi<{ name: string }>(`/items/${itemId}`);
    expect(item.json.name).toBe('Made in the editor');
    expect((await stack.mapi(`/items/${itemId}/variants/codename/default`)).status).toBe(200);
  });

  it('offers a reviewer no "Create new", and the server refuses the request forged anyway', async () => {
    const reviewer = await (await browser.newContext()).newPage();
    await acceptInvitation(reviewer, await stack.invite('reviewer@example.com', 'reviewer'), password);
    await reviewer.goto(contentUrl);
    await expect.poll(() => reviewer.locator('.inventory-status').textContent()).toMatch(/^Page 1: 50 items/);
    expect(await reviewer.getByRole('button', { name: 'Create new' }).count()).toBe(0);
    const forged = await reviewer.evaluate(async (projectId) => {
      const session = (await (await fetch('/app/api/session')).json()) as { csrf_token: string };
      const response = await fetch(`/app/api/v2/projects/${projectId}/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ name: 'Forged by a reviewer', type: { codename: 'note' } }),
      });
      return response.status;
    }, stack.projectId);
    expect(forged).toBe(403);
    expect((await stack.mapi('/items/codename/forged_by_a_reviewer')).status).toBe(404);
    await reviewer.context().close();
  });

  it('marks items without a variant in the language "Not translated", with the fallback language shown', async () => {
    const created = await stack.mapi('/languages', {
      method: 'POST',
      body: { name: 'German', codename: 'de', is_active: true, fallback_language: { codename: 'default' } },
    });
    expect(created.status).toBe(201);
    await page.goto(`${contentUrl}?types=${noteTypeId}&sort=name&dir=asc`);
    await page.getByLabel('Language').selectOption({ label: 'German' });
    await page.waitForURL(new RegExp(`/p/${stack.projectId}/de/content\\?types=`));
    await expect.poll(async () => (await names())[0]).toBe('Inventory note 000');
    const firstName = page.locator('tbody th[scope=row]').first();
    expect(await firstName.textContent()).toContain('Not translated (shows Default project language)');
  });

  it('is used by keyboard: a filter opened and chosen, a column sorted', async () => {
    await page.goto(contentUrl);
    await expect.poll(status).toMatch(/^Page 1: \d+ items/);
    await page.getByLabel('Search by name').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Content types');
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    await page.keyboard.press('Space');
    await page.waitForURL(/types=/);
    await page.getByRole('button', { name: 'Last modified' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/sort=last_modified&dir=asc/);
  });

  it('reads on a phone: no sideways scrolling of the page, axe clean', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${contentUrl}?types=${noteTypeId}`);
    await expect.poll(() => phone.locator('.inventory-status').textContent()).toBe('Page 1: 50 items');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'inventory-phone');
    await phone.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../../test/harness.ts';

/*
 * restore — issue 31's acceptance scenario (2) in Chromium against `lectern start`: a good
 * article is published, then a bad version of it is published through the Management API. In
 * the item's "Version history" a writer compares the two (rich text as a word diff, no HTML),
 * opens the good version read-only, restores it (a new draft, the history only grows) and
 * publishes it; the Delivery API then serves the good content again.
 */

const password = 'correct horse battery staple';
const good = { title: 'Flat white', body: '<p>A flat white is espresso with <strong>steamed</strong> milk.</p>' };
const bad = { title: 'Flat white!!!', body: '<p>A flat white is a large latte.</p>' };

interface VersionJson {
  id: string;
  number: number;
  operation: string;
  is_published: boolean;
  restored_from: { id: string } | null;
}

describe.skipIf(chromiumPath === null)('restore', () => {
  let stack: EditorStack;
  let browser: Browser;
  let page: Page;
  let itemId: string;
  let codename: string;
  const variantPath = () => `/items/${itemId}/variants/codename/default`;
  const put = async (path: string, body?: unknown) => {
    const answer = await stack.mapi(path, { method: 'PUT', ...(body === undefined ? {} : { body }) });
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  };
  const elements = (v: typeof good) => ({
    elements: [
      { element: { codename: 'title' }, value: v.title },
      { element: { codename: 'body' }, value: v.body },
    ],
  });
  const delivered = async () => {
    const response = await fetch(`${stack.urls['delivery']}/${stack.projectId}/items/${codename}`);
    if (response.status !== 200) return null;
    const json = (await response.json()) as { item: { elements: Record<string, { value: string }> } };
    return { title: json.item.elements['title']?.value, body: json.item.elements['body']?.value };
  };
  const versions = async () =>
    (await stack.mapi<{ versions: VersionJson[] }>(`${variantPath()}/versions`)).json.versions;
  const history = () => page.getByRole('region', { name: 'Version history' });

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    const type = await stack.mapi('/types', {
      method: 'POST',
      body: {
        name: 'Coffee article',
        codename: 'coffee_article',
        elements: [
          { name: 'Title', codename: 'title', type: 'text', is_required: true },
          { name: 'Body', codename: 'body', type: 'rich_text' },
        ],
      },
    });
    expect(type.status).toBe(201);
    const item = await stack.mapi<{ id: string; codename: string }>('/items', {
      method: 'POST',
      body: { name: 'Flat white', type: { codename: 'coffee_article' } },
    });
    itemId = item.json.id;
    codename = item.json.codename;
    await put(variantPath(), elements(good));
    await put(`${variantPath()}/publish`);
    // The bad publish: a new version with wrong content, published at once.
    await put(`${variantPath()}/new-version`);
    await put(variantPath(), elements(bad));
    await put(`${variantPath()}/publish`);
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('lists every saved version with the person, step and published badge', async () => {
    await expect.poll(async () => (await delivered())?.title ?? 'not delivered').toBe(bad.title);
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`);
    await history().getByRole('button', { name: 'Show version history' }).click();
    const rows = history().locator('li.history-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(5);
    const newest = rows.first();
    expect(await newest.textContent()).toMatch(/Version 5.*Current.*Published/);
    expect(await newest.textContent()).toMatch(/through the Management API/);
    expect(await history().locator('li[data-version="4"]').textContent()).toMatch(/2 elements changed/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('compares the good and the bad version: rich text as words, never HTML', async () => {
    await history().getByLabel('Compare Version 2').check();
    await history().getByLabel('Compare Version 5').check();
    await history().getByRole('button', { name: 'Compare selected versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare versions' });
    await dialog.getByText('From version 2 to version 5: 2 of 2 elements changed.').waitFor();
    const removed = await dialog.locator('del').allTextContents();
    const added = await dialog.locator('ins').allTextContents();
    expect(removed.join(' ')).toMatch(/espresso with steamed milk/);
    expect(added.join(' ')).toMatch(/large latte/);
    expect(await dialog.textContent()).not.toMatch(/<p>|<strong>/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'history-compare', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('restores the good version as a new draft after a confirmation, and Delivery serves it once published', async () => {
    const before = await versions();
    await history().getByRole('button', { name: 'Open Version 2' }).click();
    const dialog = page.getByRole('dialog', { name: /^Version 2 ·/ });
    await dialog.getByText('A flat white is espresso with steamed milk.').waitFor();
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    await dialog.getByText(/Its content becomes a new draft version/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore version 2' }).click();
    await history().getByText('Version 2 was restored as version 7, a new draft.').waitFor();
    await expect.poll(async () => page.getByLabel('Title', { exact: true }).inputValue()).toBe(good.title);

    const after = await versions();
    // History only grows: the old versions are untouched, a new version and the restore on top.
    expect(after.slice(2)).toEqual(before);
    expect(after.slice(0, 2).map((v) => v.operation)).toEqual(['restore', 'new_version']);
    expect(after[0]?.restored_from?.id).toBe(before.find((v) => v.number === 2)?.id);
    // Until published, Delivery still serves the bad version.
    expect((await delivered())?.title).toBe(bad.title);
    await history().locator('li[data-version="7"]').waitFor();
    await page
      .getByRole('textbox', { name: 'Body' })
      .getByText('espresso with steamed milk', { exact: false })
      .waitFor();
    // From the top: the rich text toolbar is sticky and would cover the text in a page scrolled down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'history');

    const workflow = page.getByRole('region', { name: 'Workflow', exact: true });
    await workflow.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish' }).getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(async () => (await delivered())?.title ?? 'not delivered', { timeout: 15_000 }).toBe(good.title);
    expect((await delivered())?.body).toBe(good.body);
    expect((await versions())[0]).toMatchObject({ number: 8, operation: 'publish', is_published: true });
  });
});

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
} from '../../../test/harness.ts';

/*
 * The item editor in Chromium against `lectern start` (demo project): a Content creator opens a
 * published article (read-only, saying why), creates a new version from the workflow panel,
 * edits, is warned before leaving with unsaved changes, saves, and the Management API has the
 * change; axe on the editor; a phone-width view; a Reviewer sees the same item read-only.
 */

const password = 'correct horse battery staple';

/** Serious and critical axe violations of the page, the rich text toolbar included. */
async function editorViolations(page: Page): Promise<string[]> {
  await axeViolations(page); // injects axe-core through the driver (the CSP refuses inline scripts)
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact?: string; nodes: { target: string[] }[] }[] };
    const run = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Result> } }).axe.run;
    const found = await run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return found.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe.skipIf(chromiumPath === null)('the item editor', () => {
  let stack: EditorStack;
  let browser: Browser;
  let page: Page;
  let reviewer: Page;
  let itemUrl: string;
  let itemId: string;

  const saveStatus = () => page.locator('#item-save-status').textContent();
  const title = (p: Page) => p.getByLabel('Title', { exact: true });

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    const items = await stack.mapi<{ items: { id: string; codename: string }[] }>('/items');
    itemId = items.json.items.find((i) => i.codename === 'caching_delivery_responses')?.id ?? '';
    itemUrl = `${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`;
    page = await (await browser.newContext()).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
    reviewer = await (await browser.newContext()).newPage();
    await acceptInvitation(reviewer, await stack.invite('reviewer@example.com', 'reviewer'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('opens a published item read-only, then a new version is edited, saved and stored', async () => {
    await page.goto(itemUrl);
    await page.getByText('This item is published. Create a new version to change it.').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await title(page).getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Create new version' }).click();
    await expect.poll(() => title(page).getAttribute('readonly'), { timeout: 15_000 }).toBeNull();
    await title(page).fill('Caching delivery responses, revised');
    await expect.poll(saveStatus, { timeout: 15_000 }).toBe('Unsaved changes');
    expect(await page.getByLabel('Slug').inputValue()).toBe('caching-delivery-responses-revised');
    expect(await editorViolations(page)).toEqual([]);
    await screenshot(page, 'item-editor');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(saveStatus, { timeout: 15_000 }).toBe('Saved');
    const variant = await stack.mapi<{ elements: { element: { id: string }; value: unknown; mode?: string }[] }>(
      `/items/${itemId}/variants/codename/default`,
    );
    const values = variant.json.elements.map((e) => e.value);
    expect(values).toContain('Caching delivery responses, revised');
    expect(values).toContain('caching-delivery-responses-revised');
  });

  it('asks before leaving with unsaved changes, and stays when the person declines', async () => {
    await page.goto(itemUrl);
    await title(page).fill('Not saved yet');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Content inventory' }).first().click();
    expect(asked).toBe('You have unsaved changes. Leave this page and lose them?');
    expect(page.url()).toBe(itemUrl);
    expect(await title(page).inputValue()).toBe('Not saved yet');
    // The app frame's language switch navigates without a link: asked too.
    asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.locator('#app-language').selectOption({ index: 1 });
    expect(asked).toBe('You have unsaved changes. Leave this page and lose them?');
    expect(page.url()).toBe(itemUrl);
    expect(await title(page).inputValue()).toBe('Not saved yet');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Content inventory' }).first().click();
    await page.waitForURL(/\/content/);
  });

  it('is usable at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(itemUrl);
    await title(page).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'item-editor-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows a Reviewer the item read-only, Save disabled with the reason', async () => {
    await reviewer.goto(itemUrl);
    await title(reviewer).waitFor();
    expect(await title(reviewer).getAttribute('readonly')).not.toBeNull();
    expect(await reviewer.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await reviewer.getByText('Your role lets you read this item but not change it.').count()).toBe(1);
  });
});

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
 * Issue 31's "audit" scenario in Chromium against `lectern start` (demo project): a Content
 * creator changes an item in the editor; a Project manager opens "Audit log", filters by that
 * person and sees the change (through the editor, by them, on that item); the Content creator has
 * no "Audit log" in the navigation; axe; the screenshot of the screen.
 */

const password = 'correct horse battery staple';

describe.skipIf(chromiumPath === null)('audit', () => {
  let stack: EditorStack;
  let browser: Browser;
  let writer: Page;
  let manager: Page;
  let itemId: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    const items = await stack.mapi<{ items: { id: string; codename: string }[] }>('/items');
    itemId = items.json.items.find((i) => i.codename === 'caching_delivery_responses')?.id ?? '';
    writer = await (await browser.newContext()).newPage();
    await acceptInvitation(writer, await stack.invite('writer@example.com', 'content-creator'), password);
    manager = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await acceptInvitation(manager, await stack.invite('manager@example.com', 'project-manager'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows a change made in the editor in the audit log, filtered by the person who made it', async () => {
    await writer.goto(`${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`);
    await writer.getByRole('button', { name: 'Create new version' }).click();
    const title = writer.getByLabel('Title', { exact: true });
    await expect.poll(() => title.getAttribute('readonly'), { timeout: 15_000 }).toBeNull();
    await title.fill('Caching delivery responses, audited');
    await writer.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => writer.locator('#item-save-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    // The Content creator may not read the log: no entry in the navigation.
    expect(
      await writer.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).count(),
    ).toBe(0);

    await manager.goto(`${stack.appUrl}/p/${stack.projectId}/default/content`);
    await manager.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).click();
    await manager.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await manager.getByLabel('Person').selectOption({ label: 'writer@example.com' });
    await manager.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => manager.url()).toContain('person=');
    const rows = manager.locator('.audit-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const texts = await rows.allInnerTexts();
    // Every row is the writer's; the save and the new version are there, through the editor, on the item.
    expect(texts.every((t) => t.includes('writer@example.com'))).toBe(true);
    const save = texts.find((t) => t.includes('variant.upsert'));
    expect(save).toBeDefined();
    expect(save).toContain('Editor');
    expect(save).toContain('caching_delivery_responses (default)');
    // The elements whose stored value the save changed (the title, the slug made from it, and
    // what the editor writes back in its own form).
    expect(save).toMatch(/\b[2-9] elements changed/);
    expect(texts.some((t) => t.includes('variant.new_version'))).toBe(true);
    expect(texts.some((t) => t.includes('manager@example.com'))).toBe(false);

    // Filtered to the manager: none of the writer's changes.
    await manager.getByLabel('Person').selectOption({ label: 'manager@example.com' });
    await manager.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => (await rows.allInnerTexts()).some((t) => t.includes('variant.upsert')), { timeout: 15_000 })
      .toBe(false);

    await manager.getByLabel('Person').selectOption({ label: 'writer@example.com' });
    await manager.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(async () => (await rows.allInnerTexts()).some((t) => t.includes('variant.upsert'))).toBe(true);
    expect(await axeViolations(manager)).toEqual([]);
    await screenshot(manager, 'audit-log');
  });
});

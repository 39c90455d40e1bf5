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
 * conflict (issue 31, acceptance scenario 1): two people, in two browser contexts, edit the same
 * item. Each sees the other on the item and which element they are editing. The first saves; the
 * second's save is refused with the conflict element by element, "Keep both where they don't
 * overlap" merges the other element, and the Management API then holds both people's changes.
 */

const password = 'correct horse battery staple';
type VariantAnswer = { elements: { element: { id: string }; value: unknown }[] };

describe.skipIf(chromiumPath === null)('conflict', () => {
  let stack: EditorStack;
  let browser: Browser;
  let ann: Page;
  let bob: Page;
  let itemUrl: string;
  let itemId: string;
  const ids: Record<string, string> = {};

  const valueOf = async (codename: string) => {
    const v = await stack.mapi<VariantAnswer>(`/items/${itemId}/variants/codename/default`);
    return v.json.elements.find((e) => e.element.id === ids[codename])?.value;
  };
  const status = (page: Page) => page.locator('#item-save-status').textContent();

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    const type = await stack.mapi<{ elements: { id: string; codename: string }[] }>('/types', {
      method: 'POST',
      body: {
        name: 'Briefing',
        codename: 'briefing',
        elements: [
          { name: 'Headline', codename: 'headline', type: 'text' },
          { name: 'Summary', codename: 'summary', type: 'text' },
          { name: 'Owner', codename: 'owner', type: 'text' },
        ],
      },
    });
    for (const e of type.json.elements) ids[e.codename] = e.id;
    const item = await stack.mapi<{ id: string }>('/items', {
      method: 'POST',
      body: { name: 'Launch briefing', type: { codename: 'briefing' } },
    });
    itemId = item.json.id;
    await stack.mapi(`/items/${itemId}/variants/codename/default`, {
      method: 'PUT',
      body: {
        elements: [
          { element: { codename: 'headline' }, value: 'Launch on Monday' },
          { element: { codename: 'summary' }, value: 'Draft summary' },
          { element: { codename: 'owner' }, value: 'Nobody yet' },
        ],
      },
    });
    itemUrl = `${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`;
    ann = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await acceptInvitation(ann, await stack.invite('ann.lee@example.com', 'content-creator'), password);
    bob = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await acceptInvitation(bob, await stack.invite('bob.ray@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows who else has the item open and which element they are editing, live', async () => {
    await ann.goto(itemUrl);
    await bob.goto(itemUrl);
    await ann.getByLabel('Headline').waitFor();
    await bob.getByLabel('Summary').waitFor();
    const annSees = ann.getByRole('region', { name: 'Also editing this item' });
    await annSees.getByText(/bob\.ray/).waitFor({ timeout: 15_000 });
    await bob
      .getByRole('region', { name: 'Also editing this item' })
      .getByText(/ann\.lee/)
      .waitFor({ timeout: 15_000 });
    // Bob goes to the Summary: Ann sees a marker on that element, and where he is in the bar.
    await bob.getByLabel('Summary').focus();
    const marker = ann.locator(`#item-el-${ids['summary']} .presence-marker`);
    await marker.waitFor({ timeout: 15_000 });
    expect(await marker.textContent()).toContain('bob.ray');
    expect(await annSees.textContent()).toContain('editing Summary');
    expect(await ann.locator(`#item-el-${ids['headline']} .presence-marker`).count()).toBe(0);
    expect(await axeViolations(ann)).toEqual([]);
    await screenshot(ann, 'presence', { fullPage: false });
  });

  it('refuses the second save with the conflict, merges the other element, and loses nothing', async () => {
    await ann.getByLabel('Headline').fill('Launch on Tuesday');
    await bob.getByLabel('Summary').fill('Summary written by Bob');
    await ann.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status(ann), { timeout: 15_000 }).toBe('Saved');
    expect(await valueOf('headline')).toBe('Launch on Tuesday');

    await bob.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = bob.getByRole('alert').filter({ hasText: 'Not saved' });
    await panel.waitFor({ timeout: 15_000 });
    // Who saved comes with the presence stream (polled each second): it may follow the panel.
    await expect
      .poll(() => panel.getByRole('heading').textContent(), { timeout: 10_000 })
      .toMatch(/ann\.lee.* saved this item while you were editing/);
    const headline = panel.getByRole('row', { name: /Headline/ });
    expect(await headline.textContent()).toContain('Launch on Tuesday');
    expect(await headline.textContent()).toContain('Launch on Monday');
    const summary = panel.getByRole('row', { name: /Summary/ });
    expect(await summary.textContent()).toContain('Summary written by Bob');
    expect(await status(bob)).toBe('Not saved');
    // The stored variant is Ann's: nothing of Bob's went over it.
    expect(await valueOf('headline')).toBe('Launch on Tuesday');
    expect(await valueOf('summary')).toBe('Draft summary');
    expect(await axeViolations(bob)).toEqual([]);
    await screenshot(bob, 'conflict');

    await panel.getByRole('button', { name: "Keep both where they don't overlap" }).click();
    await expect.poll(() => status(bob), { timeout: 15_000 }).toBe('Saved');
    expect(await bob.getByLabel('Headline').inputValue()).toBe('Launch on Tuesday');
    expect(await valueOf('headline')).toBe('Launch on Tuesday');
    expect(await valueOf('summary')).toBe('Summary written by Bob');
    expect(await valueOf('owner')).toBe('Nobody yet');
  });

  it('asks which value to keep where both changed the same element', async () => {
    await ann.reload();
    await bob.reload();
    await ann.getByLabel('Owner').fill('Ann');
    await bob.getByLabel('Owner').fill('Bob');
    await ann.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status(ann), { timeout: 15_000 }).toBe('Saved');
    await bob.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = bob.getByRole('alert').filter({ hasText: 'Not saved' });
    await panel.waitFor({ timeout: 15_000 });
    const owner = panel.getByRole('row', { name: /Owner/ });
    await owner.getByLabel('Theirs').check();
    await panel.getByRole('button', { name: "Keep both where they don't overlap" }).click();
    await expect.poll(() => status(bob), { timeout: 15_000 }).toBe('Saved');
    expect(await valueOf('owner')).toBe('Ann');
    expect(await valueOf('summary')).toBe('Summary written by Bob');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';
import { makePng } from '../../../test/real-mapi.ts';

/*
 * The asset library in Chromium against `lectern start`, signed in as a person (session cookie and
 * CSRF through /app/api): upload by the file input and by drag and drop, each with its progress
 * line, thumbnails loaded from the assets origin under the app's CSP, an asset's title saved,
 * keyboard use, axe, and a phone.
 */

const password = 'correct horse battery staple';

describe.skipIf(chromiumPath === null)('the asset library', () => {
  let stack: EditorStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let assetsUrl: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    assetsUrl = `${stack.appUrl}/p/${stack.projectId}/default/assets`;
    context = await browser.newContext();
    page = await context.newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
    await page.goto(assetsUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** Whether every thumbnail shown has loaded (the assets origin answered with an image). */
  const thumbnailsLoaded = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLImageElement>('.asset-grid img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );

  it('uploads through "Upload assets" and by dropping a file, shows progress and loads thumbnails', async () => {
    await page.getByRole('heading', { name: 'Assets', level: 1 }).waitFor();
    const before = await stack.mapi<{ assets: unknown[] }>('/assets');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload assets' }).click();
    await (await chooser).setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: makePng(320, 200) });
    await expect
      .poll(() => page.getByRole('progressbar', { name: 'Upload of harbour.png' }).getAttribute('value'))
      .toBe('100');

    const bytes = [...makePng(200, 320)];
    const dataTransfer = await page.evaluateHandle((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'tower.png', { type: 'image/png' }));
      return transfer;
    }, bytes);
    await page.dispatchEvent('.upload-drop', 'drop', { dataTransfer });
    await page.getByRole('button', { name: /tower\.png/ }).waitFor();
    await page.getByRole('button', { name: /harbour\.png/ }).waitFor();
    const after = await stack.mapi<{ assets: { file_name: string }[] }>('/assets');
    expect(after.json.assets.length).toBe(before.json.assets.length + 2);
    await expect.poll(thumbnailsLoaded).toBe(true);
    expect(await page.locator('.asset-grid img').first().getAttribute('src')).toMatch(/\?w=240&h=160&fit=crop$/);
  });

  it('saves a title by keyboard alone, passes axe, and is screenshotted', async () => {
    const tile = page.getByRole('button', { name: /harbour\.png/ });
    await tile.focus();
    await page.keyboard.press('Enter');
    // Opening moves focus to the detail's heading.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Harbour at dawn');
    expect(await page.getByLabel('Title').inputValue()).toBe('Harbour at dawn');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Saved', { exact: true }).waitFor();
    const listed = await stack.mapi<{ assets: { file_name: string; title: string | null }[] }>('/assets');
    expect(listed.json.assets.find((a) => a.file_name === 'harbour.png')?.title).toBe('Harbour at dawn');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'assets');
  });

  it('reads on a phone: no sideways scrolling, axe clean', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(assetsUrl);
    await phone.getByRole('button', { name: /Harbour at dawn/ }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'assets-phone');
    await phone.close();
  });

  it('lists the environment users for "Contributors" to a signed-in person only (GET /app/api/projects/{id}/users)', async () => {
    const path = `/app/api/projects/${stack.projectId}/users`;
    const listed = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, body: (await response.json()) as { users: { id: string; email: string }[] } };
    }, path);
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u) => u.email)).toContain('writer@example.com');
    expect(listed.body.users.every((u) => typeof u.id === 'string' && u.id.length > 0)).toBe(true);
    const anonymous = await fetch(`${stack.origin}${path}`);
    expect(anonymous.status).toBe(401);
  });

  it('shows a Reviewer the assets without upload or changes, and the server refuses a forged upload', async () => {
    const reviewer = await (await browser.newContext()).newPage();
    await acceptInvitation(reviewer, await stack.invite('reviewer@example.com', 'reviewer'), password);
    await reviewer.goto(assetsUrl);
    await reviewer.getByRole('button', { name: /Harbour at dawn/ }).click();
    await reviewer.getByText('Your role can view assets but not change them.').waitFor();
    for (const name of ['Upload assets', 'New folder', 'Save', 'Replace', 'Delete'])
      expect(await reviewer.getByRole('button', { name, exact: true }).count()).toBe(0);
    const forged = await reviewer.evaluate(async (projectId) => {
      const session = (await (await fetch('/app/api/session')).json()) as { csrf_token: string };
      const response = await fetch(`/app/api/v2/projects/${projectId}/files/forged.txt`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-csrf-token': session.csrf_token },
        body: 'forged',
      });
      return response.status;
    }, stack.projectId);
    expect(forged).toBe(403);
    expect(await axeViolations(reviewer)).toEqual([]);
    await reviewer.close();
  });
});

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
import { serveCustomApp, type CustomAppPage } from '../../../test/custom-app-page.ts';

/*
 * Custom app: an app bundled from the published @kontent-ai/custom-app-sdk 2.2.0, registered
 * through the Management API for the Content creator role, appears in a Content creator's
 * navigation (an app for Reviewers only does not), runs in its iframe and receives its context
 * (environment, user, roles, config, page) from the host.
 */

const password = 'correct horse battery staple';

describe.skipIf(chromiumPath === null)('custom app', () => {
  let stack: EditorStack;
  let browser: Browser;
  let app: CustomAppPage;
  let page: Page;
  let appId: string;

  beforeAll(async () => {
    // One after the other: a failed build of the app must not leave a started server behind.
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    app = await serveCustomApp();
    const roles = await stack.mapi<{ roles: { id: string; name: string }[] }>('/roles');
    const roleId = (name: string) => roles.json.roles.find((r) => r.name === name)?.id ?? '';
    const created = await stack.mapi<{ id: string }>('/custom-apps', {
      method: 'POST',
      body: {
        name: 'Harbour tools',
        codename: 'harbour_tools',
        source_url: app.url,
        config: '{"greeting":"Ahoy","limit":3}',
        allowed_roles: [{ id: roleId('Content creator') }],
        display_mode: 'fullScreen',
      },
    });
    if (created.status !== 201) throw new Error(`custom app: ${created.status} ${JSON.stringify(created.json)}`);
    appId = created.json.id;
    const other = await stack.mapi('/custom-apps', {
      method: 'POST',
      body: {
        name: 'Review board',
        codename: 'review_board',
        source_url: app.url,
        allowed_roles: [{ id: roleId('Reviewer') }],
      },
    });
    if (other.status !== 201) throw new Error(`custom app: ${other.status} ${JSON.stringify(other.json)}`);
    const dialogApp = await stack.mapi('/custom-apps', {
      method: 'POST',
      body: {
        name: 'Item helper',
        codename: 'item_helper',
        source_url: app.url,
        allowed_roles: [],
        display_mode: 'dialog',
      },
    });
    if (dialogApp.status !== 201) throw new Error(`custom app: ${dialogApp.status} ${JSON.stringify(dialogApp.json)}`);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await stack?.stop();
  });

  it('is in the navigation for its roles only, and gets its context from the host through the SDK', async () => {
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/content`);
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Harbour tools' }).click();
    await page.waitForURL(`**/apps/${appId}`);
    expect(await nav.getByRole('link', { name: 'Review board' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Harbour tools' }).getAttribute('aria-current')).toBe('page');

    const frame = page.frameLocator('iframe[title="Harbour tools"]');
    await frame.getByText('Context received').waitFor({ timeout: 20_000 });
    const value = (name: string) => frame.locator(`dd[data-name="${name}"]`).textContent();
    expect(await value('currentPage')).toBe('other');
    expect(await value('environmentId')).toBe(stack.projectId);
    expect(await value('userEmail')).toBe('writer@example.com');
    expect(await value('appConfig')).toBe('{"greeting":"Ahoy","limit":3}');
    expect(await value('pageTitle')).toBe('Harbour tools');
    const roles = JSON.parse((await value('userRoles')) ?? '[]') as { id: string }[];
    expect(roles.map((r) => r.id)).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'custom-app', { fullPage: false });
  });

  it('says so when the app is not one the person may use', async () => {
    const apps = await stack.mapi<{ custom_apps: { id: string; name: string }[] }>('/custom-apps');
    const board = apps.json.custom_apps.find((a) => a.name === 'Review board')?.id ?? '';
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/apps/${board}`);
    await page.getByRole('heading', { name: 'Custom app not found' }).waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
  });

  it('opens a dialog-mode app from the item editor with the item and language in its context', async () => {
    const items = await stack.mapi<{ items: { id: string; codename: string }[] }>('/items');
    const item = items.json.items[0];
    if (!item) throw new Error('the demo project has no items');
    const languages = await stack.mapi<{ languages: { id: string; is_default: boolean }[] }>('/languages');
    const languageId = languages.json.languages.find((l) => l.is_default)?.id;
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/items/${item.id}`);
    expect(
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Item helper' }).count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Item helper' }).click();
    const popup = page.getByRole('dialog', { name: 'Item helper' });
    const frame = popup.frameLocator('iframe[title="Item helper"]');
    await frame.getByText('Context received').waitFor({ timeout: 20_000 });
    const value = (name: string) => frame.locator(`dd[data-name="${name}"]`).textContent();
    expect(await value('currentPage')).toBe('itemEditor');
    expect(await value('contentItemId')).toBe(item.id);
    expect(await value('languageId')).toBe(languageId);
    // Not modal: the item's form stays usable beside it.
    const name = page.getByLabel('Content item name');
    await name.click();
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'custom-app-dialog', { fullPage: false });
    await popup.getByRole('button', { name: 'Close' }).click();
    expect(await popup.count()).toBe(0);
  });
});

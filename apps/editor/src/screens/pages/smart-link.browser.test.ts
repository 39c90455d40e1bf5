import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';
import { serveDemoSite, type DemoSite } from '../../../test/smart-link-site.ts';

/*
 * Smart Link: a demo site that loads the published @kontent-ai/smart-link bundle, on its own
 * origin, opened in Web Spotlight's page view in Chromium against `lectern start`. A Content
 * creator sees the page tree, hovers the heading (the SDK's edit button shows), clicks it (the
 * item opens beside the site, on the Title element), types a new title (the site shows it before
 * anything is saved), saves and publishes (the site shows it from the Delivery API), and adds an
 * existing page into the related-pages element with the site's add button.
 */

const password = 'correct horse battery staple';

interface Seeded {
  homeId: string;
  aboutId: string;
  contactId: string;
}

/** A landing page type, three pages (Home with About us as its subpage), published; a space rooted at Home. */
async function seed(stack: EditorStack, site: DemoSite): Promise<Seeded> {
  const type = await stack.mapi<{ id: string }>('/types', {
    method: 'POST',
    body: {
      name: 'Landing page',
      codename: 'landing_page',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
        { name: 'Subpages', codename: 'subpages', type: 'subpages' },
        { name: 'Related', codename: 'related', type: 'modular_content' },
      ],
    },
  });
  if (type.status !== 201) throw new Error(`type: ${type.status} ${JSON.stringify(type.json)}`);
  const page = async (name: string, slug: string, subpages: string[]) => {
    const item = await stack.mapi<{ id: string }>('/items', {
      method: 'POST',
      body: { name, type: { codename: 'landing_page' } },
    });
    const variant = await stack.mapi(`/items/${item.json.id}/variants/codename/default`, {
      method: 'PUT',
      body: {
        elements: [
          { element: { codename: 'title' }, value: name },
          { element: { codename: 'slug' }, value: slug, mode: 'custom' },
          { element: { codename: 'subpages' }, value: subpages.map((id) => ({ id })) },
        ],
      },
    });
    if (variant.status >= 300) throw new Error(`variant ${name}: ${variant.status} ${JSON.stringify(variant.json)}`);
    const published = await stack.mapi(`/items/${item.json.id}/variants/codename/default/publish`, { method: 'PUT' });
    if (published.status !== 204) throw new Error(`publish ${name}: ${published.status}`);
    return item.json.id;
  };
  const aboutId = await page('About us', 'about-us', []);
  const contactId = await page('Contact', 'contact', []);
  const homeId = await page('Welcome home', 'home', [aboutId]);
  const collections = await stack.mapi<{ collections: { id: string }[] }>('/collections');
  const space = await stack.mapi<{ id: string }>('/spaces', {
    method: 'POST',
    body: {
      name: 'Harbour site',
      codename: 'harbour_site',
      web_spotlight_root_item: { id: homeId },
      collections: collections.json.collections.map((c) => ({ id: c.id })),
    },
  });
  if (space.status !== 201) throw new Error(`space: ${space.status} ${JSON.stringify(space.json)}`);
  const config = await stack.mapi('/preview-configuration', {
    method: 'PUT',
    body: {
      space_domains: [{ space: { id: space.json.id }, domain: site.host }],
      preview_url_patterns: [
        {
          content_type: { id: type.json.id },
          url_patterns: [{ space: null, url_pattern: 'http://{Space}/page/{URLslug}?lang={Lang}' }],
        },
      ],
    },
  });
  if (config.status !== 200) throw new Error(`preview configuration: ${config.status} ${JSON.stringify(config.json)}`);
  return { homeId, aboutId, contactId };
}

describe.skipIf(chromiumPath === null)('Smart Link in the page view', () => {
  let stack: EditorStack;
  let browser: Browser;
  let site: DemoSite;
  let page: Page;
  let seeded: Seeded;
  const frame = (): FrameLocator => page.frameLocator('iframe.pages-frame');
  const panel = () => page.getByRole('complementary');

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    site = await serveDemoSite(stack.urls['delivery'] ?? '', stack.projectId);
    seeded = await seed(stack, site);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await stack?.stop();
  });

  it('shows the site beside its page tree; a click on the heading opens it, typed edits show before saving and after publishing', async () => {
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/content`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Web Spotlight' }).click();
    await page.waitForURL(`**/pages/${seeded.homeId}`);
    const tree = page.getByRole('navigation', { name: 'Pages' });
    await tree.getByRole('link', { name: 'About us' }).waitFor();
    expect(await tree.getByRole('link', { name: 'Welcome home' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Smart Link connected').waitFor({ timeout: 20_000 });
    const heading = frame().locator('h1');
    expect(await heading.textContent()).toBe('Welcome home');

    // Hovering shows the SDK's edit button; clicking it opens the item beside the site, on Title.
    await heading.hover();
    // (The page's own highlight, for the item, shows too: the heading is inside it.)
    await frame().locator('ksl-highlight[selected] #ksl-edit').first().waitFor({ state: 'visible' });
    expect(await frame().locator('ksl-highlight[selected]').count()).toBe(2);
    await heading.click();
    await panel().getByRole('heading', { name: 'Welcome home' }).waitFor();
    const title = panel().getByLabel('Title', { exact: true });
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true);

    // Published: a new version first (as in the item editor), then typing reaches the site unsaved.
    await panel().getByRole('button', { name: 'Create new version' }).click();
    await expect.poll(() => title.getAttribute('readonly'), { timeout: 15_000 }).toBeNull();
    await title.fill('Welcome to the harbour');
    await expect.poll(() => heading.textContent(), { timeout: 10_000 }).toBe('Welcome to the harbour');
    expect(await page.locator('#page-panel-status').textContent()).toBe('Unsaved changes');
    // A reloaded site (Refresh preview) reads published content, and gets the unsaved edits again.
    const marked = () =>
      frame()
        .locator('body')
        .evaluate(() => 'beforeRefresh' in window);
    await frame()
      .locator('body')
      .evaluate(() => Object.assign(window, { beforeRefresh: true }));
    await page.getByRole('button', { name: 'Refresh preview' }).click();
    await expect.poll(marked, { timeout: 10_000 }).toBe(false); // a new document
    await expect.poll(() => frame().locator('h1').textContent(), { timeout: 10_000 }).toBe('Welcome to the harbour');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'web-spotlight', { fullPage: false });

    await panel().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#page-panel-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    const published = await stack.mapi(`/items/${seeded.homeId}/variants/codename/default/publish`, { method: 'PUT' });
    expect(published.status).toBe(204);
    // The site reads published content: after publishing (and the refresh Lectern sends on the
    // change, or the person's "Refresh preview" while the Delivery API catches up) it has the title.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh preview' }).click();
          await page.getByText('Smart Link connected').waitFor({ timeout: 10_000 });
          return frame().locator('h1').textContent();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('Welcome to the harbour');
  });

  it('adds an existing page into the related pages with the site’s add button', async () => {
    // Published pages take no additions (the SDK disables its buttons): a new version first.
    const draft = await stack.mapi(`/items/${seeded.homeId}/variants/codename/default/new-version`, { method: 'PUT' });
    expect(draft.status).toBe(204);
    await page.reload();
    await page.getByText('Smart Link connected').waitFor({ timeout: 20_000 });
    const add = frame().locator('ksl-add-button');
    await frame().locator('section').hover();
    await add.first().click();
    await frame().locator('#insert-linked-item').click();
    const dialog = page.getByRole('dialog', { name: 'Insert existing items' });
    await dialog.getByLabel('Search by name').fill('Contact');
    await dialog.getByRole('button', { name: 'Insert Contact' }).click();
    await expect.poll(() => page.locator('#page-panel-status').textContent()).toBe('Unsaved changes');
    await panel().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#page-panel-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    const variant = await stack.mapi<{ elements: { element: { id: string }; value: unknown }[] }>(
      `/items/${seeded.homeId}/variants/codename/default`,
    );
    const type = await stack.mapi<{ elements: { id: string; codename: string }[] }>('/types/codename/landing_page');
    const related = type.json.elements.find((e) => e.codename === 'related')?.id;
    expect(variant.json.elements.find((e) => e.element.id === related)?.value).toEqual([{ id: seeded.contactId }]);
  });

  it('follows the site when it is navigated inside the frame (the current URL for a new tab)', async () => {
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/pages/${seeded.homeId}`);
    await page.getByText('Smart Link connected').waitFor({ timeout: 20_000 });
    const newTab = page.getByRole('link', { name: 'Open the preview in a new tab' });
    await expect.poll(() => newTab.getAttribute('href')).toBe(`${site.origin}/page/home?lang=default`);
    await frame().getByRole('link', { name: 'About us' }).click();
    await expect.poll(() => frame().locator('h1').textContent()).toBe('About us');
    await expect.poll(() => newTab.getAttribute('href')).toBe(`${site.origin}/page/about-us?lang=default`);
  });

  it('opens the same preview URL from the item editor ("Preview", new tab)', async () => {
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/items/${seeded.aboutId}`);
    const preview = page.getByRole('link', { name: 'Preview', exact: true });
    await preview.waitFor();
    expect(await preview.getAttribute('href')).toBe(`${site.origin}/page/about-us?lang=default`);
    expect(await preview.getAttribute('target')).toBe('_blank');
  });
});

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
} from '../../test/harness.ts';
import { serveCustomElementApiPage, type CustomElementApiPage } from '../../test/custom-element-api-page.ts';

/*
 * Custom element: a page written against Kontent.ai's documented Custom Elements JS API (the
 * `CustomElement` global, here from Lectern's /app/js-api script) in the item editor, in Chromium:
 * it gets its value, config and item, reads the Title element and sees it change, picks an image
 * through the host's asset dialog (selectAssets + getAssetDetails), and the value it sets is saved.
 */

const password = 'correct horse battery staple';
// A 2×1 PNG (red, blue).
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAN/gH/6KBfBAAAAABJRU5ErkJggg==',
  'base64',
);

describe.skipIf(chromiumPath === null)('custom element', () => {
  let stack: EditorStack;
  let browser: Browser;
  let element: CustomElementApiPage;
  let page: Page;
  let itemId: string;
  let ratingId: string;
  let assetId: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    element = await serveCustomElementApiPage(`${stack.appUrl}/js-api/custom-element/v1/custom-element.min.js`);
    const file = await fetch(`${stack.origin}/v2/projects/${stack.projectId}/files/pier.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.managementKey}`, 'content-type': 'image/png' },
      body: png,
    });
    const reference = (await file.json()) as { id: string; type: string };
    const asset = await stack.mapi<{ id: string }>('/assets', {
      method: 'POST',
      body: { file_reference: reference, title: 'Pier at dawn' },
    });
    if (asset.status !== 201) throw new Error(`asset: ${asset.status} ${JSON.stringify(asset.json)}`);
    assetId = asset.json.id;
    const type = await stack.mapi<{ id: string; elements: { id: string; codename: string }[] }>('/types', {
      method: 'POST',
      body: {
        name: 'Review',
        codename: 'review',
        elements: [
          { name: 'Title', codename: 'title', type: 'text' },
          {
            name: 'Rating',
            codename: 'rating',
            type: 'custom',
            source_url: element.url,
            json_parameters: '{"label":"Stars (0 to 5)"}',
            allowed_elements: [{ codename: 'title' }],
          },
        ],
      },
    });
    if (type.status !== 201) throw new Error(`type: ${type.status} ${JSON.stringify(type.json)}`);
    ratingId = type.json.elements.find((e) => e.codename === 'rating')?.id ?? '';
    const item = await stack.mapi<{ id: string }>('/items', {
      method: 'POST',
      body: { name: 'Harbour café review', type: { codename: 'review' } },
    });
    itemId = item.json.id;
    await stack.mapi(`/items/${itemId}/variants/codename/default`, {
      method: 'PUT',
      body: { elements: [{ element: { codename: 'title' }, value: 'Coffee by the water' }] },
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await element?.close();
    await stack?.stop();
  });

  it('runs a page written for the Custom Elements JS API: context, other elements, asset dialog, saved value', async () => {
    await page.goto(`${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`);
    const frame = page.frameLocator('iframe[title="Rating"]');
    await frame.getByText('Ready in Harbour café review (default)').waitFor({ timeout: 20_000 });
    expect(await frame.locator('#label').textContent()).toBe('Stars (0 to 5)');
    expect(await frame.locator('#title').textContent()).toBe('Coffee by the water');
    // setHeight(240) sizes the iframe.
    await expect
      .poll(() => page.locator('iframe[title="Rating"]').evaluate((f) => f.getBoundingClientRect().height))
      .toBe(240);

    // Another element changes: the page is told and reads it again.
    await page.getByLabel('Title', { exact: true }).fill('Coffee and cake by the water');
    await expect.poll(() => frame.locator('#title').textContent()).toBe('Coffee and cake by the water');

    await frame.getByLabel('Stars (0 to 5)').fill('4');
    await frame.getByRole('button', { name: 'Choose an image' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByRole('button', { name: /pier\.png|Pier at dawn/ })
      .first()
      .click();
    await expect.poll(() => frame.locator('#image').textContent()).toBe('pier.png (2×1)');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'custom-element', { fullPage: false });

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#item-save-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    const variant = await stack.mapi<{
      elements: { element: { id: string }; value: unknown; searchable_value?: string }[];
    }>(`/items/${itemId}/variants/codename/default`);
    const saved = variant.json.elements.find((e) => e.element.id === ratingId);
    expect(JSON.parse(String(saved?.value))).toEqual({ rating: '4', image: assetId });
    expect(saved?.searchable_value).toBe('4 stars');
  });
});

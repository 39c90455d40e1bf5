import type { Locator, Page } from 'playwright-core';
import { makePng } from './real-mapi.ts';

/*
 * How the acceptance scenario's writer fills the "Every element" form, as a person does: by
 * keyboard in the rich text, through the dialogs (link, image upload, component, assets, items),
 * and in the custom element's own frame. What the Delivery API must then answer is in
 * every-element-delivery.ts.
 */

const field = (page: Page, codename: string) => page.locator(`.element-field[data-codename="${codename}"]`);

/**
 * Body: a heading, a paragraph linked to "Opening hours", a two-item list, harbour.png uploaded
 * through the image picker, a Callout component, and a 3×3 table with "Day" and "Hours".
 */
export async function fillRichText(page: Page, body: Locator): Promise<void> {
  const settle = () => page.waitForTimeout(80); // ProseMirror reads the page's selection after it settles
  await body.click();
  await page.keyboard.press('Control+Alt+2');
  await page.keyboard.type('Open from March');
  await page.keyboard.press('Enter');
  await page.keyboard.type('See the opening hours.');
  await settle();
  await page.keyboard.press('Shift+Home');
  await settle();
  await page.keyboard.press('Control+k');
  const link = page.getByRole('dialog', { name: 'Insert link' });
  await link.getByRole('radio', { name: 'Content item' }).check();
  await link.getByRole('button', { name: /Opening hours/ }).click();
  await link.getByRole('button', { name: 'Insert' }).click();
  await body.locator('a.rt-link-item', { hasText: 'See the opening hours.' }).waitFor();
  // A person clicks after the text and waits a moment before typing: the selection must have
  // moved off the linked text, or Enter would replace it.
  await body.locator('p').last().click();
  await settle();
  await page.keyboard.press('End');
  await settle();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Shift+8');
  await page.keyboard.type('Coffee');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Cake');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await settle();

  await page.getByRole('button', { name: 'Insert image' }).click();
  const images = page.getByRole('dialog', { name: 'Insert images' });
  const chooser = page.waitForEvent('filechooser');
  await images.getByRole('button', { name: 'Upload assets' }).click();
  await (await chooser).setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: makePng(320, 200) });
  await images.getByRole('button', { name: /harbour\.png/ }).click();
  await body.locator('figure img').waitFor();

  await page.getByRole('button', { name: 'Insert new component' }).click();
  await page.getByRole('dialog', { name: 'Insert new component' }).getByRole('button', { name: 'Callout' }).click();
  await page.getByLabel('Callout text').fill('Bring an umbrella');

  await page.getByRole('button', { name: 'Insert table' }).click();
  await settle();
  await page.keyboard.type('Day');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Hours');
  await settle();
}

/** The Details group: number, date and time (Prague), choices, asset, linked items, taxonomy, custom, snippet. */
export async function fillDetails(page: Page): Promise<void> {
  await page.getByLabel('Count', { exact: true }).fill('42.5');
  await field(page, 'starts_at').getByLabel('Time zone').selectOption('Europe/Prague');
  await page.getByLabel('Starts at', { exact: true }).fill('2027-03-01T08:30');
  await page.getByRole('checkbox', { name: 'Red' }).check();
  await page.getByRole('checkbox', { name: 'Blue' }).check();

  await field(page, 'picture').getByRole('button', { name: 'Insert assets' }).click();
  const assets = page.getByRole('dialog', { name: 'Insert assets' });
  await assets.getByRole('button', { name: /harbour\.png/ }).click();
  await assets.getByRole('button', { name: 'Insert', exact: true }).click();
  await field(page, 'picture').getByText('harbour.png').waitFor();

  for (const codename of ['related', 'subpages']) {
    await field(page, codename).getByRole('button', { name: 'Insert existing items' }).click();
    await page
      .getByRole('dialog', { name: 'Insert existing items' })
      .getByRole('button', { name: 'Insert Opening hours' })
      .click();
    await field(page, codename).getByRole('link', { name: 'Opening hours' }).waitFor();
  }
  await page.getByRole('checkbox', { name: 'Spring' }).check();
  await page.getByRole('checkbox', { name: 'Late summer' }).check();
  const rating = page.frameLocator('iframe[title="Rating"]');
  await rating.getByText('Ready').waitFor();
  await rating.getByLabel('Stars (0 to 5)').fill('4');
  await rating.getByText('Sent').waitFor();
  await page.getByLabel('Meta title', { exact: true }).fill('Harbour café opens in spring');
}

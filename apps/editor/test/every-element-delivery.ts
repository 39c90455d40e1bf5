/*
 * What the Delivery API must answer for the acceptance scenario's item: every element as the
 * writer entered it through the editor, in the Delivery API's own shapes (reference:
 * /work/shared/reference/delivery-apis.md — snippet elements flattened as `snippet__element`,
 * subpages as `modular_content`, date & time with its `display_timezone`, components as
 * `<object … data-rel="component">` named by their id).
 */

export interface EnteredValues {
  readonly title: string;
  readonly slug: string;
  /** The uploaded image as the Management API lists it. */
  readonly asset: { readonly id: string; readonly url: string; readonly size: number };
  /** The item linked from the rich text, the linked items and the subpages. */
  readonly page: { readonly id: string; readonly codename: string };
  /** The rich text component's id (the Management API's variant holds it). */
  readonly componentId: string;
}

/** A component's codename in the Delivery API: its id with underscores, after an `n` when it starts with a digit. */
export function componentCodename(id: string): string {
  const base = id.replace(/-/g, '_');
  return /^[0-9]/.test(base) ? `n${base}` : base;
}

const row = (cells: readonly string[]) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;

export function expectedElements(v: EnteredValues): Record<string, unknown> {
  const a = v.asset.id;
  const image = `<img src="${v.asset.url}" data-asset-id="${a}" data-image-id="${a}" alt="">`;
  const body = [
    '<h2>Open from March</h2>',
    `<p><a data-item-id="${v.page.id}" href="">See the opening hours.</a></p>`,
    '<ul><li>Coffee</li><li>Cake</li></ul>',
    `<figure data-asset-id="${a}" data-image-id="${a}">${image}</figure>`,
    `<object type="application/kenticocloud" data-type="item" data-rel="component" data-codename="${componentCodename(v.componentId)}"></object>`,
    `<table><tbody>${row(['Day', 'Hours', ''])}${row(['', '', ''])}${row(['', '', ''])}</tbody></table>`,
  ].join('');
  return {
    title: { type: 'text', name: 'Title', value: v.title },
    body: {
      type: 'rich_text',
      name: 'Body',
      images: { [a]: { image_id: a, description: null, url: v.asset.url, width: 320, height: 200 } },
      links: { [v.page.id]: { codename: v.page.codename, type: 'page', url_slug: '' } },
      modular_content: [componentCodename(v.componentId)],
      value: body,
    },
    count: { type: 'number', name: 'Count', value: 42.5 },
    // 08:30 on 1 March 2027 in Prague (CET, UTC+1).
    starts_at: {
      type: 'date_time',
      name: 'Starts at',
      value: '2027-03-01T07:30:00Z',
      display_timezone: 'Europe/Prague',
    },
    colours: {
      type: 'multiple_choice',
      name: 'Colours',
      value: [
        { name: 'Red', codename: 'red' },
        { name: 'Blue', codename: 'blue' },
      ],
    },
    picture: {
      type: 'asset',
      name: 'Picture',
      value: [
        {
          name: 'harbour.png',
          description: null,
          type: 'image/png',
          size: v.asset.size,
          url: v.asset.url,
          width: 320,
          height: 200,
          renditions: {},
        },
      ],
    },
    related: { type: 'modular_content', name: 'Related pages', value: [v.page.codename] },
    seasons: {
      type: 'taxonomy',
      name: 'Seasons',
      taxonomy_group: 'seasons',
      value: [
        { name: 'Spring', codename: 'spring' },
        { name: 'Late summer', codename: 'late_summer' },
      ],
    },
    slug: { type: 'url_slug', name: 'Slug', value: v.slug },
    rating: { type: 'custom', name: 'Rating', value: '4' },
    subpages: { type: 'modular_content', name: 'Subpages', value: [v.page.codename] },
    metadata__meta_title: { type: 'text', name: 'Meta title', value: 'Harbour café opens in spring' },
  };
}

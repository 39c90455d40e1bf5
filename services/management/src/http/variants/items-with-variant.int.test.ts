import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/language-variants';
let server: TestManagement;
const ids: Record<string, string> = {};
let spanishId: string;

async function call(path: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await server.fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function item(codename: string, type: string, elements: unknown[], collection = 'default') {
  const created = await call('/items', 'POST', {
    name: codename.replace('_', ' '),
    codename,
    type: { codename: type },
    collection: { codename: collection },
  });
  ids[codename] = created.json['id'] as string;
  if (elements.length > 0) await call(`/items/codename/${codename}/variants/codename/default`, 'PUT', { elements });
}

const filter = async (filters: Json, order?: Json) =>
  (
    (await call('/items-with-variant/filter', 'POST', { filters, ...(order ? { order } : {}) })).json['variants'] as {
      item: { id: string };
    }[]
  ).map((v) => Object.keys(ids).find((k) => ids[k] === v.item.id));

beforeAll(async () => {
  server = await startTestManagement();
  spanishId = (await call('/languages', 'POST', { name: 'Spanish', codename: 'es-ES', is_active: true })).json[
    'id'
  ] as string;
  await server.client
    .setCollections()
    .withData([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } as never }])
    .toPromise();
  await call('/taxonomies', 'POST', {
    name: 'Topics',
    codename: 'topics',
    terms: [
      { name: 'Coffee', codename: 'coffee', terms: [] },
      { name: 'Tea', codename: 'tea', terms: [] },
    ],
  });
  await call('/types', 'POST', {
    name: 'Quote',
    codename: 'quote',
    elements: [{ name: 'Text', codename: 'text', type: 'text' }],
  });
  await call('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text', is_required: true },
      { name: 'Body', codename: 'body', type: 'rich_text' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
    ],
  });
  await call('/types', 'POST', {
    name: 'Page',
    codename: 'page',
    elements: [{ name: 'Title', codename: 'title', type: 'text' }],
  });
  const quote = '3f0c1a2b-0000-4000-8000-000000000001';
  await item('espresso', 'article', [
    { element: { codename: 'title' }, value: 'Espresso guide' },
    { element: { codename: 'topics' }, value: [{ codename: 'coffee' }] },
    {
      element: { codename: 'body' },
      value: `<object type="application/kenticocloud" data-type="component" data-id="${quote}"></object>`,
      components: [{ id: quote, type: { codename: 'quote' }, elements: [] }],
    },
  ]);
  await item(
    'green_tea',
    'article',
    [
      { element: { codename: 'title' }, value: 'Green tea' },
      { element: { codename: 'topics' }, value: [{ codename: 'tea' }] },
      { element: { codename: 'body' }, value: '<p>Steep the leaves in <strong>espresso</strong>-hot water.</p>' },
    ],
    'blog',
  );
  await item('draft_article', 'article', [{ element: { codename: 'body' }, value: '<p>No title yet</p>' }]);
  await item('about', 'page', [{ element: { codename: 'title' }, value: 'About us' }], 'blog');
  await item('untranslated', 'page', []);
  await call('/items/codename/espresso/variants/codename/default/publish', 'PUT');
  await call('/items/codename/about/variants/codename/es-ES', 'PUT', {
    elements: [{ element: { codename: 'title' }, value: 'Sobre' }],
  });
});
afterAll(async () => {
  await server.close();
});

describe('POST /items-with-variant/filter through @kontent-ai/management-sdk', () => {
  it('answers item/language pairs of the default language in the recorded shape', async () => {
    const all = await server.client.filterItemsWithVariants().withData({}).toPromise();
    expect(all.rawData.variants.map((v) => v.item.id)).toEqual([
      ids['espresso'],
      ids['green_tea'],
      ids['draft_article'],
      ids['about'],
    ]);
    expect(all.rawData.variants.every((v) => v.language.id === '00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(shapeDifferences(all.rawData, readFixture(`${fakes}/fake-filter-items-with-variants.json`))).toEqual([]);
    const spanish = await server.client
      .filterItemsWithVariants()
      .withData({ filters: { language: { codename: 'es-ES' } } })
      .toPromise();
    expect(spanish.rawData.variants).toEqual([{ item: { id: ids['about'] }, language: { id: spanishId } }]);
  });

  it('filters by type, collection, space, search phrase, component type, taxonomy, step, publishing and completion', async () => {
    expect(await filter({ content_types: [{ codename: 'page' }] })).toEqual(['about']);
    expect(await filter({ collections: [{ codename: 'blog' }] })).toEqual(['green_tea', 'about']);
    expect(await filter({ search_phrase: 'ESPRESSO' })).toEqual(['espresso', 'green_tea']);
    expect(await filter({ component_types: [{ codename: 'quote' }] })).toEqual(['espresso']);
    expect(
      await filter({
        taxonomy_groups: [{ taxonomy_identifier: { codename: 'topics' }, term_identifiers: [{ codename: 'tea' }] }],
      }),
    ).toEqual(['green_tea']);
    expect(
      await filter({
        content_types: [{ codename: 'article' }],
        taxonomy_groups: [
          { taxonomy_identifier: { codename: 'topics' }, term_identifiers: [], include_uncategorized: true },
        ],
      }),
    ).toEqual(['draft_article']);
    expect(
      await filter({
        workflow_steps: [
          { workflow_identifier: { codename: 'default' }, step_identifiers: [{ codename: 'published' }] },
        ],
      }),
    ).toEqual(['espresso']);
    expect(await filter({ publishing_states: ['not_published_yet'] })).toEqual(['green_tea', 'draft_article', 'about']);
    expect(await filter({ completion_statuses: ['unfinished'] })).toEqual(['draft_article']);
    expect(await filter({ completion_statuses: ['not_translated'] })).toEqual(['untranslated']);
    expect(await filter({ has_no_contributors: true, content_types: [{ codename: 'page' }] })).toEqual(['about']);
    expect(await filter({}, { by: 'name', direction: 'desc' })).toEqual([
      'green_tea',
      'espresso',
      'draft_article',
      'about',
    ]);
  });

  it('refuses empty arrays, unknown references (400, error_code 5) and unknown statuses (265)', async () => {
    const empty = await call('/items-with-variant/filter', 'POST', {
      filters: { content_types: [], collections: [{ codename: 'nope' }] },
    });
    expect(empty.status).toBe(400);
    expect(empty.json['error_code']).toBe(5);
    expect((empty.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual([
      'filters.collections[0]',
      'filters.content_types',
    ]);
    const status = await call('/items-with-variant/filter', 'POST', { filters: { completion_statuses: ['done'] } });
    expect(status.status).toBe(400);
    expect(status.json['error_code']).toBe(265);
  });
});

describe('POST /items-with-variant/bulk-get through @kontent-ai/management-sdk', () => {
  it('answers each pair with its item and its variant when there is one, in request order', async () => {
    const got = await server.client
      .bulkGetItemsWithVariants()
      .withData({
        variants: [
          { item: { codename: 'about' }, language: { codename: 'es-ES' } },
          { item: { id: ids['untranslated'] ?? '' }, language: { codename: 'default' } },
          { item: { codename: 'espresso' }, language: { id: '00000000-0000-0000-0000-000000000000' } },
        ],
      })
      .toPromise();
    const data = got.rawData.data as unknown as { item: Json; variant?: Json }[];
    expect(data.map((d) => d.item['codename'])).toEqual(['about', 'untranslated', 'espresso']);
    expect(data.map((d) => d.variant === undefined)).toEqual([false, true, false]);
    expect(data[0]?.variant?.['language']).toEqual({ id: spanishId });
    expect(
      shapeDifferences(
        data[1]?.item,
        readFixture<{ data: Json[] }>(`${fakes}/fake-bulk-get-items-with-variants.json`).data[0]?.['item'],
      ),
    ).toEqual([]);
  });

  it('pages 50 pairs at a time with x-continuation and refuses unresolvable references (274)', async () => {
    const pairs = Array.from({ length: 60 }, (_, i) => ({
      item: { codename: i % 2 === 0 ? 'espresso' : 'about' },
      language: { codename: 'default' },
    }));
    const first = await call('/items-with-variant/bulk-get', 'POST', { variants: pairs });
    expect((first.json['data'] as unknown[]).length).toBe(50);
    const token = (first.json['pagination'] as { continuation_token: string }).continuation_token;
    const second = await call('/items-with-variant/bulk-get', 'POST', { variants: pairs }, { 'x-continuation': token });
    expect((second.json['data'] as unknown[]).length).toBe(10);
    expect(second.json['pagination']).toEqual({ continuation_token: null, next_page: null });
    const bad = await call('/items-with-variant/bulk-get', 'POST', {
      variants: [{ item: { codename: 'nope' }, language: { codename: 'default' } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json['error_code']).toBe(274);
    const tooMany = await call('/items-with-variant/bulk-get', 'POST', { variants: [...pairs, ...pairs] });
    expect(tooMany.status).toBe(400);
  });
});

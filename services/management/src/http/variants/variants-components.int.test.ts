import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/language-variants';
let server: TestManagement;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

const object = (id: string) =>
  `<object type="application/kenticocloud" data-type="component" data-id="${id}"></object>`;
const uuid = (n: number) => `3f0c1a2b-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** An article whose body holds `components` (each {id, type codename, inner components}). */
async function article(codename: string, body: { html: string; components: unknown[] }) {
  await call('/items', 'POST', { name: codename, codename, type: { codename: 'article' } });
  const answer = await call(`/items/codename/${codename}/variants/codename/default`, 'PUT', {
    elements: [{ element: { codename: 'body' }, value: body.html, components: body.components }],
  });
  if (answer.status >= 300) throw new Error(JSON.stringify(answer.json));
}

beforeAll(async () => {
  server = await startTestManagement();
  await call('/types', 'POST', { name: 'Quote', codename: 'quote', elements: [{ name: 'Text', type: 'text' }] });
  await call('/types', 'POST', {
    name: 'Box',
    codename: 'box',
    elements: [{ name: 'Inner', codename: 'inner', type: 'rich_text' }],
  });
  await call('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    elements: [{ name: 'Body', codename: 'body', type: 'rich_text' }],
  });
  await article('plain', { html: '<p>No components</p>', components: [] });
  await article('with_quote', {
    html: object(uuid(1)),
    components: [{ id: uuid(1), type: { codename: 'quote' }, elements: [] }],
  });
  // A quote nested in a box.
  await article('nested_quote', {
    html: object(uuid(2)),
    components: [
      {
        id: uuid(2),
        type: { codename: 'box' },
        elements: [
          {
            element: { codename: 'inner' },
            value: object(uuid(3)),
            components: [{ id: uuid(3), type: { codename: 'quote' }, elements: [] }],
          },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

describe('GET /types/{type}/components through @kontent-ai/management-sdk', () => {
  it('lists the variants of any type that hold a component of the type, nested ones too', async () => {
    const quotes = await server.client
      .listLanguageVariantsOfContentTypeWithComponents()
      .byTypeCodename('quote')
      .toPromise();
    const items = (await call('/items', 'GET')).json['items'] as { id: string; codename: string }[];
    const idOf = (c: string) => items.find((i) => i.codename === c)?.id;
    expect(quotes.rawData.variants.map((v) => v.item.id)).toEqual([idOf('with_quote'), idOf('nested_quote')]);
    const boxes = await server.client
      .listLanguageVariantsOfContentTypeWithComponents()
      .byTypeCodename('box')
      .toPromise();
    expect(boxes.data.items.map((v) => v.item.id)).toEqual([idOf('nested_quote')]);
    // The recorded variant's elements are of another type: the envelope and variant fields are compared.
    const recorded = readFixture<{ variants: Json[] }>(
      `${fakes}/fake-list-language-variants-of-content-type-with-components.json`,
    );
    const withoutElements = (list: { variants: unknown[] }) => ({
      ...list,
      variants: list.variants.map((v) => ({ ...(v as Json), elements: [] })),
    });
    expect(shapeDifferences(withoutElements(boxes.rawData), withoutElements(recorded))).toEqual([]);
    const articles = await call('/types/codename/article/components', 'GET');
    expect(articles.json).toEqual({ variants: [], pagination: { continuation_token: null, next_page: null } });
    const missing = await call('/types/codename/nope/components', 'GET');
    expect(missing.status).toBe(404);
  });

  it('pages by 50 with x-continuation', async () => {
    for (let n = 0; n < 50; n += 1)
      await article(`many_${n}`, {
        html: object(uuid(100 + n)),
        components: [{ id: uuid(100 + n), type: { codename: 'quote' }, elements: [] }],
      });
    const first = await call('/types/codename/quote/components', 'GET');
    const page1 = first.json['variants'] as unknown[];
    const token = (first.json['pagination'] as { continuation_token: string }).continuation_token;
    expect(page1).toHaveLength(50);
    expect(typeof token).toBe('string');
    const second = await server.fetch('/types/codename/quote/components', { headers: { 'x-continuation': token } });
    const page2 = ((await second.json()) as Json)['variants'] as unknown[];
    expect(page2).toHaveLength(2);
    const all = await server.client
      .listLanguageVariantsOfContentTypeWithComponents()
      .byTypeCodename('quote')
      .toAllPromise();
    expect(all.data.items).toHaveLength(52);
  });
});

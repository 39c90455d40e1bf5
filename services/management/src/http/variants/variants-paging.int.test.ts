import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroId } from '@lectern/core';
import { countingStore, type CountingStore } from '../../testing/counting-store.ts';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel, type TestModel } from './test-model.ts';

type Json = Record<string, unknown>;
interface VariantJson extends Json {
  item: { id: string };
  language: { id: string };
}
interface VariantsPage {
  variants: VariantJson[];
  pagination: { continuation_token: string | null; next_page: string | null };
}

let server: TestManagement;
let store: CountingStore;
let model: TestModel;
const componentId = '46c05bd9-d418-4507-836c-9accc5a39db3';
/** `item/language` of every variant, in creation order, with its item's collection and type. */
const created: { key: string; collection: string; type: 'article' | 'widget' }[] = [];
const collections: Record<'blue' | 'green', string> = { blue: '', green: '' };

const keyOf = (v: VariantJson) => `${v.item.id}/${v.language.id}`;
const pathOf = (key: string) => `/items/${key.replace('/', '/variants/')}`;

async function call(path: string, method = 'GET', body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function addItem(name: string, type: 'article' | 'widget', collection: string): Promise<string> {
  const added = await call('/items', 'POST', { name, type: { codename: type }, collection: { id: collection } });
  expect(added.status).toBe(201);
  return added.json['id'] as string;
}

async function putVariant(options: {
  itemId: string;
  languageId: string;
  type: 'article' | 'widget';
  collection: string;
}): Promise<void> {
  const { itemId, languageId, type } = options;
  const elements =
    type === 'widget'
      ? [{ element: { codename: 'caption' }, value: 'A widget' }]
      : [
          { element: { codename: 'title' }, value: `Title ${itemId.slice(0, 4)}` },
          ...(languageId === zeroId ? [{ element: { codename: 'code' }, value: 'ABC' }] : []),
          {
            element: { codename: 'body' },
            value: `<p>Body</p><object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
            components: [
              {
                id: componentId,
                type: { codename: 'widget' },
                elements: [{ element: { codename: 'caption' }, value: 'Inside' }],
              },
            ],
          },
        ];
  const put = await call(`/items/${itemId}/variants/${languageId}`, 'PUT', { elements });
  expect(put.status, JSON.stringify(put.json)).toBe(201);
  created.push({ key: `${itemId}/${languageId}`, collection: options.collection, type });
}

async function variantsPage(path: string, token: string | null = null): Promise<VariantsPage> {
  const response = await server.fetch(path, token === null ? {} : { headers: { 'x-continuation': token } });
  expect(response.status).toBe(200);
  return (await response.json()) as VariantsPage;
}

async function walk(path: string): Promise<VariantJson[][]> {
  const pages: VariantJson[][] = [];
  let token: string | null = null;
  do {
    const page: VariantsPage = await variantsPage(path, token);
    pages.push(page.variants);
    token = page.pagination.continuation_token;
  } while (token !== null);
  return pages;
}

beforeAll(async () => {
  server = await startTestManagement({
    wrapStore: (plain) => {
      store = countingStore(plain);
      return store;
    },
  });
  model = await seedContentModel(server);
  const patched = await call('/collections', 'PATCH', [
    { op: 'addInto', value: { name: 'Blue', codename: 'blue' } },
    { op: 'addInto', value: { name: 'Green', codename: 'green' } },
  ]);
  for (const c of patched.json['collections'] as { id: string; codename: string }[])
    if (c.codename === 'blue' || c.codename === 'green') collections[c.codename] = c.id;
  const space = await call('/spaces', 'POST', {
    name: 'Site',
    codename: 'site',
    collections: [{ codename: 'green' }, { codename: 'blue' }],
  });
  expect(space.status).toBe(201);
  const collectionOf = [zeroId, collections.blue, collections.green];
  const articles: { id: string; collection: string }[] = [];
  for (let i = 0; i < 90; i++) {
    const collection = collectionOf[i % 3] as string;
    articles.push({ id: await addItem(`Article ${i}`, 'article', collection), collection });
  }
  // Variants in an order other than the items': Spanish ones interleaved, widgets in between.
  for (const [i, a] of articles.entries()) {
    await putVariant({ itemId: a.id, languageId: zeroId, type: 'article', collection: a.collection });
    if (i % 2 === 1) {
      const earlier = articles[i - 1] as { id: string; collection: string };
      await putVariant({
        itemId: earlier.id,
        languageId: model.spanishId,
        type: 'article',
        collection: earlier.collection,
      });
    }
    if (i % 9 === 0) {
      const widget = await addItem(`Widget ${i}`, 'widget', collections.blue);
      await putVariant({ itemId: widget, languageId: zeroId, type: 'widget', collection: collections.blue });
    }
  }
});
afterAll(async () => {
  await server.close();
});

describe('variant lists paged by key (issue 11)', () => {
  it('pages the variants of a type, 50 a page, each once while variants are created and deleted between pages', async () => {
    const expected = created.filter((c) => c.type === 'article').map((c) => c.key);
    const seen: string[] = [];
    let page = await variantsPage('/types/codename/article/variants');
    let round = 0;
    for (;;) {
      seen.push(...page.variants.map(keyOf));
      if (page.pagination.continuation_token === null) break;
      expect(page.variants).toHaveLength(50);
      // Delete a listed variant, the next one to be listed and the last one; add a variant.
      const unseen = expected.filter((k) => !seen.includes(k));
      for (const key of [seen[round] as string, unseen[0] as string, unseen.at(-1) as string]) {
        expect((await call(pathOf(key), 'DELETE')).status).toBe(204);
        if (!seen.includes(key)) expected.splice(expected.indexOf(key), 1);
      }
      const base = created.find(
        (c) =>
          c.type === 'article' &&
          c.key.endsWith(`/${zeroId}`) &&
          !created.some((o) => o.key === c.key.replace(zeroId, model.spanishId)),
      );
      const itemId = base?.key.split('/')[0] as string;
      await putVariant({
        itemId,
        languageId: model.spanishId,
        type: 'article',
        collection: base?.collection as string,
      });
      expected.push(`${itemId}/${model.spanishId}`);
      round++;
      page = await variantsPage('/types/codename/article/variants', page.pagination.continuation_token);
    }
    expect(round).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
  });

  it('pages a collection and a space (its collections in the space order) in variant creation order', async () => {
    const current = async (path: string) => (await walk(path)).flat().map(keyOf);
    const live = new Set(await current('/types/codename/article/variants'));
    for (const v of await current('/types/codename/widget/variants')) live.add(v);
    const of = (collection: string) =>
      created.filter((c) => c.collection === collection && live.has(c.key)).map((c) => c.key);
    expect(await current(`/collections/${collections.blue}/variants`)).toEqual(of(collections.blue));
    expect(await current('/collections/codename/green/variants')).toEqual(of(collections.green));
    const space = await walk('/spaces/codename/site/variants');
    expect(space.flat().map(keyOf)).toEqual([...of(collections.green), ...of(collections.blue)]);
    expect(space.length).toBeGreaterThan(1);
    expect(space.slice(0, -1).every((p) => p.length === 50)).toBe(true);
  });

  it('renders every listed variant exactly as GET renders it alone, shared values and components included', async () => {
    const listed = (await walk('/spaces/codename/site/variants')).flat();
    const spanish = listed.filter((v) => v.language.id === model.spanishId);
    expect(spanish.length).toBeGreaterThan(10);
    for (const v of listed) {
      const alone = await call(`/items/${v.item.id}/variants/${v.language.id}`);
      expect(JSON.stringify(v)).toBe(JSON.stringify(alone.json));
    }
    const code = model.element('code');
    for (const v of spanish)
      expect(
        (v['elements'] as { element: { id: string }; value: unknown }[]).find((e) => e.element.id === code)?.value,
      ).toBe('ABC');
    const item = spanish[0]?.item.id as string;
    const ofItem = await call(`/items/${item}/variants`);
    const alone = await Promise.all(
      (ofItem.json as unknown as VariantJson[]).map(
        async (v) => (await call(`/items/${item}/variants/${v.language.id}`)).json,
      ),
    );
    expect(JSON.stringify(ofItem.json)).toBe(JSON.stringify(alone));
  });

  it('reads a page of 50 variants of several types and languages with a handful of queries', async () => {
    const first = await variantsPage('/spaces/codename/site/variants');
    store.reset();
    const second = await variantsPage('/spaces/codename/site/variants', first.pagination.continuation_token);
    expect(new Set(second.variants.map((v) => v.language.id)).size).toBe(2);
    // Container, page, types, snippets, default-language variants (the page may read one query
    // per collection of the space); never one per variant.
    expect(store.count('items', 'variants', 'model', 'assets')).toBeLessThanOrEqual(6);
    const ofType = await variantsPage('/types/codename/article/variants');
    store.reset();
    await variantsPage('/types/codename/article/variants', ofType.pagination.continuation_token);
    expect(store.count('items', 'variants', 'model', 'assets')).toBeLessThanOrEqual(6);
  });
});

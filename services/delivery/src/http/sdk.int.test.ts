/* eslint-disable @typescript-eslint/no-explicit-any -- SDK element values are read deeply in assertions */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDeliveryClient, type IDeliveryClient } from '@kontent-ai/delivery-sdk';
import { addItem, operator, publishVariant, upsertVariant, type CoreDeps } from '@lectern/core';
import { listen } from '@lectern/http-kit';
import { readFixture, shapeDifferences } from '@lectern/testing';

/**
 * The slice of services/lectern's `startTestStack()` these tests use. It is loaded by path: the
 * stack depends on this service, so the service cannot depend on it.
 */
interface Stack {
  readonly core: CoreDeps;
  readonly projectId: string;
  readonly previewKey: string;
  readonly delivery: FastifyInstance;
  readonly preview: FastifyInstance;
  startEvents(): Promise<void>;
  managementJson(path: string, options?: { method?: string; body?: unknown }): Promise<Record<string, unknown>>;
  catchUp(): Promise<void>;
  close(): Promise<void>;
}
const stackModule = new URL('../../../../test/stack/test-stack.ts', import.meta.url).pathname;

let stack: Stack;
let client: IDeliveryClient;
let previewClient: IDeliveryClient;
const bulkCount = 1_050;
const samples = 'delivery/derived/learn-api-reference-samples';

const mapi = (path: string, body?: unknown, method = 'POST'): Promise<any> =>
  stack.managementJson(path, { method, body });

async function listening(app: FastifyInstance): Promise<string> {
  return `${(await listen(app, { host: '127.0.0.1', port: 0 })).url}`;
}

const article = (codename: string, o: { title: string; price: number; related?: string[]; tags?: string[] }) => [
  { element: { codename: 'title' }, value: o.title },
  { element: { codename: 'price' }, value: o.price },
  { element: { codename: 'body' }, value: `<p>${o.title}</p>` },
  { element: { codename: 'tags' }, value: (o.tags ?? []).map((c) => ({ codename: c })) },
  { element: { codename: 'released' }, value: '2026-03-01T10:00:00Z' },
  { element: { codename: 'related' }, value: (o.related ?? []).map((c) => ({ codename: c })) },
  { element: { codename: 'topics' }, value: [{ codename: 'news' }] },
  { element: { codename: 'slug' }, value: codename.replace(/_/g, '-'), mode: 'custom' },
  { element: { codename: 'extra' }, value: '["DE","US"]' },
];

async function writeArticle(codename: string, language: string, o: Parameters<typeof article>[1], isPublished = true) {
  await mapi('/items', { name: codename, codename, type: { codename: 'article' } }).catch(() => undefined);
  await mapi(`/items/codename/${codename}/variants/codename/${language}`, { elements: article(codename, o) }, 'PUT');
  if (isPublished) await mapi(`/items/codename/${codename}/variants/codename/${language}/publish`, undefined, 'PUT');
}

beforeAll(async () => {
  const { startTestStack } = (await import(stackModule)) as {
    startTestStack: (options: { searchUrl?: string }) => Promise<Stack>;
  };
  // On the search-engine index when run by the `search` project (the *.search.int.test.ts twin).
  stack = await startTestStack({ searchUrl: inject('searchUrl') });
  await mapi('/languages', {
    name: 'German',
    codename: 'de',
    is_active: true,
    fallback_language: { codename: 'default' },
  });
  await mapi('/taxonomies', {
    name: 'Topics',
    codename: 'topics',
    terms: [{ name: 'News', codename: 'news', terms: [] }],
  });
  await mapi('/types', {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text' },
      { name: 'Price', codename: 'price', type: 'number' },
      { name: 'Body', codename: 'body', type: 'rich_text' },
      {
        name: 'Tags',
        codename: 'tags',
        type: 'multiple_choice',
        mode: 'multiple',
        options: [
          { name: 'Red', codename: 'red' },
          { name: 'Blue', codename: 'blue' },
        ],
      },
      { name: 'Released', codename: 'released', type: 'date_time' },
      { name: 'Related', codename: 'related', type: 'modular_content' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
      { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      { name: 'Extra', codename: 'extra', type: 'custom', source_url: 'https://example.com/extra' },
    ],
  });
  // a → b → c → d: linked items three levels deep below a.
  await writeArticle('d', 'default', { title: 'D', price: 40 });
  await writeArticle('c', 'default', { title: 'C', price: 30, related: ['d'] });
  await writeArticle('b', 'default', { title: 'B', price: 20, related: ['c'], tags: ['blue'] });
  await writeArticle('a', 'default', { title: 'A', price: 10, related: ['b'], tags: ['red', 'blue'] });
  await writeArticle('a', 'de', { title: 'A de', price: 11, related: ['b'], tags: ['red'] });
  await writeArticle('draft', 'default', { title: 'Draft', price: 1 }, false);
  // Many items, fast, through core operations (not HTTP): a simple type, published.
  await mapi('/types', { name: 'Note', codename: 'note', elements: [{ name: 'N', codename: 'n', type: 'number' }] });
  const actor = operator;
  const projectId = stack.projectId;
  for (let i = 0; i < bulkCount; i += 1) {
    const codename = `note_${String(i).padStart(4, '0')}`;
    await addItem(stack.core, { actor, projectId, body: { name: codename, codename, type: { codename: 'note' } } });
    const key = { itemKey: { codename }, languageKey: { codename: 'default' } };
    await upsertVariant(stack.core, {
      actor,
      projectId,
      ...key,
      body: { elements: [{ element: { codename: 'n' }, value: i }] },
    });
    await publishVariant(stack.core, { actor, projectId, ...key });
  }
  await stack.catchUp();
  const baseUrl = await listening(stack.delivery);
  const basePreviewUrl = await listening(stack.preview);
  client = createDeliveryClient({ environmentId: projectId, proxy: { baseUrl, basePreviewUrl } });
  previewClient = createDeliveryClient({
    environmentId: projectId,
    proxy: { baseUrl, basePreviewUrl },
    previewApiKey: stack.previewKey,
    defaultQueryConfig: { usePreviewMode: true },
  });
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe('Delivery API through @kontent-ai/delivery-sdk', () => {
  it('returns one item with every element kind and linked items to the asked depth', async () => {
    const res = await client.item('a').depthParameter(3).toPromise();
    const item = res.data.item;
    expect(item.system).toMatchObject({
      codename: 'a',
      language: 'default',
      type: 'article',
      workflowStep: 'published',
    });
    expect(item.elements['title']?.value).toBe('A');
    expect(item.elements['price']?.value).toBe(10);
    expect((item.elements['tags']?.value as any[]).map((o) => o.codename)).toEqual(['red', 'blue']);
    expect((item.elements['topics']?.value as any[]).map((o) => o.codename)).toEqual(['news']);
    expect(item.elements['released']?.value).toBe('2026-03-01T10:00:00Z');
    expect(item.elements['slug']?.value).toBe('a');
    expect(item.elements['related']?.value).toEqual(['b']);
    expect(Object.keys(res.data.linkedItems).sort()).toEqual(['b', 'c', 'd']);
    const one = await client.item('a').toPromise();
    expect(Object.keys(one.data.linkedItems)).toEqual(['b']);
    const raw = one.response.data as any;
    const fixture = readFixture<any>(`${samples}/retrieve_a_content_item.01.ok.json`);
    expect(shapeDifferences(raw.item.system, fixture.item.system)).toEqual([]);
    expect(shapeDifferences(raw.item.elements.body, fixture.item.elements.body_copy)).toEqual([]);
  });

  it('falls back from de to the default language, and not with a system.language filter', async () => {
    const de = await client.items().languageParameter('de').type('article').toPromise();
    expect(de.data.items.map((i) => `${i.system.codename}:${i.system.language}`)).toEqual([
      'a:de',
      'b:default',
      'c:default',
      'd:default',
    ]);
    const strict = await client.items().languageParameter('de').equalsFilter('system.language', 'de').toPromise();
    expect(strict.data.items.map((i) => i.system.codename)).toEqual(['a']);
  });

  it('filters with every operator', async () => {
    const q = () => client.items().type('article');
    const names = async (query: ReturnType<typeof q>) =>
      (await query.toPromise()).data.items.map((i) => i.system.codename);
    expect(await names(q().equalsFilter('elements.title', 'B'))).toEqual(['b']);
    expect(await names(q().notEqualsFilter('elements.title', 'B'))).toEqual(['a', 'c', 'd']);
    expect(await names(q().greaterThanFilter('elements.price', 20))).toEqual(['c', 'd']);
    expect(await names(q().greaterThanOrEqualFilter('elements.price', 20))).toEqual(['b', 'c', 'd']);
    expect(await names(q().lessThanFilter('elements.price', 20))).toEqual(['a']);
    expect(await names(q().lessThanOrEqualFilter('elements.price', 20))).toEqual(['a', 'b']);
    expect(await names(q().rangeFilter('elements.price', 15, 35))).toEqual(['b', 'c']);
    expect(await names(q().inFilter('system.codename', ['a', 'c']))).toEqual(['a', 'c']);
    expect(await names(q().notInFilter('system.codename', ['a', 'c']))).toEqual(['b', 'd']);
    expect(await names(q().containsFilter('elements.tags', ['red']))).toEqual(['a']);
    expect(await names(q().anyFilter('elements.tags', ['red', 'blue']))).toEqual(['a', 'b']);
    expect(await names(q().allFilter('elements.tags', ['red', 'blue']))).toEqual(['a']);
    expect(await names(q().containsFilter('elements.related', ['c']))).toEqual(['b']);
    expect(await names(q().emptyFilter('elements.related'))).toEqual(['d']);
    expect(await names(q().notEmptyFilter('elements.related'))).toEqual(['a', 'b', 'c']);
    expect(await names(q().orderByDescending('elements.price'))).toEqual(['d', 'c', 'b', 'a']);
    const projected = await q().elementsParameter(['title']).toPromise();
    expect(Object.keys(projected.data.items[0]?.elements ?? {})).toEqual(['title']);
  });

  it('pages more than 1,000 items with next_page and includeTotalCount, and the feed with X-Continuation', async () => {
    const page = await client.items().type('note').limitParameter(400).includeTotalCountParameter().toPromise();
    expect(page.data.pagination.totalCount).toBe(bulkCount);
    expect(page.data.pagination.nextPage).toContain('skip=400');
    const all = await client.items().type('note').limitParameter(400).toAllPromise();
    expect(all.data.items).toHaveLength(bulkCount);
    expect(all.responses).toHaveLength(3);
    const feed = await client.itemsFeed().type('note').toAllPromise();
    expect(feed.data.items).toHaveLength(bulkCount);
    expect(feed.responses.length).toBeGreaterThan(1);
  });

  it('serves types, one element, taxonomies, languages and used-in', async () => {
    const types = await client.types().toPromise();
    expect(types.data.items.map((t) => t.system.codename)).toEqual(['article', 'note']);
    const element = await client.element('article', 'tags').toPromise();
    expect((element.data as any).options.map((o: any) => o.codename)).toEqual(['red', 'blue']);
    const taxonomy = await client.taxonomy('topics').toPromise();
    expect(taxonomy.data.taxonomy.terms.map((t) => t.codename)).toEqual(['news']);
    const languages = await client.languages().toPromise();
    expect(languages.data.items.map((l) => l.system.codename)).toEqual(['default', 'de']);
    const usedIn = await client.itemUsedIn('b').toAllPromise();
    expect(usedIn.data.items.map((i) => `${i.system.codename}:${i.system.language}`).sort()).toEqual([
      'a:de',
      'a:default',
    ]);
  });

  it('answers missing objects with the SDK error shape', async () => {
    const error = await client
      .item('missing')
      .toPromise()
      .catch((e: unknown) => e as any);
    expect(error.errorCode).toBe(100);
    expect(error.requestId).toEqual(expect.any(String));
  });

  it('shows unpublished content on Preview only', async () => {
    expect((await previewClient.item('draft').toPromise()).data.item.elements['title']?.value).toBe('Draft');
    expect(
      (
        (await client
          .item('draft')
          .toPromise()
          .catch((e: unknown) => e)) as any
      ).errorCode,
    ).toBe(100);
  });

  it('shows a publish through Management on the first request with the wait header', async () => {
    await stack.startEvents();
    await writeArticle('fresh', 'default', { title: 'Fresh', price: 99 });
    const res = await client.item('fresh').queryConfig({ waitForLoadingNewContent: true }).toPromise();
    expect(res.data.item.elements['title']?.value).toBe('Fresh');
    expect(res.hasStaleContent).toBe(false);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- assertions read response bodies deeply; their shapes are checked against fixtures */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLogger, createProcessMetrics, createReadiness } from '@lectern/http-kit';
import type { Signals } from '@lectern/core';
import type { DeliveryHttpOptions } from '@lectern/read-path';
import {
  memorySignals,
  openTestCore,
  readFixture,
  seedProject,
  shapeDifferences,
  type TestCore,
} from '@lectern/testing';
import { buildDeliveryApp } from '../app.ts';
import { makeItem, makeVariant, sampleContent } from './testing/sample-content.ts';
import { openSampleIndex, WatchedIndex, type SampleIndex } from './testing/sample-index.ts';

let core: TestCore;
let projectId: string;
let previewKey: string;
/** The sample content in the SQL index, read by every app unless a test opens its own. */
let sample: SampleIndex;
const openedSamples: SampleIndex[] = [];
const apps: FastifyInstance[] = [];
const samples = 'delivery/derived/learn-api-reference-samples';

beforeAll(async () => {
  core = await openTestCore();
  const seeded = await seedProject(core, ['preview_primary']);
  projectId = seeded.projectId;
  previewKey = seeded.keys.preview_primary?.value ?? '';
  sample = await openSample();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await Promise.all(openedSamples.map((s) => s.close()));
  await core.store.close();
});

async function openSample(content = sampleContent()): Promise<SampleIndex> {
  const opened = await openSampleIndex(projectId, content);
  openedSamples.push(opened);
  return opened;
}

function build(
  options: {
    channel?: 'production' | 'preview';
    http?: DeliveryHttpOptions;
    sample?: SampleIndex;
    signals?: Signals;
  } = {},
) {
  const index = new WatchedIndex((options.sample ?? sample).reader);
  const app = buildDeliveryApp({
    channel: options.channel ?? 'production',
    core,
    index,
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: (process.env['DEBUG_DELIVERY'] ? 'error' : 'silent') as 'silent' }),
    ...(options.http === undefined ? {} : { http: options.http }),
    ...(options.signals === undefined ? {} : { signals: options.signals }),
  });
  apps.push(app);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url: `/${projectId}${path}`, headers });
    return {
      status: res.statusCode,
      headers: res.headers,
      raw: res.rawPayload,
      body: (res.body === '' ? null : res.json()) as Record<string, unknown> & { [k: string]: any },
    };
  };
  return { app, index, get };
}

/** An app built once `core` is open (describe bodies run before beforeAll). */
function useApp() {
  let built: ReturnType<typeof build> | undefined;
  beforeAll(() => {
    built = build();
  });
  return {
    get: (path: string, headers: Record<string, string> = {}) => (built as ReturnType<typeof build>).get(path, headers),
  };
}

const codenames = (items: { system: { codename: string } }[]) => items.map((i) => i.system.codename);

describe('GET /items', () => {
  const { get } = useApp();

  it('lists items of the default language by codename, with linked items one level deep and components', async () => {
    const res = await get('/items');
    expect(res.status).toBe(200);
    expect(codenames(res.body.items)).toEqual(['a', 'b', 'c', 'd', 'x']);
    expect(res.body.pagination).toEqual({ skip: 0, limit: 0, count: 5, next_page: '' });
    expect(Object.keys(res.body.modular_content).sort()).toEqual(['b', 'c', 'd', 'n0000_comp']);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-charge']).toBe('9');
    const fixture = readFixture<{ pagination: unknown; items: { system: unknown }[] }>(
      `${samples}/list_content_items.01.ok.json`,
    );
    expect(shapeDifferences(res.body.items[0].system, fixture.items[0]?.system)).toEqual([]);
    expect(shapeDifferences(res.body.pagination, fixture.pagination)).toEqual([]);
  });

  it('follows depth: 0 keeps components only, 3 reaches the end of the chain', async () => {
    const zero = await get('/items?system.codename=a&depth=0');
    expect(Object.keys(zero.body.modular_content)).toEqual(['n0000_comp']);
    const three = await get('/items?system.codename=a&depth=3');
    expect(Object.keys(three.body.modular_content).sort()).toEqual(['b', 'c', 'd', 'n0000_comp']);
    const two = await get('/items?system.codename=a&depth=2');
    expect(Object.keys(two.body.modular_content).sort()).toEqual(['b', 'c', 'n0000_comp']);
  });

  it('falls back to the default language, unless a system.language filter is given', async () => {
    const de = await get('/items?language=de');
    expect(de.body.items.map((i: any) => `${i.system.codename}:${i.system.language}`)).toEqual([
      'a:en',
      'b:en',
      'c:en',
      'd:en',
      'only_de:de',
      'x:de',
    ]);
    const strict = await get('/items?language=de&system.language=de');
    expect(codenames(strict.body.items)).toEqual(['only_de', 'x']);
    expect((await get('/items?language=fr')).status).toBe(400);
  });

  it('projects elements over items and modular_content, never components', async () => {
    const res = await get('/items?system.codename=a&elements=title,price');
    expect(Object.keys(res.body.items[0].elements)).toEqual(['title', 'price']);
    expect(res.body.items[0].system.codename).toBe('a');
    expect(Object.keys(res.body.modular_content.b.elements)).toEqual(['title', 'price']);
    expect(Object.keys(res.body.modular_content.n0000_comp.elements)).toEqual(['title']);
    const none = await get('/items?system.codename=a&elements=nope');
    expect(none.body.items[0].elements).toEqual({});
    const excluded = await get('/items?system.codename=a&excludeElements=body,related');
    expect(Object.keys(excluded.body.items[0].elements)).toEqual(['title', 'price', 'tags']);
  });

  it('orders, pages with next_page and counts the total', async () => {
    // `d` has no price: null sorts as the greatest value, first descending (the delivery-index
    // contract; the in-memory double these tests once ran on had it last).
    const desc = await get('/items?order=elements.price[desc]');
    expect(codenames(desc.body.items)).toEqual(['d', 'c', 'b', 'a', 'x']);
    const page = await get('/items?order=system.codename%5Basc%5D&limit=2&skip=1&includeTotalCount=true');
    expect(codenames(page.body.items)).toEqual(['b', 'c']);
    expect(page.body.pagination).toEqual({
      skip: 1,
      limit: 2,
      count: 2,
      total_count: 5,
      next_page: `http://localhost:80/${projectId}/items?order=system.codename%5Basc%5D&includeTotalCount=true&limit=2&skip=3`,
    });
    const last = await get('/items?limit=2&skip=4');
    expect(last.body.pagination.next_page).toBe('');
  });

  it.each([
    ['system.type=article&elements.price[gt]=10', ['b', 'c']],
    ['elements.price[gte]=10&elements.price[lt]=30', ['a', 'b']],
    ['elements.price[lte]=10', ['a', 'x']],
    ['elements.price[range]=5,20', ['a', 'b', 'x']],
    ['elements.price[neq]=10', ['b', 'c', 'd', 'x']],
    ['elements.price[empty]', ['d']],
    ['elements.price[nempty]=', ['a', 'b', 'c', 'x']],
    ['system.codename[in]=a,d', ['a', 'd']],
    ['system.codename[nin]=a,d', ['b', 'c', 'x']],
    ['elements.tags[contains]=red', ['a', 'x']],
    ['elements.tags[any]=green,blue', ['a', 'b', 'd']],
    ['elements.tags[all]=red,blue', ['a']],
    ['elements.related[contains]=c', ['b']],
    ['elements.title=x%20en', ['x']],
  ])('filters %s', async (qs, expected) => {
    const res = await get(`/items?${qs}`);
    expect(res.status).toBe(200);
    expect(codenames(res.body.items)).toEqual(expected);
  });

  it('refuses array operators on elements that are not lists', async () => {
    const res = await get('/items?elements.title[contains]=x');
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe(1);
  });
});

describe('the 2,000-item cap (SPEC 8)', () => {
  it('refuses an answer over 2,000 items with error_code 6, and serves it with a limit', async () => {
    const content = sampleContent();
    for (let i = 0; i < 2001; i += 1) {
      content.production.push(makeVariant(makeItem(`bulk_${String(i).padStart(4, '0')}`, 'en', {})));
    }
    const { get } = build({ sample: await openSample(content) });
    const res = await get('/items');
    expect(res.status).toBe(400);
    expect(
      shapeDifferences(res.body, readFixture(`${samples}/list_content_items.02.error.json`), { isExact: true }),
    ).toEqual([]);
    expect(res.body.error_code).toBe(6);
    expect((await get('/items?limit=1990')).status).toBe(200);
  });
});

describe('GET /items/{codename}', () => {
  const { get } = useApp();

  it('answers {item, modular_content}', async () => {
    const res = await get('/items/a?depth=1');
    expect(res.status).toBe(200);
    expect(res.body.item.system.codename).toBe('a');
    expect(Object.keys(res.body.modular_content).sort()).toEqual(['b', 'n0000_comp']);
    expect(
      shapeDifferences(
        res.body.item.system,
        readFixture<any>(`${samples}/retrieve_a_content_item.01.ok.json`).item.system,
      ),
    ).toEqual([]);
  });

  it('answers 404 with error_code 100 for a missing item, or one the SDK filter excludes', async () => {
    const res = await get('/items/missing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error_code: 100, message: "The requested content item 'missing' was not found." });
    expect(
      shapeDifferences(res.body, readFixture(`${samples}/retrieve_a_content_item.02.error.json`), { isExact: true }),
    ).toEqual([]);
    expect((await get('/items/a?system.workflow_step[neq]=published')).status).toBe(404);
  });
});

describe('GET /items-feed', () => {
  it('pages every item by X-Continuation with components only in modular_content', async () => {
    const { get } = build({ http: { feedPageSize: 2 } });
    const seen: string[] = [];
    let token: string | undefined = '';
    let pages = 0;
    while (token !== undefined) {
      const res = await get('/items-feed', { 'x-continuation': token });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toBeUndefined();
      seen.push(...codenames(res.body.items));
      if (seen.includes('a') && pages === 0) expect(Object.keys(res.body.modular_content)).toEqual(['n0000_comp']);
      token = res.headers['x-continuation'] as string | undefined;
      pages += 1;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'x']);
    expect(pages).toBe(3);
    const bad = await get('/items-feed', { 'x-continuation': 'garbage!' });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe(107);
  });

  it('continues after the last item of a page even when earlier items go away meanwhile', async () => {
    const own = await openSample();
    const { get, index } = build({ sample: own, http: { feedPageSize: 2, freshnessTtlMs: 0 } });
    const first = await get('/items-feed');
    expect(codenames(first.body.items)).toEqual(['a', 'b']);
    await own.removeItem('a');
    index.mark += 1;
    const second = await get('/items-feed', { 'x-continuation': String(first.headers['x-continuation']) });
    expect(codenames(second.body.items)).toEqual(['c', 'd']);
  });
});

describe('used-in', () => {
  const { get } = useApp();

  it('lists the items linking to an item, system only', async () => {
    const res = await get('/items/b/used-in');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0].system.codename).toBe('a');
    expect(
      shapeDifferences(res.body, readFixture(`${samples}/dapi_items_used_in.01.ok.json`), { isExact: true }),
    ).toEqual([]);
    expect((await get('/items/b/used-in?system.type=other')).body.items).toEqual([]);
    expect((await get('/items/b/used-in?elements.title=a')).status).toBe(400);
  });
});

describe('types, taxonomies, languages', () => {
  const { get } = useApp();

  it('serves types, one type and one element, with the reference errors', async () => {
    const list = await get('/types?elements=title');
    expect(list.body.types[0].elements).toEqual({ title: { type: 'text', name: 'Title' } });
    expect(list.body.pagination).toEqual({ skip: 0, limit: 0, count: 1, next_page: '' });
    expect((await get('/types/article')).body.system.codename).toBe('article');
    expect((await get('/types/article/elements/tags')).body).toEqual({
      type: 'multiple_choice',
      name: 'Tags',
      options: [{ name: 'Red', codename: 'red' }],
      codename: 'tags',
    });
    expect((await get('/types/nope')).body).toMatchObject({ error_code: 101 });
    const element = await get('/types/article/elements/nope');
    expect(element.status).toBe(404);
    expect(element.body).toMatchObject({
      error_code: 102,
      message: "The requested content element 'nope' was not found in content type 'article'.",
    });
  });

  it('serves taxonomies and languages', async () => {
    const taxonomies = await get('/taxonomies?limit=1');
    expect(
      shapeDifferences(taxonomies.body, readFixture(`${samples}/list_taxonomy_groups.01.ok.json`), {
        ignore: ['$.pagination.total_count'],
      }),
    ).toEqual([]);
    expect((await get('/taxonomies/colours')).body.terms).toHaveLength(1);
    expect((await get('/taxonomies/nope')).body).toMatchObject({ error_code: 104 });
    const languages = await get('/languages?order=system.name[desc]&limit=1');
    expect(languages.body.languages).toEqual([{ system: expect.objectContaining({ codename: 'de' }) }]);
    expect(languages.body.pagination.next_page).toContain('limit=1&skip=1');
    expect(shapeDifferences(languages.body, readFixture(`${samples}/list_languages_f72e9ef.01.ok.json`))).toEqual([]);
    expect((await get('/languages?system.codename[in]=en')).body.languages).toHaveLength(1);
  });
});

describe('read path', () => {
  it('caches by watermark, answers 304 to If-None-Match and says what a CDN may do', async () => {
    const { get, index } = build({ http: { freshnessTtlMs: 0 } });
    const first = await get('/items?limit=1');
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['cache-control']).toContain('public');
    const calls = index.calls;
    const again = await get('/items?limit=1');
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.raw.equals(first.raw)).toBe(true);
    expect(index.calls).toBe(calls);
    const notModified = await get('/items?limit=1', { 'if-none-match': String(first.headers.etag) });
    expect(notModified.status).toBe(304);
    expect(notModified.raw.length).toBe(0);
    index.mark += 1;
    expect((await get('/items?limit=1')).headers['x-cache']).toBe('MISS');
  });

  it('answers a cache hit from memory, and learns of a new watermark from the indexed signal', async () => {
    const signals = memorySignals();
    const { get, index } = build({ signals });
    await get('/items?limit=1');
    const reads = index.watermarkReads;
    for (let i = 0; i < 20; i += 1) expect((await get('/items?limit=1')).headers['x-cache']).toBe('HIT');
    // No index read at all: the watermark is held in memory (re-read only after freshnessTtlMs).
    expect(index.watermarkReads).toBe(reads);
    index.mark += 1;
    signals.emit('indexed', `${projectId}:${index.mark}`);
    expect((await get('/items?limit=1')).headers['x-cache']).toBe('MISS');
    // The same query written otherwise is the same answer (normalised), a wrong one never cached.
    const calls = index.calls;
    const first = await get('/items?limit=2&skip=1');
    const reordered = await get('/items?skip=1&limit=2');
    expect([first.headers['x-cache'], reordered.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(reordered.raw.equals(first.raw)).toBe(true);
    expect(index.calls).toBe(calls + 1);
    expect((await get('/items?limit=x')).status).toBe(400);
    expect((await get('/items?limit=x')).status).toBe(400);
  });

  it('limits uncached requests per project and answers 429 with Retry-After', async () => {
    const { get } = build({ http: { rateLimits: [{ max: 2, seconds: 60 }] } });
    expect((await get('/items?limit=1')).status).toBe(200);
    expect((await get('/items?limit=2')).status).toBe(200);
    const limited = await get('/items?limit=3');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body.error_code).toBeGreaterThan(0);
    expect((await get('/items?limit=1')).status).toBe(200);
  });

  it('waits for the index with X-KC-Wait-For-Loading-New-Content, bounded, and flags stale answers', async () => {
    const { get, index } = build({ http: { waitTimeoutMs: 150, freshnessTtlMs: 0 } });
    const latest = await core.store.transaction((tx) => tx.outbox.latestSeq(projectId));
    expect(latest).toBeGreaterThan(0);
    index.mark = latest - 1;
    expect((await get('/items')).headers['x-stale-content']).toBe('1');
    const timedOut = await get('/items', { 'x-kc-wait-for-loading-new-content': 'true' });
    expect(timedOut.headers['x-stale-content']).toBe('1');
    // The index catches up within the wait bound: the answer is fresh, not the bound's stale one.
    setTimeout(() => (index.mark = latest), 50);
    const fresh = await get('/items?limit=4', { 'x-kc-wait-for-loading-new-content': 'true' });
    expect(fresh.headers['x-stale-content']).toBe('0');
  });

  it('serves preview content with a preview key, privately', async () => {
    const { get } = build({ channel: 'preview' });
    const res = await get('/items?system.codename=draft', { authorization: `Bearer ${previewKey}` });
    expect(codenames(res.body.items)).toEqual(['draft']);
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('answers 503 in the SPEC 7.3 shape without an index', async () => {
    const app = buildDeliveryApp({
      channel: 'production',
      core,
      metrics: createProcessMetrics(),
      readiness: createReadiness([]),
      logger: createLogger({ level: 'silent' }),
    });
    apps.push(app);
    const res = await app.inject({ method: 'GET', url: `/${projectId}/items` });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error_code: 503, specific_code: 0 });
  });
});

describe('malformed query strings (never a 5xx)', () => {
  const { get } = useApp();
  const paths = [
    '/items',
    '/items/a',
    '/items-feed',
    '/items/a/used-in',
    '/assets/x/used-in',
    '/types',
    '/types/article',
    '/types/article/elements/title',
    '/taxonomies',
    '/taxonomies/colours',
    '/languages',
  ];
  const bad = [
    'x=1',
    'system.type[EQ]=a',
    'system.type[]=a',
    'system.type[eq]]=a',
    'system..type=a',
    'system=1',
    'elements=%',
    'elements.=',
    'elements.a[range]=',
    'elements.a[range]=1,',
    'elements.a[in]=,,',
    'depth=-1',
    'depth=99999',
    'skip=abc',
    'limit=-5',
    'limit=1.0',
    'limit=%00',
    'order=',
    'order=[asc]',
    'order=elements.[asc]',
    'order=system.x[asc]',
    'includeTotalCount=maybe',
    'language=%ZZ',
    'language=x%00y',
    '%',
    '%%',
    '&&&=&',
    '=',
    '==',
    '[eq]=1',
    'system.type[eq]=%E0%A4%A',
    'elements.a%5Bcontains%5D',
    'system.id[contains]=a',
    'elements.a[empty]=1',
    'limit=1&limit=2',
    'system.type=' + 'a'.repeat(9000),
  ];

  it('answers every malformed query with 400 and a non-zero error_code', async () => {
    for (const path of ['/items', '/items-feed']) {
      for (const qs of bad) {
        const res = await get(`${path}?${qs}`);
        expect([path, qs, res.status]).toEqual([path, qs, 400]);
        expect(res.body.error_code).toBeGreaterThan(0);
        expect(res.body.request_id).toEqual(expect.any(String));
      }
    }
  });

  it('never answers a random query string with a 5xx', async () => {
    const alphabet = [
      'system.',
      'elements.',
      'type',
      'title',
      'price',
      'tags',
      '[',
      ']',
      '%5B',
      '%5D',
      '=',
      '&',
      ',',
      '%',
      '%2',
      'eq',
      'range',
      'in',
      'contains',
      'empty',
      'asc',
      'desc',
      'order',
      'depth',
      'limit',
      'skip',
      'language',
      'de',
      '1',
      '-',
      '+',
      '#',
      '?',
      '%00',
      'é',
      '\\',
      ' ',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 600; i += 1) {
      const length = 1 + Math.floor(random() * 12);
      const qs = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const path = paths[i % paths.length] as string;
      const res = await get(`${path}?${encodeURI(qs).replace(/%25/g, '%')}`);
      expect([path, qs, res.status < 500]).toEqual([path, qs, true]);
      if (res.status >= 400) expect(res.body.error_code).toBeGreaterThan(0);
    }
  });
});

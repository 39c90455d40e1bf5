import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiKey, createHashedEmbedder, createRecsConsumer, operator } from '@lectern/core';
import { buildGraphqlApp } from '@lectern/graphql';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { buildRecommendationsApp } from '@lectern/recommendations';
import { createSqlRecs } from '@lectern/recs-sql';
import { bookkeepingTables, storeSnapshot, type StoreSnapshot, type TestCore } from '@lectern/testing';
import { startTestStack, type TestStack } from '../stack/test-stack.ts';
import type { FuzzApi } from './client.ts';
import { tinyPng } from './tiny-png.ts';

/** Identifiers of the seeded project, so generated requests reach past the router into handlers. */
export interface Known {
  readonly projectId: string;
  readonly itemIds: readonly string[];
  readonly itemCodenames: readonly string[];
  readonly itemExternalIds: readonly string[];
  readonly typeCodenames: readonly string[];
  readonly typeIds: readonly string[];
  readonly elementCodenames: readonly string[];
  readonly snippetCodenames: readonly string[];
  readonly languageCodenames: readonly string[];
  readonly languageIds: readonly string[];
  readonly taxonomyCodenames: readonly string[];
  readonly termCodenames: readonly string[];
  readonly collectionCodenames: readonly string[];
  readonly spaceCodenames: readonly string[];
  readonly workflowIds: readonly string[];
  readonly stepIds: readonly string[];
  readonly assetIds: readonly string[];
  readonly assetCodenames: readonly string[];
  readonly fileIds: readonly string[];
  /**
   * An item whose type's text element `code` has `validation_regex` `^(a+)+$`, or null when the
   * server refuses such a pattern when the type is saved (one way of fixing ReDoS, issue 27).
   */
  readonly regexItemCodename: string | null;
  /** The seeded PNG: its file id, name, path on the Management listener and size in pixels. */
  readonly image: {
    readonly fileId: string;
    readonly fileName: string;
    readonly path: string;
    readonly width: number;
    readonly height: number;
  };
}

/** The five listeners on one store, a seeded project, its keys, and a fingerprint of what it stores. */
export interface FuzzTarget {
  readonly stack: TestStack;
  readonly urls: Readonly<Record<FuzzApi, string>>;
  readonly keys: {
    readonly management: string;
    readonly delivery: string;
    readonly preview: string;
    readonly recommendations: string;
  };
  readonly known: Known;
  /** Every table of the store (by its catalogue) and every blob: see `storeSnapshot`. */
  snapshot(): Promise<StoreSnapshot>;
  /** Indexes pending changes, so Delivery and Recommendations answer from current indexes. */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** A content model with every element kind, three items (two published), an asset, folders, a space. */
async function seed(stack: TestStack): Promise<Known> {
  const m = (path: string, method: string, body?: unknown) => stack.managementJson(path, { method, body });
  const es = await m('/languages', 'POST', { name: 'Spanish', codename: 'es-ES', is_active: true });
  await m('/taxonomies', 'POST', {
    name: 'Topics',
    codename: 'topics',
    terms: [
      { name: 'Coffee', codename: 'coffee', external_id: 'coffee', terms: [] },
      { name: 'Tea', codename: 'tea', terms: [{ name: 'Green', codename: 'green', terms: [] }] },
    ],
  });
  await m('/snippets', 'POST', {
    name: 'SEO',
    codename: 'seo',
    elements: [{ name: 'Meta title', codename: 'meta_title', type: 'text' }],
  });
  const article = await m('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    external_id: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text', maximum_text_length: { value: 60, applies_to: 'characters' } },
      { name: 'Body', codename: 'body', type: 'rich_text' },
      { name: 'Count', codename: 'count', type: 'number' },
      { name: 'Date', codename: 'date', type: 'date_time' },
      {
        name: 'Kind',
        codename: 'kind',
        type: 'multiple_choice',
        mode: 'single',
        options: [
          { name: 'News', codename: 'news' },
          { name: 'Blog', codename: 'blog' },
        ],
      },
      { name: 'Image', codename: 'image', type: 'asset' },
      { name: 'Related', codename: 'related', type: 'modular_content' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
      { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      { name: 'Widget', codename: 'widget', type: 'custom', source_url: 'https://example.com/widget' },
      { type: 'snippet', snippet: { codename: 'seo' } },
    ],
  });
  await m('/collections', 'PATCH', [{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } }]);
  const items: Json[] = [];
  for (const [name, codename] of [
    ['Home', 'home'],
    ['First post', 'first_post'],
    ['Draft', 'draft'],
  ] as const) {
    items.push(await m('/items', 'POST', { name, codename, external_id: codename, type: { codename: 'article' } }));
    await m(`/items/codename/${codename}/variants/codename/default`, 'PUT', {
      elements: [
        { element: { codename: 'title' }, value: name },
        { element: { codename: 'body' }, value: `<p>${name} body</p>` },
        { element: { codename: 'count' }, value: 3 },
        { element: { codename: 'kind' }, value: [{ codename: 'news' }] },
        { element: { codename: 'topics' }, value: [{ codename: 'coffee' }] },
        { element: { codename: 'slug' }, mode: 'autogenerated', value: '' },
      ],
    });
    if (codename !== 'draft') await m(`/items/codename/${codename}/variants/codename/default/publish`, 'PUT');
  }
  const file = await m('/files/photo.txt', 'POST', Buffer.from('not really a photo'));
  // A real image, so transformation parameters reach the image pipeline.
  const png = await stack.managementJson('/files/pixel.png', {
    body: tinyPng({ width: 16, height: 12 }),
    headers: { 'content-type': 'image/png' },
  });
  await m('/assets', 'POST', {
    file_reference: { id: png['id'], type: 'internal' },
    title: 'Pixel',
    external_id: 'pixel',
  });
  const asset = await m('/assets', 'POST', {
    file_reference: { id: file['id'], type: 'internal' },
    title: 'Photo',
    external_id: 'photo',
  });
  const regexItemCodename = await seedRegexItem(stack);
  await m('/folders', 'POST', {
    folders: [{ name: 'Images', codename: 'images', external_id: 'images', folders: [] }],
  });
  await m('/spaces', 'POST', { name: 'Main', codename: 'main', web_spotlight_root_item: { codename: 'home' } });
  const workflows = (await m('/workflows', 'GET')) as unknown as { id: string; steps: { id: string }[] }[];
  const snippet = await m('/snippets/codename/seo', 'GET');
  const elementCodenames = [
    ...((article['elements'] as Json[]) ?? []).map((e) => String(e['codename'])).filter((c) => c !== 'undefined'),
    ...((snippet['elements'] as Json[]) ?? []).map((e) => String(e['codename'])),
  ];
  return {
    projectId: stack.projectId,
    itemIds: items.map((i) => String(i['id'])),
    itemCodenames: ['home', 'first_post', 'draft'],
    itemExternalIds: ['home', 'first_post', 'draft'],
    typeCodenames: ['article'],
    typeIds: [String(article['id'])],
    elementCodenames,
    snippetCodenames: ['seo'],
    languageCodenames: ['default', 'es-ES'],
    languageIds: ['00000000-0000-0000-0000-000000000000', String(es['id'])],
    taxonomyCodenames: ['topics'],
    termCodenames: ['coffee', 'tea', 'green'],
    collectionCodenames: ['default', 'blog'],
    spaceCodenames: ['main'],
    workflowIds: workflows.map((w) => w.id),
    stepIds: workflows.flatMap((w) => w.steps.map((s) => s.id)),
    assetIds: [String(asset['id'])],
    assetCodenames: [String(asset['codename'])],
    fileIds: [String(file['id'])],
    regexItemCodename,
    image: {
      fileId: String(png['id']),
      fileName: 'pixel.png',
      path: `/assets/${stack.projectId}/${String(png['id'])}/pixel.png`,
      width: 16,
      height: 12,
    },
  };
}

/** A type guarding a text element with a backtracking-prone regex, and an item of it (see Known). */
async function seedRegexItem(stack: TestStack): Promise<string | null> {
  const type = await stack.managementFetch('/types', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Guarded',
      codename: 'guarded',
      elements: [
        {
          name: 'Code',
          codename: 'code',
          type: 'text',
          validation_regex: { regex: '^(a+)+$', flags: null, validation_message: 'only a', is_active: true },
        },
      ],
    }),
  });
  if (type.status >= 400 && type.status < 500) return null;
  if (type.status >= 300) throw new Error(`seeding the guarded type: ${type.status} ${await type.text()}`);
  await stack.managementJson('/items', {
    body: { name: 'Guarded', codename: 'guarded_item', type: { codename: 'guarded' } },
  });
  return 'guarded_item';
}

/** Starts every API on one store (in-memory PGlite unless `core` is given), seeded, rate limits off. */
export async function startFuzzTarget(options: { core?: TestCore } = {}): Promise<FuzzTarget> {
  const stack = await startTestStack({
    ...(options.core === undefined ? {} : { core: options.core }),
    deliveryHttp: { rateLimits: [], waitTimeoutMs: 200 },
  });
  const known = await seed(stack);
  // The Recommendations API on a real engine over the same store (the default hashing
  // embedder), its index kept by `catchUp` rather than a background consumer, so nothing
  // moves in the store between a request and its snapshot.
  const { core } = stack;
  const recs = await createSqlRecs({ db: core.store.db });
  const embedder = createHashedEmbedder();
  const recsIndexer = createRecsConsumer({ core, writer: recs.writer, embedder });
  const recsKey = await createApiKey(core, { actor: operator, projectId: stack.projectId, kind: 'recommendations' });
  const catchUp = async () => {
    await stack.catchUp();
    await recsIndexer.catchUp(stack.projectId);
  };
  await catchUp();
  const shared = {
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
  };
  const graphql = buildGraphqlApp({ ...shared, core: stack.core, index: stack.index, http: { rateLimits: [] } });
  const recommendations = buildRecommendationsApp({
    ...shared,
    engine: { core, reader: recs.reader, tracking: recs.tracking, embedder, signals: core.store.signals },
  });
  // Closed by `close` below through the apps themselves.
  const on = async (app: Parameters<typeof listen>[0]) =>
    (await listen(app, { host: '127.0.0.1', port: 0, graceMs: 1_000 })).url;
  const urls: Record<FuzzApi, string> = {
    management: new URL(stack.managementBaseUrl).origin,
    assets: stack.assetsUrl,
    delivery: await on(stack.delivery),
    preview: await on(stack.preview),
    graphql: await on(graphql),
    recommendations: await on(recommendations),
  };
  return {
    stack,
    urls,
    keys: {
      management: stack.managementKey,
      delivery: stack.deliveryKey,
      preview: stack.previewKey,
      recommendations: recsKey.secret,
    },
    known,
    async snapshot() {
      const [stored, staged] = await Promise.all([
        // Transformed images are a cache a read fills (bounded per project, issue 27): its blobs
        // and its ledger of sizes and last use are left out.
        storeSnapshot({
          db: core.store.db,
          blobs: stack.blobs,
          isBlobCounted: (key) => !key.includes('/transforms/'),
          exclude: [...Object.keys(bookkeepingTables), 'image_cache_entries'],
        }),
        // Bytes of bodies still being written (blob-fs `tmp/`): a torn or refused upload may not
        // leave any behind either (issue 27, finding 14), though `list` never shows them.
        readdir(join(stack.blobDir, 'tmp')).catch(() => []),
      ]);
      return { ...stored, 'blob store tmp/': String(staged.length) };
    },
    catchUp,
    async close() {
      // The stack closes Delivery and Preview; GraphQL and Recommendations are ours.
      await Promise.all([graphql.close(), recommendations.close()]);
      await stack.close();
    },
  };
}

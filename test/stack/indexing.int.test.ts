import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeliveryChannel, IndexedVariant, ItemQuery } from '@lectern/core';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestStack, type TestStack } from './test-stack.ts';

type Json = Record<string, unknown>;
let stack: TestStack;
let assetId: string;
let relatedId: string;
const componentId = '46c05bd9-d418-4507-836c-9accc5a39db3';

const call = (path: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> =>
  stack.managementJson(path, { method, body, headers });

/** A 2×2 grey PNG. */
function png(): Buffer {
  const part = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0])),
    part('IDAT', deflateSync(Buffer.from([0, 0x80, 0x80, 0, 0x80, 0x80]))),
    part('IEND', Buffer.alloc(0)),
  ]);
}

async function documents(channel: DeliveryChannel, languages = ['default']): Promise<IndexedVariant[]> {
  const query: ItemQuery = {
    projectId: stack.projectId,
    channel,
    languages,
    filters: [],
    order: null,
    skip: 0,
    limit: null,
    isTotalCountNeeded: false,
  };
  return [...(await stack.index.queryItems(query)).items];
}

async function one(channel: DeliveryChannel, codename: string): Promise<IndexedVariant | undefined> {
  return (await documents(channel)).find((d) => d.item.system.codename === codename);
}

beforeAll(async () => {
  // On the search-engine index when run by the `search` project (indexing.search.int.test.ts).
  stack = await startTestStack({ searchUrl: inject('searchUrl') });
  await call('/languages', 'POST', { name: 'Spanish', codename: 'es-ES', is_active: true });
  await call('/taxonomies', 'POST', {
    name: 'Topics',
    codename: 'topics',
    terms: [{ name: 'Coffee', codename: 'coffee', terms: [] }],
  });
  await call('/snippets', 'POST', {
    name: 'SEO',
    codename: 'seo',
    elements: [{ name: 'Meta title', codename: 'meta_title', type: 'text' }],
  });
  await call('/types', 'POST', {
    name: 'Widget',
    codename: 'widget',
    elements: [{ name: 'Caption', codename: 'caption', type: 'text' }],
  });
  await call('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text' },
      { name: 'Body', codename: 'body', type: 'rich_text' },
      { name: 'Count', codename: 'count', type: 'number' },
      { name: 'Date', codename: 'date', type: 'date_time' },
      {
        name: 'Kind',
        codename: 'kind',
        type: 'multiple_choice',
        mode: 'multiple',
        options: [
          { name: 'News', codename: 'news' },
          { name: 'Blog', codename: 'blog' },
        ],
      },
      { name: 'Image', codename: 'image', type: 'asset' },
      { name: 'Related', codename: 'related', type: 'modular_content' },
      { name: 'Pages', codename: 'pages', type: 'subpages' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
      { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      { name: 'Widget', codename: 'widget_data', type: 'custom', source_url: 'https://example.com/widget' },
      { type: 'snippet', snippet: { codename: 'seo' } },
    ],
  });
  const file = await call('/files/roast.png', 'POST', png(), { 'content-type': 'image/png' });
  const asset = await call('/assets', 'POST', {
    file_reference: { id: file['id'], type: 'internal' },
    title: 'Roast',
    descriptions: [{ language: { codename: 'default' }, description: 'A roast' }],
  });
  assetId = asset['id'] as string;
  const related = await call('/items', 'POST', {
    name: 'Related',
    codename: 'related_one',
    type: { codename: 'article' },
  });
  relatedId = related['id'] as string;
  await call('/items/codename/related_one/variants/codename/default', 'PUT', {
    elements: [
      { element: { codename: 'title' }, value: 'Related one' },
      { element: { codename: 'slug' }, value: 'related-one', mode: 'custom' },
    ],
  });
  await call('/items', 'POST', { name: 'On Roasts', codename: 'on_roasts', type: { codename: 'article' } });
  await call('/items/codename/on_roasts/variants/codename/default', 'PUT', {
    elements: [
      { element: { codename: 'title' }, value: 'On Roasts' },
      {
        element: { codename: 'body' },
        value:
          `<p>See <a data-item-id="${relatedId}">related</a> and <a href="https://example.com" data-new-window="true">web</a>.</p>` +
          `<figure data-asset-id="${assetId}"></figure>` +
          `<object type="application/kenticocloud" data-type="item" data-id="${relatedId}"></object>` +
          `<object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
        components: [
          {
            id: componentId,
            type: { codename: 'widget' },
            elements: [{ element: { codename: 'caption' }, value: 'Inside' }],
          },
        ],
      },
      { element: { codename: 'count' }, value: 3.5 },
      { element: { codename: 'date' }, value: '2024-05-01T10:00:00Z', display_timezone: 'Europe/Prague' },
      { element: { codename: 'kind' }, value: [{ codename: 'news' }, { codename: 'blog' }] },
      { element: { codename: 'image' }, value: [{ id: assetId }] },
      { element: { codename: 'related' }, value: [{ id: relatedId }] },
      { element: { codename: 'pages' }, value: [{ codename: 'related_one' }] },
      { element: { codename: 'topics' }, value: [{ codename: 'coffee' }] },
      { element: { codename: 'slug' }, value: 'on-roasts', mode: 'custom' },
      { element: { codename: 'widget_data' }, value: '["DE","US"]' },
      { element: { codename: 'seo__meta_title' }, value: 'Roasts' },
    ],
  });
  await stack.catchUp();
});
afterAll(async () => {
  await stack.close();
});

describe('indexer rendering', () => {
  it('renders every element kind with the recorded Delivery shapes', async () => {
    const doc = await one('preview', 'on_roasts');
    if (!doc) throw new Error('on_roasts is not indexed');
    const fixture = readFixture<{ item: { system: Json; elements: Record<string, Json> } }>(
      'delivery/kontent-ai+delivery-sdk-js/test/browser/isolated-tests/fake-data/fake-warrior-response.json',
    ).item;
    expect(shapeDifferences(doc.item.system, fixture.system, { isExact: true })).toEqual([]);
    const mine = doc.item.elements;
    const byKind = new Map(Object.values(mine).map((e) => [e.type, e]));
    for (const [codename, element] of Object.entries(fixture.elements)) {
      const kind = element['type'] as string;
      // id-keyed maps are compared entry by entry below; renditions are empty until presets exist
      const ignore = ['$.images', '$.links', '$.value[0].renditions'];
      expect(shapeDifferences(byKind.get(kind), element, { ignore }), `${codename} (${kind})`).toEqual([]);
    }
    expect(mine['count']?.value).toBe(3.5);
    expect(mine['date']).toMatchObject({ value: '2024-05-01T10:00:00Z', display_timezone: 'Europe/Prague' });
    expect(mine['kind']?.value).toEqual([
      { name: 'News', codename: 'news' },
      { name: 'Blog', codename: 'blog' },
    ]);
    expect(mine['related']).toEqual({ type: 'modular_content', name: 'Related', value: ['related_one'] });
    expect(mine['pages']).toEqual({ type: 'modular_content', name: 'Pages', value: ['related_one'] });
    expect(mine['topics']).toEqual({
      type: 'taxonomy',
      name: 'Topics',
      taxonomy_group: 'topics',
      value: [{ name: 'Coffee', codename: 'coffee' }],
    });
    expect(mine['slug']?.value).toBe('on-roasts');
    expect(mine['widget_data']?.value).toBe('["DE","US"]');
    expect(mine['seo__meta_title']).toEqual({ type: 'text', name: 'Meta title', value: 'Roasts' });
    const image = (mine['image']?.value as Json[])[0];
    expect(image).toMatchObject({
      name: 'roast.png',
      description: 'A roast',
      type: 'image/png',
      width: 2,
      height: 2,
      renditions: {},
    });
    expect(String(image?.['url'])).toMatch(/\/assets\/.+\/roast\.png$/);
  });

  it('renders rich text in Delivery form with images, links, inserted items and components', async () => {
    const doc = await one('preview', 'on_roasts');
    const body = doc?.item.elements['body'];
    const codename = `n${componentId.replace(/-/g, '_')}`;
    const fixture = readFixture<{ item: { elements: { plot: Json } } }>(
      'delivery/kontent-ai+delivery-sdk-js/test/browser/isolated-tests/fake-data/fake-warrior-response.json',
    ).item.elements.plot;
    // images and links are keyed by id: compare their entries
    expect(shapeDifferences(body, fixture, { isExact: true, ignore: ['$.images', '$.links'] })).toEqual([]);
    const firstOf = (map: unknown) => Object.values(map as Json)[0];
    expect(shapeDifferences(firstOf(body?.['images']), firstOf(fixture['images']), { isExact: true })).toEqual([]);
    expect(shapeDifferences(firstOf(body?.['links']), firstOf(fixture['links']), { isExact: true })).toEqual([]);
    const html = String(body?.value);
    expect(html).toContain(`<a data-item-id="${relatedId}" href="">related</a>`);
    expect(html).toContain('target="_blank" rel="noopener noreferrer"');
    expect(html).toMatch(
      new RegExp(
        `<figure data-asset-id="${assetId}" data-image-id="${assetId}"><img src="[^"]+/roast.png" data-asset-id="${assetId}" data-image-id="${assetId}" alt="A roast"></figure>`,
      ),
    );
    expect(html).toContain(
      '<object type="application/kenticocloud" data-type="item" data-rel="link" data-codename="related_one"></object>',
    );
    expect(html).toContain(
      `<object type="application/kenticocloud" data-type="item" data-rel="component" data-codename="${codename}"></object>`,
    );
    expect(body?.['links']).toEqual({
      [relatedId]: { codename: 'related_one', type: 'article', url_slug: 'related-one' },
    });
    expect(Object.keys(body?.['images'] as Json)).toEqual([assetId]);
    expect(body?.['modular_content']).toEqual(['related_one', codename]);
    const component = doc?.components[codename];
    expect(component?.system).toMatchObject({
      id: componentId,
      name: componentId,
      codename,
      type: 'widget',
      language: 'default',
    });
    expect(component?.system.workflow).toBeUndefined();
    expect(component?.elements['caption']?.value).toBe('Inside');
    expect(doc?.linkedItemCodenames).toEqual(['related_one']);
  });

  it('serves the published version on production and the latest on preview', async () => {
    expect(await one('production', 'on_roasts')).toBeUndefined();
    await call('/items/codename/on_roasts/variants/codename/default/publish', 'PUT');
    await stack.catchUp();
    const published = await one('production', 'on_roasts');
    expect(published?.item.system.workflow_step).toBe('published');
    expect(published?.item.elements['title']?.value).toBe('On Roasts');
    await call('/items/codename/on_roasts/variants/codename/default/new-version', 'PUT');
    await call('/items/codename/on_roasts/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'title' }, value: 'On Roasts, revised' }],
    });
    await stack.catchUp();
    expect((await one('production', 'on_roasts'))?.item.elements['title']?.value).toBe('On Roasts');
    const preview = await one('preview', 'on_roasts');
    expect(preview?.item.elements['title']?.value).toBe('On Roasts, revised');
    expect(preview?.item.system.workflow_step).toBe('draft');
    const changes = await stack.index.changesSince({
      projectId: stack.projectId,
      channel: 'production',
      afterSeq: 0,
      limit: 100,
    });
    expect(changes.map((c) => `${c.changeType}:${c.itemCodename}`)).toEqual(['changed:on_roasts']);
  });

  it('re-renders dependents and model documents, and removes deleted items', async () => {
    await call('/items/codename/related_one', 'PUT', { name: 'Related', codename: 'related_renamed' });
    await stack.catchUp();
    expect((await one('preview', 'on_roasts'))?.item.elements['related']?.value).toEqual(['related_renamed']);
    const types = await stack.index.types(stack.projectId);
    expect(types.map((t) => (t['system'] as Json)['codename'])).toEqual(['article', 'widget']);
    const languages = await stack.index.languages(stack.projectId);
    expect(languages.map((l) => [l.system.codename, l.isDefault, l.fallbackCodename])).toEqual([
      ['default', true, null],
      ['es-ES', false, 'default'],
    ]);
    expect((await stack.index.taxonomies(stack.projectId))[0]).toMatchObject({
      terms: [{ codename: 'coffee', terms: [] }],
    });
    await call('/items/codename/related_renamed', 'DELETE');
    await stack.catchUp();
    expect(await one('preview', 'related_renamed')).toBeUndefined();
    const last = await stack.index.changesSince({
      projectId: stack.projectId,
      channel: 'preview',
      afterSeq: 0,
      limit: 100,
    });
    expect(last.find((c) => c.itemCodename === 'related_renamed')?.changeType).toBe('deleted');
    expect(
      await stack.index.usedIn({ projectId: stack.projectId, channel: 'preview', target: { assetId } }),
    ).toHaveLength(1);
  });

  it('writes the read-ahead hint (what linked items link to), renewed with their links, without a Sync change', async () => {
    for (const codename of ['hint_c', 'hint_d']) {
      await call('/items', 'POST', { name: codename, codename, type: { codename: 'article' } });
      await call(`/items/codename/${codename}/variants/codename/default`, 'PUT', {
        elements: [{ element: { codename: 'title' }, value: codename }],
      });
    }
    const link = async (from: string, to: string, isNew: boolean) => {
      if (isNew) await call('/items', 'POST', { name: from, codename: from, type: { codename: 'article' } });
      await call(`/items/codename/${from}/variants/codename/default`, 'PUT', {
        elements: [{ element: { codename: 'related' }, value: [{ codename: to }] }],
      });
    };
    await link('hint_b', 'hint_c', true);
    await link('hint_a', 'hint_b', true);
    await stack.catchUp();
    expect((await one('preview', 'hint_a'))?.nextLinkedItemCodenames).toEqual(['hint_c']);
    expect((await one('preview', 'hint_b'))?.nextLinkedItemCodenames).toBeUndefined();

    const watermark = await stack.index.watermark(stack.projectId);
    await link('hint_b', 'hint_d', false);
    await stack.catchUp();
    expect((await one('preview', 'hint_a'))?.nextLinkedItemCodenames).toEqual(['hint_d']);
    const changes = await stack.index.changesSince({
      projectId: stack.projectId,
      channel: 'preview',
      afterSeq: watermark,
      limit: 100,
    });
    expect(changes.map((c) => c.itemCodename)).toEqual(['hint_b']);
    // Delivery follows the renewed chain (both levels read in one fetch after the list).
    const res = await stack.preview.inject({
      url: `/${stack.projectId}/items?system.codename=hint_a&depth=2`,
      headers: { authorization: `Bearer ${stack.previewKey}` },
    });
    expect(Object.keys((res.json() as { modular_content: Json }).modular_content).sort()).toEqual(['hint_b', 'hint_d']);
  });

  it('is idempotent: indexing every event again gives the same documents', async () => {
    const before = { production: await documents('production'), preview: await documents('preview') };
    const watermark = await stack.index.watermark(stack.projectId);
    await stack.indexer.rebuild({ projectId: stack.projectId });
    await stack.catchUp();
    expect(await stack.index.watermark(stack.projectId)).toBe(watermark);
    expect({ production: await documents('production'), preview: await documents('preview') }).toEqual(before);
  });

  it('answers Delivery used-in for an asset named by its codename (or id)', async () => {
    const usedIn = async (asset: string) => {
      const res = await stack.preview.inject({
        url: `/${stack.projectId}/assets/${asset}/used-in`,
        headers: { authorization: `Bearer ${stack.previewKey}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { items: { system: { codename: string } }[] }).items.map((i) => i.system.codename);
    };
    expect(await usedIn('roast')).toEqual(['on_roasts']);
    expect(await usedIn(assetId)).toEqual(['on_roasts']);
    expect(await usedIn('no_such_asset')).toEqual([]);
  });
});

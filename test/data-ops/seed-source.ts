import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

type Json = Record<string, unknown>;

/** Management API v2 calls on one project, as a user's script would make them. */
export interface ManagementClient {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json>;
}

export function managementClient(options: { baseUrl: string; projectId: string; key: string }): ManagementClient {
  return {
    async call(method, path, body, headers = {}) {
      const isRaw = body instanceof Uint8Array;
      const send = () =>
        fetch(`${options.baseUrl}/v2/projects/${options.projectId}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.key}`,
            ...(isRaw ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(body === undefined ? {} : { body: isRaw ? body : JSON.stringify(body) }),
        });
      let response = await send();
      // Management's rate limits (SPEC 8) answer 429 with Retry-After; a client waits and retries.
      while (response.status === 429) {
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
        response = await send();
      }
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text === '' ? {} : (JSON.parse(text) as Json);
    },
  };
}

/** A 2×2 grey PNG, generated. */
function smallPng(): Uint8Array {
  const part = (type: string, data: Buffer): Buffer => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      part('IHDR', Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0])),
      part('IDAT', deflateSync(Buffer.from([0, 0x80, 0x80, 0, 0x80, 0x80]))),
      part('IEND', Buffer.alloc(0)),
    ]),
  );
}

const component = 'application/kenticocloud';

/**
 * A project with every part data-ops moves: languages with fallbacks, collections, a space, asset
 * folders, a taxonomy, a snippet, types with every element kind, a workflow with scopes, an asset
 * with its binary, and items whose variants are published, draft, archived and scheduled, with
 * rich text holding a component, an item link, an inline item and an image.
 */
export async function seedSource(api: ManagementClient): Promise<void> {
  await api.call('POST', '/languages', {
    name: 'Czech',
    codename: 'cs-CZ',
    is_active: true,
    fallback_language: { codename: 'default' },
  });
  await api.call('POST', '/languages', {
    name: 'German',
    codename: 'de-DE',
    is_active: true,
    fallback_language: { codename: 'cs-CZ' },
  });
  await api.call('PATCH', '/collections', [
    { op: 'addInto', value: { name: 'Marketing', codename: 'marketing' } },
    { op: 'addInto', value: { name: 'Docs', codename: 'docs' } },
  ]);
  await api.call('POST', '/spaces', { name: 'Website', codename: 'website', collections: [{ codename: 'marketing' }] });
  await api.call('POST', '/folders', {
    folders: [{ name: 'Images', codename: 'images', folders: [{ name: 'Photos', codename: 'photos', folders: [] }] }],
  });
  await api.call('POST', '/taxonomies', {
    name: 'Topics',
    codename: 'topics',
    terms: [
      { name: 'Coffee', codename: 'coffee', terms: [{ name: 'Espresso', codename: 'espresso', terms: [] }] },
      { name: 'Tea', codename: 'tea', terms: [] },
    ],
  });
  await api.call('POST', '/snippets', {
    name: 'SEO',
    codename: 'seo',
    elements: [{ name: 'Meta title', codename: 'meta_title', type: 'text' }],
  });
  await api.call('POST', '/types', {
    name: 'Callout',
    codename: 'callout',
    elements: [{ name: 'Text', codename: 'text', type: 'text' }],
  });
  await api.call('POST', '/types', {
    name: 'Article',
    codename: 'article',
    external_id: 'article-type',
    elements: [
      { name: 'Title', codename: 'title', type: 'text', is_required: true },
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
      { name: 'Widget', codename: 'widget', type: 'custom', source_url: 'https://example.com/widget' },
      { type: 'guidelines', codename: 'guide', guidelines: '<p>Write short titles.</p>' },
      { type: 'snippet', snippet: { codename: 'seo' } },
    ],
  });
  await api.call('POST', '/workflows', {
    name: 'Editorial',
    codename: 'editorial',
    scopes: [{ content_types: [{ codename: 'article' }], collections: [{ codename: 'marketing' }] }],
    steps: [
      {
        name: 'Writing',
        codename: 'writing',
        color: 'red',
        transitions_to: [{ step: { codename: 'review' } }],
        role_ids: [],
      },
      {
        name: 'Review',
        codename: 'review',
        color: 'sky-blue',
        transitions_to: [{ step: { codename: 'writing' } }, { step: { codename: 'published' } }],
        role_ids: [],
      },
    ],
    published_step: { create_new_version_role_ids: [], unpublish_role_ids: [] },
    archived_step: { role_ids: [] },
  });
  const file = await api.call('POST', '/files/beans.png', smallPng(), { 'content-type': 'image/png' });
  const asset = await api.call('POST', '/assets', {
    file_reference: file,
    title: 'Beans',
    codename: 'beans',
    external_id: 'beans-asset',
    folder: { codename: 'photos' },
    descriptions: [
      { language: { codename: 'default' }, description: 'Coffee beans' },
      { language: { codename: 'cs-CZ' }, description: 'Kávová zrna' },
    ],
  });
  await seedItems(api, asset['id'] as string);
}

async function seedItems(api: ManagementClient, assetId: string): Promise<void> {
  const items = ['espresso', 'latte', 'mocha', 'cortado', 'lungo', 'ristretto'];
  for (const codename of items)
    await api.call('POST', '/items', {
      name: codename[0]?.toUpperCase() + codename.slice(1),
      codename,
      type: { codename: 'article' },
      collection: { codename: codename === 'cortado' || codename === 'lungo' ? 'docs' : 'marketing' },
      external_id: `item-${codename}`,
    });
  const variant = (codename: string, language: string) => `/items/codename/${codename}/variants/codename/${language}`;
  const componentId = randomUUID();
  const elements = (title: string) => [
    { element: { codename: 'title' }, value: title },
    {
      element: { codename: 'body' },
      value:
        `<p>About <a data-item-external-id="item-latte" title="Latte">latte</a>.</p>` +
        `<object type="${component}" data-type="component" data-id="${componentId}"></object>` +
        `<object type="${component}" data-type="item" data-external-id="item-mocha"></object>` +
        `<figure data-asset-id="${assetId}"><img src="#" data-asset-id="${assetId}"></figure>`,
      components: [
        {
          id: componentId,
          type: { codename: 'callout' },
          elements: [{ element: { codename: 'text' }, value: 'Shots' }],
        },
      ],
    },
    { element: { codename: 'count' }, value: 3 },
    { element: { codename: 'date' }, value: '2026-05-01T10:00:00Z' },
    { element: { codename: 'kind' }, value: [{ codename: 'news' }, { codename: 'blog' }] },
    { element: { codename: 'image' }, value: [{ id: assetId }] },
    { element: { codename: 'related' }, value: [{ codename: 'latte' }, { codename: 'cortado' }] },
    { element: { codename: 'pages' }, value: [{ codename: 'lungo' }] },
    { element: { codename: 'topics' }, value: [{ codename: 'espresso' }] },
    { element: { codename: 'slug' }, value: title.toLowerCase().replaceAll(' ', '-'), mode: 'custom' },
    { element: { codename: 'widget' }, value: '{"rating":5}' },
    { element: { codename: 'seo__meta_title' }, value: `${title} | Coffee` },
  ];
  for (const codename of items)
    await api.call('PUT', variant(codename, 'default'), { elements: elements(`${codename} title`) });
  await api.call('PUT', variant('espresso', 'cs-CZ'), { elements: elements('Espresso česky') });
  // Published: espresso (both languages) and latte (with a new draft version); archived: mocha;
  // scheduled: lungo; in a custom workflow's step: ristretto; a draft: cortado.
  for (const [codename, language] of [
    ['espresso', 'default'],
    ['espresso', 'cs-CZ'],
    ['latte', 'default'],
    ['mocha', 'default'],
  ] as const)
    await api.call('PUT', `${variant(codename, language)}/publish`);
  await api.call('PUT', `${variant('mocha', 'default')}/unpublish-and-archive`);
  await api.call('PUT', `${variant('lungo', 'default')}/publish`, { scheduled_to: '2099-01-01T00:00:00Z' });
  await api.call('PUT', `${variant('latte', 'default')}/new-version`);
  await api.call('PUT', `${variant('ristretto', 'default')}/change-workflow`, {
    workflow_identifier: { codename: 'editorial' },
    step_identifier: { codename: 'review' },
  });
}

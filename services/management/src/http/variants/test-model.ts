import { crc32, deflateSync } from 'node:zlib';
import type { TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;

/** Ids of the content model `seedContentModel` creates. */
export interface TestModel {
  readonly articleTypeId: string;
  readonly widgetTypeId: string;
  readonly spanishId: string;
  readonly termId: string;
  readonly element: (codename: string) => string;
}

async function post(server: TestManagement, path: string, body: unknown): Promise<Json> {
  const response = await server.fetch(path, { method: 'POST', body: JSON.stringify(body) });
  const json = (await response.json()) as Json;
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * A content model with every element kind: a taxonomy, an SEO snippet, a `widget` type for
 * components and an `article` type; plus a Spanish language.
 */
export async function seedContentModel(server: TestManagement): Promise<TestModel> {
  const language = await post(server, '/languages', { name: 'Spanish', codename: 'es-ES', is_active: true });
  const taxonomy = await post(server, '/taxonomies', {
    name: 'Topics',
    codename: 'topics',
    terms: [{ name: 'Coffee', codename: 'coffee', external_id: 'coffee', terms: [] }],
  });
  await post(server, '/snippets', {
    name: 'SEO',
    codename: 'seo',
    elements: [{ name: 'Meta title', codename: 'meta_title', type: 'text' }],
  });
  const widget = await post(server, '/types', {
    name: 'Widget',
    codename: 'widget',
    elements: [
      { name: 'Caption', codename: 'caption', type: 'text', is_required: true },
      { name: 'Inner', codename: 'inner', type: 'rich_text' },
    ],
  });
  const article = await post(server, '/types', {
    name: 'Article',
    codename: 'article',
    external_id: 'article',
    elements: [
      {
        name: 'Title',
        codename: 'title',
        type: 'text',
        is_required: true,
        maximum_text_length: { value: 60, applies_to: 'characters' },
      },
      {
        name: 'Code',
        codename: 'code',
        type: 'text',
        is_non_localizable: true,
        validation_regex: { regex: '^[A-Z]+$', is_active: true },
      },
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
      { name: 'Image', codename: 'image', type: 'asset', asset_count_limit: { value: 1, condition: 'at_most' } },
      {
        name: 'Related',
        codename: 'related',
        type: 'modular_content',
        allowed_content_types: [{ external_id: 'article' }],
      },
      { name: 'Pages', codename: 'pages', type: 'subpages' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
      { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
      { name: 'Widget', codename: 'widget_data', type: 'custom', source_url: 'https://example.com/widget' },
      { type: 'snippet', snippet: { codename: 'seo' } },
    ],
  });
  const elements = article['elements'] as { id: string; codename: string }[];
  const byCodename = new Map(elements.map((e) => [e.codename, e.id]));
  const snippet = (await (await server.fetch('/snippets/codename/seo')).json()) as {
    elements: { id: string; codename: string }[];
  };
  for (const e of snippet.elements) byCodename.set(e.codename, e.id);
  const widgetElements = widget['elements'] as { id: string; codename: string }[];
  for (const e of widgetElements) byCodename.set(`widget.${e.codename}`, e.id);
  const terms = taxonomy['terms'] as { id: string }[];
  return {
    articleTypeId: article['id'] as string,
    widgetTypeId: widget['id'] as string,
    spanishId: language['id'] as string,
    termId: terms[0]?.id as string,
    element: (codename) => {
      const id = byCodename.get(codename);
      if (!id) throw new Error(`no element ${codename}`);
      return id;
    },
  };
}

/** A 2×2 grey PNG, generated: signature, IHDR, one IDAT, IEND. */
export function smallPng(): Buffer {
  const part = (type: string, data: Buffer): Buffer => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0]); // 2×2, 8-bit greyscale
  const pixels = Buffer.from([0, 0x80, 0x80, 0, 0x80, 0x80]); // filter byte + 2 pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', ihdr),
    part('IDAT', deflateSync(pixels)),
    part('IEND', Buffer.alloc(0)),
  ]);
}
